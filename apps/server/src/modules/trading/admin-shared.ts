import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import { ADMIN_TRADING_TEXTS, AppError } from '@florin/contracts';
import { parseAmount, scaleOf, trimZeros, type AssetCode } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import type { FeeScheduleStore } from '../fees/schedule.js';
import type { MarketService } from '../market/service.js';
import type { TradingAdminRepository } from './admin-repository.js';

export type TradingAdminDeps = {
  db: Kysely<DB>;
  repository: TradingAdminRepository;
  ledger: Pick<Ledger, 'getBalance'>;
  market: Pick<MarketService, 'gbpRate' | 'refreshCoins'>;
  feeSchedule: FeeScheduleStore;
};

/** '0.5000' → '0.5': percentages as staff typed them. */
export function percentOf(value: string | null): string | null {
  return value === null ? null : trimZeros(new Decimal(value).toFixed());
}

/**
 * Settings as staff last saw them, as a short digest. A save names the revision its form started from and
 * is refused when another save came in between: the later form would otherwise put the earlier values back
 * without a word (switch a coin's withdrawals on again, undo a fee).
 */
export function revisionOf(settings: object): string {
  return createHash('sha256').update(JSON.stringify(settings)).digest('base64url').slice(0, 16);
}

export function withRevision<T extends object>(settings: T): T & { revision: string } {
  return { ...settings, revision: revisionOf(settings) };
}

/** 409 with the settings as they are now, which the form shows in place of its stale values. */
export function checkRevision(current: object, sent: string): void {
  if (revisionOf(current) !== sent)
    throw new AppError('CONFLICT', ADMIN_TRADING_TEXTS.changedMeanwhile, undefined, {
      current: withRevision(current),
    });
}

/**
 * Reads the amounts of a form in `asset`'s minor units; a value with more
 * decimals than the asset has is a 422 on its field, and nothing is saved.
 */
export function parseAmounts<K extends string>(
  asset: AssetCode,
  values: Record<K, string | null>,
): Record<K, bigint | null> {
  const errors: Record<string, string[]> = {};
  const parsed = {} as Record<K, bigint | null>;
  for (const [field, text] of Object.entries(values) as [K, string | null][]) {
    if (text === null) {
      parsed[field] = null;
      continue;
    }
    try {
      parsed[field] = parseAmount(text, asset);
    } catch {
      const scale = scaleOf(asset);
      errors[field] = [
        scale === 0
          ? `${asset} amounts are whole numbers.`
          : `Enter at most ${scale} decimal places for ${asset}.`,
      ];
    }
  }
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
  return parsed;
}

export function refuse(field: string, text: string): AppError {
  return new AppError('VALIDATION_FAILED', text, { [field]: [text] });
}
