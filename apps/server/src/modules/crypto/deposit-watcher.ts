import { CRYPTO_ASSETS, CRYPTO_DEPOSIT_TRANSITIONS, type CryptoAsset } from '@florin/contracts';
import { transition } from '../../lifecycle.js';
import { xrpHouseAddressOf } from './address-sources.js';
import type { CryptoServiceDeps, DepositContext } from './deposit-context.js';
import type { QueuedMail } from '../notifications/service.js';
import type { CoinRules, CryptoCustomer, CryptoDepositRow } from './repository.js';
import { custodyRef, suspenseRef, userRef } from './shared.js';

export type WatchSummary = { seen: number; credited: number; suspense: number; dropped: number };

/** The key that makes a chain payment one deposit: chain (the coin), txid and output. */
export function depositIdempotencyKey(asset: string, txid: string, output: number): string {
  return `crypto_deposit:${asset}:${txid}:${output}`;
}

/** Where a coin's payment is compared: ETH addresses in any case are one address. */
function addressKey(asset: string, address: string): string {
  return asset === 'ETH' ? address.toLowerCase() : address;
}

/**
 * Watches the chains for payments to the customers' addresses, counts their confirmations and credits
 * each one deep enough through the ledger exactly once.
 */
export function createDepositWatcher(deps: CryptoServiceDeps, context: DepositContext) {
  const { db, repository, ledger, userEvents } = deps;
  const { coinRules, gbpValueOf, queueCreditMail, afterCredit } = context;

  /**
   * Books one confirmed deposit: to the customer, or to suspense when the
   * payment names nobody. Under the row's lock, so two watchers book it once.
   */
  async function creditDeposit(
    id: string,
  ): Promise<{ row: CryptoDepositRow; customer?: CryptoCustomer; mail?: QueuedMail } | null> {
    return db.transaction().execute(async (trx) => {
      const row = await repository.lockDeposit(trx, id);
      if (!row || row.status !== 'pending' || row.confirmations < row.required_confirmations) return null;
      const amount = BigInt(row.amount);
      const customer = row.user_id === null ? undefined : await repository.findCustomer(row.user_id, trx);
      const toSuspense = !customer;
      const { journalId } = await ledger.postJournal(trx, {
        idempotencyKey: depositIdempotencyKey(row.asset, row.txid, row.output),
        kind: 'crypto_deposit',
        reference: `crypto_deposit:${row.id}`,
        metadata: {
          txid: row.txid,
          output: row.output,
          address: row.address,
          ...(row.tag === null ? {} : { tag: row.tag }),
          to: toSuspense ? 'suspense' : 'customer',
          ...gbpValueOf(row.asset, amount),
        },
        postings: [
          { account: custodyRef(row.asset), amount: -amount },
          { account: toSuspense ? suspenseRef(row.asset) : userRef(customer.id, row.asset), amount },
        ],
      });
      const status = transition(CRYPTO_DEPOSIT_TRANSITIONS, row.status, toSuspense ? 'suspense' : 'credited');
      await repository.updateDeposit(trx, id, {
        status,
        journal_id: journalId,
        ...(toSuspense ? {} : { credited_at: new Date() }),
      });
      const credited = { ...row, status, journal_id: journalId };
      const mail = customer ? await queueCreditMail(trx, credited, customer) : undefined;
      return { row: credited, customer, mail };
    });
  }

  /** One coin: records what the chain shows, drops what left it, credits what is deep enough. */
  async function watchAsset(asset: CryptoAsset, rules: CoinRules): Promise<WatchSummary> {
    const summary: WatchSummary = { seen: 0, credited: 0, suspense: 0, dropped: 0 };
    const addressRows = await repository.listAddressesOfAsset(asset);
    const byAddress = new Map(addressRows.map((row) => [addressKey(asset, row.address), row]));
    const byTag = new Map(addressRows.filter((row) => row.tag !== null).map((row) => [row.tag!, row]));
    const house = xrpHouseAddressOf(deps.addresses);
    const watched = new Set(asset === 'XRP' ? (house ? [house] : []) : byAddress.keys());

    const cursor = await repository.findCursor(asset);
    const startedAt = await repository.now();
    const scan = await deps.chains[asset].scan({
      asset,
      cursor: cursor?.cursor ?? null,
      addresses: watched,
      confirmations: rules.confirmations,
    });
    const touched = new Set<number>();
    for (const transfer of scan.transfers) {
      let owner: { id: string; user_id: number; address: string } | undefined;
      if (asset === 'XRP') {
        if (transfer.address !== house) continue;
        owner = transfer.tag === null ? undefined : byTag.get(transfer.tag);
      } else {
        owner = byAddress.get(addressKey(asset, transfer.address));
        if (!owner) continue;
      }
      const sighting = await repository.recordSighting({
        asset,
        txid: transfer.txid,
        output: transfer.output,
        // The address as we issued it (a node may write ETH addresses in lower case).
        address: owner && asset !== 'XRP' ? owner.address : transfer.address,
        tag: transfer.tag,
        amount: transfer.amount.toString(),
        user_id: owner?.user_id ?? null,
        deposit_address_id: owner?.id ?? null,
        confirmations: Math.max(0, transfer.confirmations),
        required_confirmations: rules.confirmations,
      });
      if (sighting?.isNew) {
        summary.seen += 1;
        if (owner) touched.add(owner.user_id);
      }
    }
    if (scan.isComplete) {
      const dropped = await repository.dropUnseen(asset, startedAt);
      summary.dropped = dropped.length;
      for (const row of dropped) if (row.user_id !== null) touched.add(row.user_id);
    }
    for (const { id } of await repository.listConfirmedPending(asset)) {
      const result = await creditDeposit(id);
      if (!result) continue;
      if (result.customer) {
        summary.credited += 1;
        touched.delete(result.customer.id);
        await afterCredit(result.customer, result.mail);
      } else {
        summary.suspense += 1;
      }
    }
    await repository.saveCursor(asset, scan.cursor, scan.height);
    if (touched.size > 0) userEvents.moneyMoved([...touched]);
    return summary;
  }

  /**
   * Scans every coin once. Safe to run on several instances at once: a
   * sighting is an upsert, crediting takes the row's lock and the ledger's
   * key, and a deposit is dropped only when no scan has seen it since this
   * one began.
   */
  async function watchOnce(assets: readonly CryptoAsset[] = CRYPTO_ASSETS): Promise<WatchSummary> {
    const rules = await coinRules();
    const total: WatchSummary = { seen: 0, credited: 0, suspense: 0, dropped: 0 };
    for (const asset of assets) {
      const rule = rules.get(asset);
      if (!rule) continue;
      try {
        const summary = await watchAsset(asset, rule);
        total.seen += summary.seen;
        total.credited += summary.credited;
        total.suspense += summary.suspense;
        total.dropped += summary.dropped;
      } catch (error) {
        if (!deps.log) throw error;
        // One chain's node being down must not stop the others.
        deps.log.error({ err: error, asset }, 'deposit watcher failed');
      }
    }
    return total;
  }

  return { watchOnce };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
