import { Decimal } from 'decimal.js';
import { sql, type Kysely } from 'kysely';
import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_ASSETS,
  CRYPTO_DEPOSIT_STATUS_LABELS,
  CRYPTO_DEPOSITS_PAGE_SIZE,
  CRYPTO_TEXTS,
  ERROR_CODES,
  listAdminCryptoDeposits,
  listCryptoDeposits,
  type AdminCryptoDeposit,
  type CoinId,
  type CryptoAsset,
  type CryptoDeposit,
  type CryptoDepositStatus,
  type DepositUnavailable,
  type DepositWallet,
  type Page,
} from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { DomainCheck, Ledger } from '../../ledger/index.js';
import { readPage } from '../../http/pages.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import { destinationTagOf, xrpHouseAddressOf, type AddressSources } from './address-sources.js';
import { isValidAddress, isValidDestinationTag } from './addresses/validate.js';
import type { ChainClient } from './chains/types.js';
import type { SimulatedChain } from './chains/simulated.js';
import type {
  AdminCryptoDepositRow,
  CoinRules,
  CryptoCustomer,
  CryptoDepositRow,
  CryptoRepository,
  DepositAddressRow,
} from './repository.js';

/** GBP values in journal metadata: exact decimal arithmetic, never a JS number. */
const GbpDecimal = Decimal.clone({ precision: 80 });

type Answer<T> = { data: T; message: string };
type Log = { error: (object: object, message: string) => void };

export type CryptoServiceDeps = {
  db: Kysely<DB>;
  repository: CryptoRepository;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: Pick<UserEvents, 'moneyMoved'>;
  /** What one unit of an asset is worth in GBP now; null without a fresh price (market.gbpRate). */
  gbpRate: (asset: string) => string | null;
  addresses: AddressSources;
  /** The chain each coin is watched on; the simulated chain where none is configured. */
  chains: Record<CryptoAsset, ChainClient>;
  simulated: SimulatedChain;
  /** Spec 000 §6: a customer whose verification is incomplete is given no deposit address. */
  verification: VerificationGate;
  log?: Log;
};

export type CryptoService = ReturnType<typeof createCryptoService>;

export type WatchSummary = { seen: number; credited: number; suspense: number; dropped: number };

function isLive(customer: Pick<CryptoCustomer, 'status' | 'block_status'>): boolean {
  return customer.status === 1 && customer.block_status !== ON_HOLD;
}

function asAsset(code: string): CryptoAsset {
  return code as CryptoAsset;
}

function toWallet(row: DepositAddressRow, confirmations: number): DepositWallet {
  return {
    coin_id: coinIdOfAsset(asAsset(row.asset)),
    address: row.address,
    tag: row.tag,
    confirmations,
    created_at: row.created_at.toISOString(),
  };
}

function toDeposit(row: CryptoDepositRow): CryptoDeposit {
  const asset = asAsset(row.asset);
  return {
    id: row.id,
    coin_id: coinIdOfAsset(asset),
    amount: formatAmount(BigInt(row.amount), asset),
    txid: row.txid,
    address: row.address,
    tag: row.tag,
    status: row.status,
    status_label: CRYPTO_DEPOSIT_STATUS_LABELS[row.status],
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    created_at: row.created_at.toISOString(),
    credited_at: row.credited_at?.toISOString() ?? null,
  };
}

