import {
  AppError,
  CARF_CSV_COLUMNS,
  CARF_TEXTS,
  carfCsvFilename,
  type CandleQuery,
  type CandleResolution,
  type CandleRow,
} from '@florin/contracts';
import {
  ASSET_CODES,
  formatAmount,
  isAssetCode,
  notional,
  parseAmount,
  type AssetCode,
} from '@florin/domain';
import { csvLine } from '../../http/csv.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type {
  CarfCustomerRow,
  CarfRepository,
  CarfTradeRow,
  CarfTransferRow,
  YearSpan,
} from './repository.js';
import type { Clock } from '../../clock.js';

/** What CARF aggregates per customer and asset (OECD CARF Section II(A)(3)). */
const GROUPS = ['acquisitions', 'disposals', 'deposits', 'interest', 'withdrawals'] as const;
type Group = (typeof GROUPS)[number];

/** How the notes column names a group whose GBP value is incomplete. */
const GROUP_NOTES: Record<Group, string> = {
  acquisitions: 'acquisitions',
  disposals: 'disposals',
  deposits: 'deposits',
  interest: 'interest payments',
  withdrawals: 'transfers out',
};

/** One group's sums: pence over the movements that had a GBP value, and how many had none. */
type Totals = { count: number; units: bigint; pence: bigint; unpriced: number };

type Movement = {
  userId: number;
  asset: AssetCode;
  group: Group;
  units: bigint;
  pence: bigint | null;
  at: Date;
};

/**
 * The candles to look in for a price at a moment, finest first, and how far
 * back (in periods) each may reach: the close of the latest candle at or
 * before the moment, within an hour, a day or a week.
 */
const PRICE_LOOKUPS: readonly { resolution: CandleResolution; limit: number }[] = [
  { resolution: 'minute', limit: 60 },
  { resolution: 'hour', limit: 24 },
  { resolution: 'day', limit: 7 },
];

/** What the export needs of the market: its stored candles. */
export type CarfMarket = {
  listCandles(resolution: CandleResolution, query: CandleQuery): Promise<CandleRow[]>;
};

function assetOf(code: string): AssetCode {
  if (!isAssetCode(code)) throw new Error(`unknown asset ${code}`);
  return code;
}

/** The calendar year in UTC, as CARF counts it. */
export function calendarYear(year: number): YearSpan {
  return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
}

/**
 * A trade's GBP value is the one recorded when it executed: the notional in
 * pence, Florin's fee excluded. A trade in another fiat recorded 0 when no
 * GBP rate was fresh then: that is an unknown value, not a free trade.
 */
function tradePence(trade: CarfTradeRow): bigint | null {
  const pence = BigInt(trade.gbp_value);
  if (pence === 0n && trade.fiat !== 'GBP' && BigInt(trade.notional) > 0n) return null;
  return pence;
}

/** A NI number is what a UK tax resident gives at KYC (the KYC form insists); anyone else gives a foreign TIN. */
function taxIdType(customer: CarfCustomerRow): string {
  if (!customer.tax_id) return '';
  return customer.tax_residence === 'GB' ? 'NINO' : 'TIN';
}

function identityCells(customer: CarfCustomerRow): string[] {
  return [
    customer.user_identification,
    customer.account_type ?? '',
    customer.first_name,
    customer.last_name,
    customer.birthdate ?? '',
    customer.address ?? '',
    customer.city ?? '',
    customer.zip ?? '',
    customer.country ?? '',
    customer.tax_residence ?? '',
    customer.tax_id ?? '',
    taxIdType(customer),
    customer.company_name ?? '',
    customer.company_number ?? '',
    customer.company_address ?? '',
    customer.company_city ?? '',
    customer.company_zip ?? '',
    customer.company_country ?? '',
  ];
}

function groupCells(asset: AssetCode, totals: Totals): string[] {
  return [
    String(totals.count),
    formatAmount(totals.units, asset),
    totals.unpriced > 0 ? '' : formatAmount(totals.pence, 'GBP'),
  ];
}

function notesOf(byGroup: Record<Group, Totals>): string {
  const missing = GROUPS.filter((group) => byGroup[group].unpriced > 0).map((group) => {
    const { unpriced, count } = byGroup[group];
    return `${unpriced} of ${count} ${GROUP_NOTES[group]}`;
  });
  return missing.length === 0 ? '' : `No GBP price for ${missing.join(', ')}: GBP value left empty.`;
}

const emptyTotals = (): Totals => ({ count: 0, units: 0n, pence: 0n, unpriced: 0 });

