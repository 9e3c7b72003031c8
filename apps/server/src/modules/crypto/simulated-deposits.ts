import { AppError, CRYPTO_TEXTS, type CryptoAsset } from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { isValidAddress, isValidDestinationTag } from './addresses/validate.js';
import type { CryptoServiceDeps } from './deposit-context.js';
import type { DepositWatcher } from './deposit-watcher.js';

/** Staff and tests pay, confirm and drop deposits on the simulated chain; the watcher then runs at once. */
export function createSimulatedDeposits(deps: CryptoServiceDeps, watcher: DepositWatcher) {
  const { db } = deps;

  function simulatedOnly(asset: CryptoAsset): void {
    if (deps.chains[asset] !== deps.simulated.client)
      throw new AppError('CONFLICT', `${asset} is watched on a real chain, not the simulated one.`);
  }

  async function broadcastSimulated(
    actor: AuditActor | null,
    body: {
      asset: CryptoAsset;
      address: string;
      tag?: string | null;
      amount: string;
      txid?: string | null;
    },
  ) {
    simulatedOnly(body.asset);
    if (!isValidAddress(body.asset, body.address, deps.addresses.network))
      throw new AppError('VALIDATION_FAILED', undefined, { address: [CRYPTO_TEXTS.unknownAddress] });
    const tag = body.asset === 'XRP' ? (body.tag ?? null) : null;
    if (tag !== null && !isValidDestinationTag(tag))
      throw new AppError('VALIDATION_FAILED', undefined, {
        tag: ['A destination tag is a whole number below 4294967296.'],
      });
    let amount: bigint;
    try {
      amount = parseAmount(body.amount, body.asset);
    } catch {
      throw new AppError('VALIDATION_FAILED', undefined, {
        amount: ['Too many decimal places for the coin.'],
      });
    }
    if (amount <= 0n)
      throw new AppError('VALIDATION_FAILED', undefined, {
        amount: ['Enter an amount greater than zero.'],
      });
    const row = await deps.simulated
      .broadcast({ asset: body.asset, address: body.address.trim(), tag, amount, txid: body.txid })
      .catch((error: unknown) => {
        if (String(error).includes('unique') || String(error).includes('duplicate'))
          throw new AppError('CONFLICT', 'A transaction with this id is already on the simulated chain.');
        throw error;
      });
    if (actor)
      await recordAudit(db, {
        ...actor,
        action: 'crypto.simulated_deposit',
        targetType: 'simulated_chain',
        targetId: row.txid,
        after: { asset: body.asset, address: row.address, tag, amount: body.amount },
      });
    await watcher.watchOnce([body.asset]);
    return {
      data: {
        asset: body.asset,
        txid: row.txid,
        output: row.output,
        address: row.address,
        tag: row.tag,
        amount: formatAmount(BigInt(row.amount), body.asset),
        block_height: row.block_height,
        dropped: row.dropped_at !== null,
      },
      message: CRYPTO_TEXTS.broadcast,
    };
  }

  async function mineSimulated(actor: AuditActor | null, asset: CryptoAsset, blocks: number) {
    simulatedOnly(asset);
    const height = await deps.simulated.mine(asset, blocks);
    if (actor)
      await recordAudit(db, {
        ...actor,
        action: 'crypto.simulated_mined',
        targetType: 'simulated_chain',
        targetId: asset,
        after: { blocks, height },
      });
    await watcher.watchOnce([asset]);
    return { data: { asset, height }, message: CRYPTO_TEXTS.mined };
  }

  async function dropSimulated(actor: AuditActor | null, asset: CryptoAsset, txid: string) {
    simulatedOnly(asset);
    const credited = await db
      .selectFrom('crypto_deposits')
      .select('status')
      .where('asset', '=', asset)
      .where('txid', '=', txid)
      .where('status', 'in', ['credited', 'suspense', 'returned'])
      .executeTakeFirst();
    // A credited deposit is past its confirmations: a reorganisation that deep is out of scope.
    if (credited) throw new AppError('CONFLICT', CRYPTO_TEXTS.notDroppable);
    if (!(await deps.simulated.drop(asset, txid))) throw new AppError('NOT_FOUND');
    if (actor)
      await recordAudit(db, {
        ...actor,
        action: 'crypto.simulated_dropped',
        targetType: 'simulated_chain',
        targetId: txid,
        after: { asset },
      });
    await watcher.watchOnce([asset]);
    return { message: CRYPTO_TEXTS.dropped };
  }

  return { broadcastSimulated, mineSimulated, dropSimulated };
}