function toAdminDeposit(row: AdminCryptoDepositRow): AdminCryptoDeposit {
  return {
    ...toDeposit(row),
    asset: asAsset(row.asset),
    output: row.output,
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    resolution_note: row.resolution_note,
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

/** The key that makes a chain payment one deposit: chain (the coin), txid and output. */
export function depositIdempotencyKey(asset: string, txid: string, output: number): string {
  return `crypto_deposit:${asset}:${txid}:${output}`;
}

const custodyRef = (asset: string) => ({ asset: asAsset(asset), kind: 'custody' as const });
const suspenseRef = (asset: string) => ({ asset: asAsset(asset), kind: 'suspense' as const });
const userRef = (userId: number, asset: string) => ({
  asset: asAsset(asset),
  kind: 'available' as const,
  ownerUserId: String(userId),
});

/** Where a coin's payment is compared: ETH addresses in any case are one address. */
function addressKey(asset: string, address: string): string {
  return asset === 'ETH' ? address.toLowerCase() : address;
}

/**
 * A journal's `gbp_value`: what `amount` (smallest units of `asset`) was worth in pounds at `rate` (one
 * unit's GBP price, as the market gives it), in pence rounded down, for the customer's history and their
 * accountant's CSV; nothing without a price.
 */
export function gbpValueMetadata(rate: string | null, asset: string, amount: bigint): { gbp_value?: string } {
  if (rate === null) return {};
  const units = formatAmount(amount, asAsset(asset));
  return {
    gbp_value: new GbpDecimal(rate).times(units).toDecimalPlaces(2, GbpDecimal.ROUND_DOWN).toFixed(2),
  };
}

/**
 * Crypto in: assigns each customer their deposit address once, watches the
 * chains for payments to them, counts confirmations and credits each payment
 * through the ledger exactly once (key: chain, txid, output). XRP payments
 * without a known tag wait in suspense for staff. Customers are mailed and
 * their pages told after each commit.
 */
export function createCryptoService(deps: CryptoServiceDeps) {
  const { db, repository, ledger, notifier, userEvents } = deps;

  async function coinRules(): Promise<Map<CryptoAsset, CoinRules>> {
    const rows = await repository.listCoins();
    return new Map(
      rows
        .filter((row) => (CRYPTO_ASSETS as readonly string[]).includes(row.asset))
        .map((row) => [asAsset(row.asset), row]),
    );
  }

  /** Reads the verification only when it can matter: a customer who is not live hears that first. */
  async function isVerifiedIfLive(customer: CryptoCustomer): Promise<boolean> {
    return !isLive(customer) || deps.verification.isComplete(customer.id);
  }

  /** Why `asset` has no address for this customer now; null when one may be assigned. */
  function unavailableReason(
    customer: CryptoCustomer,
    rules: CoinRules | undefined,
    asset: CryptoAsset,
    isVerified: boolean,
  ): DepositUnavailable['reason'] | null {
    if (!rules || !rules.active || rules.disable_deposit) return 'deposits_disabled';
    if (!isLive(customer)) return 'account_not_live';
    if (!isVerified) return 'verification_incomplete';
    if (!deps.addresses.sources[asset]) return 'not_configured';
    return null;
  }

  /** The customer's address for `asset`, assigned now if they have none: one index, never reused. */
  async function assignAddress(userId: number, asset: CryptoAsset): Promise<DepositAddressRow> {
    const existing = await repository.findAddress(userId, asset);
    if (existing) return existing;
    const source = deps.addresses.sources[asset];
    if (!source) throw new AppError('DEPOSIT_UNAVAILABLE');
    const created = await db
      .transaction()
      .execute(async (trx) => {
        const index = await repository.takeIndex(trx, asset);
        const row = await repository.insertAddress(trx, {
          asset,
          user_id: userId,
          derivation_index: index,
          address: source.kind === 'derived' ? source.deriver.addressAt(index) : source.houseAddress,
          tag: source.kind === 'tag' ? destinationTagOf(index) : null,
        });
        // Another request of this customer got there first: give the index back with a rollback.
        if (!row) throw new AddressAlreadyAssigned();
        return row;
      })
      .catch((error: unknown) => {
        if (error instanceof AddressAlreadyAssigned) return undefined;
        throw error;
      });
    return created ?? ((await repository.findAddress(userId, asset)) as DepositAddressRow);
  }

  async function requireCustomer(userId: number): Promise<CryptoCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  const gbpValueOf = (asset: string, amount: bigint) => gbpValueMetadata(deps.gbpRate(asset), asset, amount);

  /**
   * Books one confirmed deposit: to the customer, or to suspense when the
   * payment names nobody. Under the row's lock, so two watchers book it once.
   */
  async function creditDeposit(
    id: string,
  ): Promise<{ row: CryptoDepositRow; customer?: CryptoCustomer } | null> {
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
      const status: CryptoDepositStatus = toSuspense ? 'suspense' : 'credited';
      await repository.updateDeposit(trx, id, {
        status,
        journal_id: journalId,
        ...(toSuspense ? {} : { credited_at: new Date() }),
      });
      return { row: { ...row, status, journal_id: journalId }, customer };
    });
  }

  async function afterCredit(row: CryptoDepositRow, customer: CryptoCustomer): Promise<void> {
    userEvents.moneyMoved([customer.id]);
    await notifier.notify(customer, 'crypto_deposit_credited', {
      firstName: customer.first_name,
      amount: formatAmount(BigInt(row.amount), asAsset(row.asset)),
      coin: row.asset,
      txid: row.txid,
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
        await afterCredit(result.row, result.customer);
      } else {
        summary.suspense += 1;
      }
    }
    await repository.saveCursor(asset, scan.cursor, scan.height);
    if (touched.size > 0) userEvents.moneyMoved([...touched]);
    return summary;
  }

  function simulatedOnly(asset: CryptoAsset): void {
    if (deps.chains[asset] !== deps.simulated.client)
      throw new AppError('CONFLICT', `${asset} is watched on a real chain, not the simulated one.`);
  }

  async function requireAdminDeposit(id: string): Promise<AdminCryptoDepositRow> {
    const row = await repository.findAdminDeposit(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const service = {
    // ---- customer ----

    async listWalletAddresses(
      userId: number,
      coin: CoinId | 'all',
    ): Promise<{ data: DepositWallet[]; unavailable: DepositUnavailable[] }> {
      const customer = await requireCustomer(userId);
      const isVerified = await isVerifiedIfLive(customer);
      const rules = await coinRules();
      const assets =
        coin === 'all' ? CRYPTO_ASSETS.filter((asset) => rules.has(asset)) : [assetOfCoinId(coin)];
      const data: DepositWallet[] = [];
      const unavailable: DepositUnavailable[] = [];
      const existing = new Map((await repository.listAddresses(userId)).map((row) => [row.asset, row]));
      for (const asset of assets) {
        const rule = rules.get(asset);
        const reason = unavailableReason(customer, rule, asset, isVerified);
        if (reason || !rule) {
          unavailable.push({
            coin_id: coinIdOfAsset(asset),
            reason: reason ?? 'deposits_disabled',
            message:
              reason === 'verification_incomplete'
                ? ERROR_CODES.VERIFICATION_INCOMPLETE.message
                : CRYPTO_TEXTS.contactSupport,
          });
          continue;
        }
        // Derived addresses are assigned on first view; an XRP tag waits for 'Generate Address'.
        const row =
          existing.get(asset) ??
          (deps.addresses.sources[asset]?.kind === 'derived'
            ? await assignAddress(userId, asset)
            : undefined);
        if (row) data.push(toWallet(row, rule.confirmations));
      }
      return { data, unavailable };
    },

    async generateAddress(userId: number, coinId: CoinId): Promise<Answer<DepositWallet>> {
      const customer = await requireCustomer(userId);
      const asset = assetOfCoinId(coinId);
      const rule = (await coinRules()).get(asset);
      const reason = unavailableReason(customer, rule, asset, await isVerifiedIfLive(customer));
      if (reason === 'account_not_live') throw new AppError('ACCOUNT_NOT_LIVE');
      if (reason === 'verification_incomplete') throw new AppError('VERIFICATION_INCOMPLETE');
      if (reason || !rule) throw new AppError('DEPOSIT_UNAVAILABLE');
      const row = await assignAddress(userId, asset);
      return {
        data: toWallet(row, rule.confirmations),
        message: asset === 'XRP' ? CRYPTO_TEXTS.tagGenerated : CRYPTO_TEXTS.addressGenerated,
      };
    },

    async listDeposits(
      userId: number,
      query: { page: number; coin?: CoinId; status?: 'pending' | 'credited' },
    ): Promise<Page<CryptoDeposit>> {
      const asset = query.coin ? assetOfCoinId(query.coin) : undefined;
      return readPage({
        page: query.page,
        path: listCryptoDeposits.path,
        perPage: CRYPTO_DEPOSITS_PAGE_SIZE,
        filters: { coin: query.coin, status: query.status },
        count: () => repository.countCustomerDeposits(userId, asset, query.status),
        list: (limit, offset) => repository.listCustomerDeposits(userId, asset, query.status, limit, offset),
        toItem: toDeposit,
      });
    },

    // ---- the watcher ----

    /**
     * Scans every coin once. Safe to run on several instances at once: a
     * sighting is an upsert, crediting takes the row's lock and the ledger's
     * key, and a deposit is dropped only when no scan has seen it since this
     * one began.
     */
    async watchOnce(assets: readonly CryptoAsset[] = CRYPTO_ASSETS): Promise<WatchSummary> {
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
    },

    // ---- back office: deposits and suspense ----

    async listAdminDeposits(page: number, status?: CryptoDepositStatus): Promise<Page<AdminCryptoDeposit>> {
      return readPage({
        page,
        path: listAdminCryptoDeposits.path,
        filters: { status },
        count: () => repository.countAdminDeposits(status),
        list: (limit, offset) => repository.listAdminDeposits(status, limit, offset),
        toItem: toAdminDeposit,
      });
    },

    async assignDeposit(
      actor: AuditActor,
      id: string,
      userId: number,
      reason: string,
    ): Promise<Answer<AdminCryptoDeposit>> {
      const { row, customer } = await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', CRYPTO_TEXTS.depositNotInSuspense);
        const target = await repository.findCustomer(userId, trx);
        if (!target)
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [CRYPTO_TEXTS.customerNotFound] });
        if (!isLive(target))
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [CRYPTO_TEXTS.customerNotLive] });
        const amount = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `crypto_deposit_assign:${id}`,
          kind: 'crypto_deposit',
          reference: `crypto_deposit:${id}`,
          metadata: {
            from: 'suspense',
            staff_id: actor.staffId,
            txid: deposit.txid,
            ...gbpValueOf(deposit.asset, amount),
          },
          postings: [
            { account: suspenseRef(deposit.asset), amount: -amount },
            { account: userRef(userId, deposit.asset), amount },
          ],
        });
        const now = new Date();
        await repository.updateDeposit(trx, id, {
          status: 'credited',
          user_id: userId,
          credited_at: now,
          resolved_by: actor.staffId ?? undefined,
          resolved_at: now,
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.deposit_assigned',
          targetType: 'crypto_deposit',
          targetId: id,
          before: { status: 'suspense', user_id: deposit.user_id },
          after: { status: 'credited', user_id: userId, reason },
        });
        return { row: deposit, customer: target };
      });
      await afterCredit(row, customer);
      return { data: toAdminDeposit(await requireAdminDeposit(id)), message: CRYPTO_TEXTS.depositAssigned };
    },

    async returnDeposit(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminCryptoDeposit>> {
      await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', CRYPTO_TEXTS.depositNotInSuspense);
        const amount = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `crypto_deposit_return:${id}`,
          kind: 'crypto_deposit',
          reference: `crypto_deposit:${id}`,
          metadata: { returned: true, staff_id: actor.staffId, txid: deposit.txid },
          postings: [
            { account: suspenseRef(deposit.asset), amount: -amount },
            { account: custodyRef(deposit.asset), amount },
          ],
        });
        await repository.updateDeposit(trx, id, {
          status: 'returned',
          resolved_by: actor.staffId ?? undefined,
          resolved_at: new Date(),
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.deposit_returned',
          targetType: 'crypto_deposit',
          targetId: id,
          before: { status: 'suspense' },
          after: { status: 'returned', reason },
        });
      });
      return { data: toAdminDeposit(await requireAdminDeposit(id)), message: CRYPTO_TEXTS.depositReturned };
    },

    // ---- the simulated chain ----

    async broadcastSimulated(
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
      await service.watchOnce([body.asset]);
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
    },

    async mineSimulated(actor: AuditActor | null, asset: CryptoAsset, blocks: number) {
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
      await service.watchOnce([asset]);
      return { data: { asset, height }, message: CRYPTO_TEXTS.mined };
    },

    async dropSimulated(actor: AuditActor | null, asset: CryptoAsset, txid: string) {
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
      await service.watchOnce([asset]);
      return { message: CRYPTO_TEXTS.dropped };
    },
  };
  return service;
}

