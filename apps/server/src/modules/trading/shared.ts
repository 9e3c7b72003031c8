import { Decimal } from 'decimal.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AppError,
  coinIdOfAsset,
  CryptoAssetSchema,
  type CoinId,
  type Trade,
  type TradeFiat,
} from '@florin/contracts';
import { formatAmount, type AssetCode } from '@florin/domain';
import type { FeeScheduleStore } from '../fees/schedule.js';
import type { DB } from '../../db/schema.js';
import type { SqlFact } from '../../db/sql-fact.js';
import type { Ledger } from '../../ledger/index.js';
import type { MarketService } from '../market/service.js';
import type { InvestorService } from '../investor/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import type { TradingVolumes } from '../trading-volume/service.js';
import type { TradeRow, TradingRepository } from './repository.js';

/** Prices and percentages: exact decimals, never a JS number. */
export const Exact = Decimal.clone({ precision: 60 });

export type Answer<T> = { data: T; message: string };

export type TradingServiceDeps = {
  db: Kysely<DB>;
  repository: TradingRepository;
  ledger: Ledger;
  market: Pick<MarketService, 'quote' | 'gbpRate'>;
  notifier: Notifier;
  userEvents: UserEvents;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The customer's running promo fee discount in percent of the fee (issue 10), or null. */
  feeDiscountFor: (userId: number) => Promise<string | null>;
  /**
   * What a quote decides on, read with the customer in one statement (issue 43), each from the module that
   * owns it: verification (kyc), the investor journey, this year's volume and a running promo discount.
   */
  quoteFacts: {
    moneyRefused: (userId: number) => SqlFact<boolean>;
    mayInvest: (userId: number) => SqlFact<boolean>;
    volumeThisYear: (userId: number) => SqlFact<bigint>;
    runningDiscount: (userId: number) => SqlFact<string | null>;
    /** The running discount if the incentives policy allows the customer one (a read only when one runs). */
    eligibleDiscount: (userId: number, running: string | null) => Promise<string | null>;
  };
  /** The schedule staff keep in the back office: every quote and order is priced by it. */
  feeSchedule: Pick<FeeScheduleStore, 'current'>;
  /** This year's volume, from which the fee tier comes. */
  volumes: Pick<TradingVolumes, 'volumeThisYear'>;
  /** The first-investment journey (issue 13): a buy waits until it is complete; a sale never does. */
  investor: Pick<InvestorService, 'assertMayInvest'>;
  /** Spec 000 §6: a customer whose verification is incomplete neither buys nor sells. */
  verification: VerificationGate;
  /**
   * After trades commit (compliance): a customer who answered No to the £15,000 source-of-wealth
   * question and has now traded more than that this year is asked for their source of wealth.
   */
  sourceOfWealth: {
    resetSourceOfWealthOverThreshold(userIds: readonly number[]): Promise<void>;
    /** Read with the customer's lock, so a trade of someone the threshold cannot ask sends no check. */
    mayBeAskedByThresholdFact(userId: number): SqlFact<boolean>;
  };
  /** Orders one fill transaction takes (FILL_BATCH); tests make it small to see a pass read several times. */
  fillBatch?: number;
};

export function asAsset(code: string): AssetCode {
  return code as AssetCode;
}

export function money(units: string | bigint, asset: string): string {
  return formatAmount(BigInt(units), asAsset(asset));
}

/** The spec's coin_id of a coin's asset code; refuses anything that is not a listed coin. */
export function coinIdOf(asset: string): CoinId {
  return coinIdOfAsset(CryptoAssetSchema.parse(asset));
}

export function symbolOf(asset: string, fiat: string): string {
  return `${asset}/${fiat}`;
}

export function fiatOf(currency: TradeFiat): string {
  return currency.toUpperCase();
}

/** 400 with the spec's handling (002 §8: 'Insufficient Funds' on a 400) and the reason in `data`. */
export function orderRefused(message: string): AppError {
  return new AppError('ORDER_REFUSED', message);
}

export const userRef = (userId: number, asset: string) => ({
  asset: asAsset(asset),
  kind: 'available' as const,
  ownerUserId: String(userId),
});

export function toTrade(row: TradeRow): Trade {
  return {
    id: row.id,
    kind: row.kind,
    side: row.side,
    coin_id: coinIdOf(row.asset),
    currency: row.fiat.toLowerCase() as Trade['currency'],
    symbol: symbolOf(row.asset, row.fiat),
    price: row.price,
    quantity: money(row.quantity, row.asset),
    total_cost_wo_fee: money(row.notional, row.fiat),
    fee: money(row.fee, row.fiat),
    total_cost_w_fee: money(row.total, row.fiat),
    created_at: row.created_at.toISOString(),
  };
}