export function createCarfService(deps: {
  db: Kysely<DB>;
  repository: CarfRepository;
  market: CarfMarket;
  /** The app's, for which years have ended. */
  clock: Clock;
}) {
  const { db, repository, market } = deps;
  const now = () => deps.clock.now();

  /** The coin's GBP price at `at` from the stored candles; null when there is none near enough. */
  async function gbpPriceAt(asset: AssetCode, at: Date): Promise<string | null> {
    const toTs = Math.floor(at.getTime() / 1000);
    for (const { resolution, limit } of PRICE_LOOKUPS) {
      let rows: CandleRow[];
      try {
        rows = await market.listCandles(resolution, { symbol: `${asset}/GBP`, toTs, limit, aggregate: 1 });
      } catch (error) {
        // A coin no longer listed has no pair to price it by.
        if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return null;
        throw error;
      }
      const latest = rows.at(-1);
      if (latest) return latest.close;
    }
    return null;
  }

  /** The transfers' GBP values: stored, else from the candles (one lookup per coin and minute), else none. */
  async function priced(group: Group, rows: readonly CarfTransferRow[]): Promise<Movement[]> {
    const prices = new Map<string, Promise<string | null>>();
    const movements: Movement[] = [];
    for (const row of rows) {
      const asset = assetOf(row.asset);
      const units = BigInt(row.quantity);
      let pence = row.gbp_value === null ? null : parseAmount(row.gbp_value, 'GBP');
      if (pence === null) {
        const key = `${asset}:${Math.floor(row.at.getTime() / 60_000)}`;
        if (!prices.has(key)) prices.set(key, gbpPriceAt(asset, row.at));
        const price = await prices.get(key)!;
        pence = price === null ? null : notional(units, asset, price, 'GBP', 'floor');
      }
      movements.push({ userId: row.user_id, asset, group, units, pence, at: row.at });
    }
    return movements;
  }

  async function movementsIn(span: YearSpan): Promise<Movement[]> {
    const trades = (await repository.trades(span)).map((trade): Movement => ({
      userId: trade.user_id,
      asset: assetOf(trade.asset),
      group: trade.side === 'buy' ? 'acquisitions' : 'disposals',
      units: BigInt(trade.quantity),
      pence: tradePence(trade),
      at: trade.created_at,
    }));
    return [
      ...trades,
      ...(await priced('deposits', await repository.deposits(span))),
      ...(await priced('interest', await repository.interest(span))),
      ...(await priced('withdrawals', await repository.withdrawals(span))),
    ];
  }

  return {
    /**
     * The year's CARF data as CSV: one row per customer and asset with any
     * activity, customers by id and assets in Florin's order. A year not yet
     * started is refused; the current one gives what has happened so far.
     * Each export is audited: the file holds personal data.
     */
    async exportYear(actor: AuditActor, year: number): Promise<{ filename: string; csv: string }> {
      if (year > now().getUTCFullYear())
        throw new AppError('VALIDATION_FAILED', undefined, { year: [CARF_TEXTS.yearNotStarted] });
      const movements = await movementsIn(calendarYear(year));

      const byCustomer = new Map<number, Map<AssetCode, Record<Group, Totals>>>();
      for (const movement of movements) {
        const assets = byCustomer.get(movement.userId) ?? new Map<AssetCode, Record<Group, Totals>>();
        byCustomer.set(movement.userId, assets);
        const groups =
          assets.get(movement.asset) ??
          (Object.fromEntries(GROUPS.map((group) => [group, emptyTotals()])) as Record<Group, Totals>);
        assets.set(movement.asset, groups);
        const totals = groups[movement.group];
        totals.count += 1;
        totals.units += movement.units;
        if (movement.pence === null) totals.unpriced += 1;
        else totals.pence += movement.pence;
      }

      const customers = await repository.customers([...byCustomer.keys()]);
      let csv = csvLine(CARF_CSV_COLUMNS);
      let rows = 0;
      for (const customer of customers) {
        const assets = byCustomer.get(customer.id)!;
        for (const asset of ASSET_CODES) {
          const groups = assets.get(asset);
          if (!groups) continue;
          rows += 1;
          csv += csvLine([
            String(year),
            ...identityCells(customer),
            asset,
            ...GROUPS.flatMap((group) => groupCells(asset, groups[group])),
            notesOf(groups),
          ]);
        }
      }

      await recordAudit(db, {
        ...actor,
        action: 'carf.exported',
        targetType: 'report',
        targetId: String(year),
        after: { year, customers: customers.length, rows },
      });
      return { filename: carfCsvFilename(year), csv };
    },
  };
}

export type CarfService = ReturnType<typeof createCarfService>;