class AddressAlreadyAssigned extends Error {}

/**
 * Invariant 8 for crypto deposits (shared/LEDGER.md): each deposit's status
 * matches its journals (pending and dropped: none; credited straight from
 * the chain or in suspense: its chain key's journal; assigned or returned
 * from suspense: that one and the staff journal), and every journal a
 * deposit reference names belongs to a deposit that has it.
 */
export const cryptoDomainCheck: DomainCheck = {
  name: 'crypto',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'crypto deposit ' || d.id || ' (' || d.status || ') has journals '
        || coalesce(string_agg(j.idempotency_key, ', '), 'none') AS message
      FROM crypto_deposits d
      LEFT JOIN journals j ON j.reference = 'crypto_deposit:' || d.id AND j.kind = 'crypto_deposit'
      GROUP BY d.id, d.status, d.asset, d.txid, d.output, d.resolved_at, d.journal_id
      HAVING NOT (
        (d.status IN ('pending', 'dropped') AND count(j.id) = 0 AND d.journal_id IS NULL)
        OR (
          d.status IN ('credited', 'suspense', 'returned')
          AND bool_or(j.idempotency_key = 'crypto_deposit:' || d.asset || ':' || d.txid || ':' || d.output
            AND j.id = d.journal_id) IS TRUE
          AND count(j.id) = CASE WHEN d.status = 'suspense' OR (d.status = 'credited' AND d.resolved_at IS NULL) THEN 1 ELSE 2 END
          AND (d.status <> 'credited' OR d.resolved_at IS NULL
            OR bool_or(j.idempotency_key = 'crypto_deposit_assign:' || d.id) IS TRUE)
          AND (d.status <> 'returned' OR bool_or(j.idempotency_key = 'crypto_deposit_return:' || d.id) IS TRUE)
        )
      )
      UNION ALL
      SELECT 'journal ' || j.id || ' names ' || j.reference || ', which has no such deposit'
      FROM journals j
      LEFT JOIN crypto_deposits d ON j.reference = 'crypto_deposit:' || d.id
      WHERE j.kind = 'crypto_deposit' AND j.reference LIKE 'crypto_deposit:%'
        AND (d.id IS NULL OR d.status IN ('pending', 'dropped'))`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
