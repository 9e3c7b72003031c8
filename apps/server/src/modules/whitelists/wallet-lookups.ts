import type { CryptoAsset } from '@florin/contracts';
import { isValidAddress, normalizeAddress } from '../crypto/service.js';
import { isIdText, type WhitelistServiceDeps } from './shared.js';

/** What the crypto withdrawal service reads of the whitelist: a live wallet by id or by destination. */
export function createWalletLookups(deps: WhitelistServiceDeps) {
  const { repository } = deps;
  return {
    /** The customer's live whitelisted wallet with this id (full address), or undefined. */
    async findWallet(
      userId: number,
      id: string,
    ): Promise<
      { id: string; asset: string; address: string; tag: string | null; usable_from: Date } | undefined
    > {
      if (!isIdText(id)) return undefined;
      const row = await repository.findLiveWallet(userId, id);
      return (
        row && {
          id: row.id,
          asset: row.asset,
          address: row.address,
          tag: row.tag,
          usable_from: row.usable_from,
        }
      );
    },

    /** The customer's live whitelisted wallet for this destination, however its address is spelled. */
    async findByAddress(
      userId: number,
      asset: string,
      address: string,
      tag: string | null,
    ): Promise<{ id: string; usable_from: Date } | undefined> {
      const code = asset.toUpperCase() as CryptoAsset;
      if (!isValidAddress(code, address, deps.network)) return undefined;
      const row = await repository.findLiveWalletByAddress(
        userId,
        code,
        normalizeAddress(code, address, deps.network),
        code === 'XRP' && tag !== null && tag !== '' ? String(Number(tag)) : null,
      );
      return row && { id: row.id, usable_from: row.usable_from };
    },
  };
}
