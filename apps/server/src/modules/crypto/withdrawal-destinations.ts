import { AppError, CRYPTO_WITHDRAW_TEXTS, waitUntilText, type CryptoAsset } from '@florin/contracts';
import { xrpHouseAddressOf } from './address-sources.js';
import { isValidAddress, isValidDestinationTag, normalizeAddress } from './addresses/validate.js';
import { tagKey, type CryptoWithdrawalServiceDeps, type WithdrawRequestBody } from './withdrawal-context.js';

/** A destination that is Florin's own, and why (florinDestinationOf). */
export type FlorinDestination = 'own_deposit_address' | 'house_address_without_customer';

/** Where a withdrawal may go: checked addresses and tags, never back into Florin's own. */
export function createWithdrawalDestinations(deps: CryptoWithdrawalServiceDeps) {
  const { repository, clock } = deps;

  /**
   * Whether a destination, however it was written, is Florin's own: XRP's shared house address without
   * a customer's tag (none, or one nobody has) is nobody's, and the coins would wait in suspense for
   * staff; the customer's own deposit address, with their tag at XRP's, would bring the coins back less
   * the fee. Another customer's address, or the house address with their tag, is a payment to them.
   */
  async function florinDestinationOf(
    userId: number,
    asset: CryptoAsset,
    address: string,
    tag: string | null,
  ): Promise<FlorinDestination | null> {
    const normalized = normalizeAddress(asset, address, deps.addresses.network);
    const key = tagKey(tag);
    if (
      asset === 'XRP' &&
      normalized === xrpHouseAddressOf(deps.addresses) &&
      (key === null || !(await repository.isCustomerTag(key)))
    )
      return 'house_address_without_customer';
    return (await repository.isOwnDepositAddress(userId, asset, normalized, key))
      ? 'own_deposit_address'
      : null;
  }

  async function refuseFlorinDestination(
    userId: number,
    asset: CryptoAsset,
    address: string,
    tag: string | null,
  ): Promise<void> {
    const destination = await florinDestinationOf(userId, asset, address, tag);
    if (destination === null) return;
    const text =
      destination === 'house_address_without_customer'
        ? CRYPTO_WITHDRAW_TEXTS.houseAddressWithoutTag
        : CRYPTO_WITHDRAW_TEXTS.sendToOwnAddress;
    throw new AppError('VALIDATION_FAILED', text, { wallet: [text] });
  }

  /** Where the coins go: a saved (whitelisted) address, or a typed one that passes the coin's checksum. */
  async function destinationOf(userId: number, asset: CryptoAsset, body: WithdrawRequestBody) {
    if (body.whitelisted_wallet_id) {
      const saved = await deps.savedAddresses.findWallet(userId, String(body.whitelisted_wallet_id));
      if (!saved || saved.asset !== asset)
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.savedAddressGone, {
          whitelisted_wallet_id: [CRYPTO_WITHDRAW_TEXTS.savedAddressGone],
        });
      if (saved.usable_from > clock.now())
        throw new AppError(
          'FORBIDDEN',
          waitUntilText(CRYPTO_WITHDRAW_TEXTS.whitelistWait, saved.usable_from),
          undefined,
          { usable_from: saved.usable_from.toISOString() },
        );
      // The whitelist holds address and tag as one destination: at an exchange's shared address the
      // tag is the recipient's account, so another tag is another (not whitelisted) destination.
      const given = asset === 'XRP' && body.xrp_tag ? body.xrp_tag : null;
      if (given !== null && !isValidDestinationTag(given))
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.tagInvalid, {
          xrp_tag: [CRYPTO_WITHDRAW_TEXTS.tagInvalid],
        });
      if (given !== null && tagKey(given) !== tagKey(saved.tag))
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag, {
          xrp_tag: [CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag],
        });
      const tag = asset === 'XRP' ? saved.tag : null;
      // Whitelisted before this check existed, or at the shared XRP address, a saved one may be the customer's own.
      await refuseFlorinDestination(userId, asset, saved.address, tag);
      return { address: saved.address, tag, whitelistedId: saved.id };
    }
    const address = (body.wallet ?? '').trim();
    if (!isValidAddress(asset, address, deps.addresses.network))
      throw new AppError('INVALID_ADDRESS', undefined, undefined, { address });
    const given = asset === 'XRP' && body.xrp_tag ? body.xrp_tag : null;
    if (given !== null && !isValidDestinationTag(given))
      throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.tagInvalid, {
        xrp_tag: [CRYPTO_WITHDRAW_TEXTS.tagInvalid],
      });
    // A tag is a number on the chain: 01000017 is 1000017, and is kept and compared so.
    const tag = tagKey(given);
    await refuseFlorinDestination(userId, asset, address, tag);
    const saved = await deps.savedAddresses.findByAddress(userId, asset, address, tag);
    return { address, tag, whitelistedId: saved?.id ?? null };
  }

  return { florinDestinationOf, destinationOf };
}
export type WithdrawalDestinations = ReturnType<typeof createWithdrawalDestinations>;
