import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { Kysely, Selectable } from 'kysely';
import {
  ADMIN_TRADING_TEXTS,
  AppError,
  CRYPTO_ASSETS,
  type AdminCoin,
  type AdminCurrency,
  type CoinId,
  type CustomFeePlan,
  type FeeScheduleRow,
  type FiatCurrency,
  type InventoryRow,
  type UpdateFeeScheduleBody,
} from '@florin/contracts';
import {
  checkFeeColumn,
  FEE_TIERS,
  FIAT_CODES,
  formatAmount,
  parseAmount,
  scaleOf,
  TIER_VOLUME_BOUNDS,
  trimZeros,
  type AssetCode,
  type FeeSchedule,
  type FeeTier,
} from '@florin/domain';
import type { CoinsTable, CurrenciesTable, DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { FeeScheduleStore } from '../fees/schedule.js';
import type { MarketService } from '../market/service.js';

type Answer<T> = { data: T; message: string };

type CoinRow = Selectable<CoinsTable>;
type CurrencyRow = Selectable<CurrenciesTable>;
type FeePlanRow = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  platform: number;
  custom_fee_percent: string | null;
};

const COIN_COLUMNS = [
  'coin_id',
  'asset',
  'name',
  'active',
  'primary',
  'ask_spread',
  'bid_spread',
  'platform_fee',
  'amount_min',
  'amount_max',
  'withdraw_fee',
  'disable_buy',
  'disable_sell',
  'disable_deposit',
  'disable_withdraw',
  'confirmations',
] as const;

const CURRENCY_COLUMNS = [
  'code',
  'name',
  'symbol',
  'active',
  'withdraw_min',
  'withdraw_fee',
  'withdraw_fee_free_from',
] as const;

const FEE_PLAN_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'platform',
  'custom_fee_percent',
] as const;

/** The only place the trading back office builds queries. */
export function createTradingAdminRepository(db: Kysely<DB>) {
  return {
    listCoins() {
      return db.selectFrom('coins').select(COIN_COLUMNS).orderBy('sort_order').execute();
    },
    lockCoin(trx: Kysely<DB>, coinId: string) {
      return trx
        .selectFrom('coins')
        .select(COIN_COLUMNS)
        .where('coin_id', '=', coinId)
        .forUpdate()
        .executeTakeFirst();
    },
    updateCoin(trx: Kysely<DB>, coinId: string, values: Partial<Omit<CoinRow, 'id' | 'coin_id' | 'asset'>>) {
      return trx
        .updateTable('coins')
        .set(values)
        .where('coin_id', '=', coinId)
        .returning(COIN_COLUMNS)
        .executeTakeFirstOrThrow();
    },
    listCurrencies() {
      return db.selectFrom('currencies').select(CURRENCY_COLUMNS).orderBy('sort_order').execute();
    },
    lockCurrency(trx: Kysely<DB>, code: string) {
      return trx
        .selectFrom('currencies')
        .select(CURRENCY_COLUMNS)
        .where('code', '=', code)
        .forUpdate()
        .executeTakeFirst();
    },
    updateCurrency(
      trx: Kysely<DB>,
      code: string,
      values: Pick<CurrencyRow, 'withdraw_min' | 'withdraw_fee' | 'withdraw_fee_free_from'>,
    ) {
      return trx
        .updateTable('currencies')
        .set(values)
        .where('code', '=', code)
        .returning(CURRENCY_COLUMNS)
        .executeTakeFirstOrThrow();
    },
    listCustomFeePlans(): Promise<FeePlanRow[]> {
      return db
        .selectFrom('users')
        .select(FEE_PLAN_COLUMNS)
        .where('custom_fee_percent', 'is not', null)
        .orderBy('seq')
        .execute();
    },
    lockCustomer(trx: Kysely<DB>, userId: number): Promise<FeePlanRow | undefined> {
      return trx
        .selectFrom('users')
        .select(FEE_PLAN_COLUMNS)
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
    },
    setCustomFeePercent(trx: Kysely<DB>, userId: number, percent: string | null): Promise<FeePlanRow> {
      return trx
        .updateTable('users')
        .set({ custom_fee_percent: percent })
        .where('id', '=', userId)
        .returning(FEE_PLAN_COLUMNS)
        .executeTakeFirstOrThrow();
    },
  };
}

export type TradingAdminRepository = ReturnType<typeof createTradingAdminRepository>;

export type TradingAdminDeps = {
  db: Kysely<DB>;
  repository: TradingAdminRepository;
  ledger: Pick<Ledger, 'getBalance'>;
  market: Pick<MarketService, 'gbpRate' | 'refreshCoins'>;
  feeSchedule: FeeScheduleStore;
};

export type TradingAdminService = ReturnType<typeof createTradingAdminService>;

/** '0.5000' → '0.5': percentages as staff typed them. */
function percentOf(value: string | null): string | null {
  return value === null ? null : trimZeros(new Decimal(value).toFixed());
}

/**
 * Settings as staff last saw them, as a short digest. A save names the revision its form started from and
 * is refused when another save came in between: the later form would otherwise put the earlier values back
 * without a word (switch a coin's withdrawals on again, undo a fee).
 */
function revisionOf(settings: object): string {
  return createHash('sha256').update(JSON.stringify(settings)).digest('base64url').slice(0, 16);
}

function withRevision<T extends object>(settings: T): T & { revision: string } {
  return { ...settings, revision: revisionOf(settings) };
}

/** 409 with the settings as they are now, which the form shows in place of its stale values. */
function checkRevision(current: object, sent: string): void {
  if (revisionOf(current) !== sent)
    throw new AppError('CONFLICT', ADMIN_TRADING_TEXTS.changedMeanwhile, undefined, {
      current: withRevision(current),
    });
}

function toCoin(row: Pick<CoinRow, (typeof COIN_COLUMNS)[number]>): Omit<AdminCoin, 'revision'> {
  const asset = row.asset as AssetCode;
  return {
    coin_id: row.coin_id as CoinId,
    asset: row.asset as AdminCoin['asset'],
    name: row.name,
    active: row.active,
    primary: row.primary === 1,
    ask_spread: percentOf(row.ask_spread) ?? '0',
    bid_spread: percentOf(row.bid_spread) ?? '0',
    platform_fee: percentOf(row.platform_fee),
    amount_min: formatAmount(BigInt(row.amount_min), asset),
    amount_max: row.amount_max === null ? null : formatAmount(BigInt(row.amount_max), asset),
    withdraw_fee: formatAmount(BigInt(row.withdraw_fee), asset),
    disable_buy: row.disable_buy,
    disable_sell: row.disable_sell,
    disable_deposit: row.disable_deposit,
    disable_withdraw: row.disable_withdraw,
    confirmations: row.confirmations,
  };
}

function toCurrency(
  row: Pick<CurrencyRow, (typeof CURRENCY_COLUMNS)[number]>,
): Omit<AdminCurrency, 'revision'> {
  const asset = row.code as AssetCode;
  return {
    code: row.code as FiatCurrency,
    name: row.name,
    symbol: row.symbol,
    active: row.active,
    withdraw_min: formatAmount(BigInt(row.withdraw_min), asset),
    withdraw_fee: formatAmount(BigInt(row.withdraw_fee), asset),
    withdraw_fee_free_from:
      row.withdraw_fee_free_from === null ? null : formatAmount(BigInt(row.withdraw_fee_free_from), asset),
  };
}

function toFeePlan(row: FeePlanRow): CustomFeePlan {
  return {
    user_id: row.id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    platform: row.platform,
    custom_fee_percent: percentOf(row.custom_fee_percent),
  };
}

/**
 * Reads the amounts of a form in `asset`'s minor units; a value with more
 * decimals than the asset has is a 422 on its field, and nothing is saved.
 */
function parseAmounts<K extends string>(
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

/** The schedule beside the tiers' volume bands, as the back office shows it. */
function scheduleRows(schedule: FeeSchedule): FeeScheduleRow[] {
  return TIER_VOLUME_BOUNDS.map((band) => ({
    tier: band.tier,
    volume_from: formatAmount(band.from, 'GBP'),
    volume_to: band.to === null ? null : formatAmount(band.to, 'GBP'),
    instant_percent: schedule[1][band.tier],
    trading_percent: schedule[2][band.tier],
  }));
}

/** Both columns as the save sends them: what the audit records and the schedule's revision is taken of. */
function scheduleColumns(schedule: FeeSchedule) {
  return {
    instant_percents: FEE_TIERS.map((tier) => schedule[1][tier]),
    trading_percents: FEE_TIERS.map((tier) => schedule[2][tier]),
  };
}

/** Tier 1 to Tier 4 as typed → the schedule's column. */
function feeColumn([one, two, three, four]: readonly [string, string, string, string]): Record<
  FeeTier,
  string
> {
  return { 1: one, 2: two, 3: three, 4: four };
}

function refuse(field: string, text: string): AppError {
  return new AppError('VALIDATION_FAILED', text, { [field]: [text] });
}

/**
 * The trading back office (issue 9): finance edits coins and currencies,
 * assigns Custom fee plans and watches the house's net position. Each change
 * and its audit row commit together; a coin edit is then read into the
 * market's quotes at once, so the very next quote uses it.
 */
export function createTradingAdminService(deps: TradingAdminDeps) {
  const { db, repository, ledger, market } = deps;

  return {
    async listCoins(): Promise<{ data: AdminCoin[] }> {
      return { data: (await repository.listCoins()).map((row) => withRevision(toCoin(row))) };
    },

    async updateCoin(
      actor: AuditActor,
      coinId: CoinId,
      body: {
        active: boolean;
        primary: boolean;
        ask_spread: string;
        bid_spread: string;
        platform_fee: string | null;
        amount_min: string;
        amount_max: string | null;
        withdraw_fee: string;
        disable_buy: boolean;
        disable_sell: boolean;
        disable_deposit: boolean;
        disable_withdraw: boolean;
        confirmations: number;
        revision: string;
      },
    ): Promise<Answer<AdminCoin>> {
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCoin(trx, coinId);
        if (!before) throw new AppError('NOT_FOUND');
        checkRevision(toCoin(before), body.revision);
        const asset = before.asset as AssetCode;
        const amounts = parseAmounts(asset, {
          amount_min: body.amount_min,
          amount_max: body.amount_max,
          withdraw_fee: body.withdraw_fee,
        });
        const amountMin = amounts.amount_min ?? 0n;
        if (amounts.amount_max !== null && amounts.amount_max < amountMin)
          throw refuse('amount_max', ADMIN_TRADING_TEXTS.amountMaxBelowMin);
        // amount_min is also the smallest withdrawal; a free withdrawal needs no minimum.
        const coinFee = amounts.withdraw_fee ?? 0n;
        if (coinFee > 0n && coinFee >= amountMin)
          throw refuse('withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin);
        const row = await repository.updateCoin(trx, coinId, {
          active: body.active,
          primary: body.primary ? 1 : 0,
          ask_spread: body.ask_spread,
          bid_spread: body.bid_spread,
          platform_fee: body.platform_fee,
          amount_min: amountMin.toString(),
          amount_max: amounts.amount_max === null ? null : amounts.amount_max.toString(),
          withdraw_fee: (amounts.withdraw_fee ?? 0n).toString(),
          disable_buy: body.disable_buy,
          disable_sell: body.disable_sell,
          disable_deposit: body.disable_deposit,
          disable_withdraw: body.disable_withdraw,
          confirmations: body.confirmations,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'trading.coin_updated',
          targetType: 'coin',
          targetId: coinId,
          before: toCoin(before),
          after: toCoin(row),
        });
        return row;
      });
      // Spreads live in the market's prices: read them again now rather than within its cache time.
      await market.refreshCoins();
      return { data: withRevision(toCoin(after)), message: ADMIN_TRADING_TEXTS.coinSaved };
    },

    async listCurrencies(): Promise<{ data: AdminCurrency[] }> {
      return { data: (await repository.listCurrencies()).map((row) => withRevision(toCurrency(row))) };
    },

    async updateCurrency(
      actor: AuditActor,
      code: FiatCurrency,
      body: {
        withdraw_min: string;
        withdraw_fee: string;
        withdraw_fee_free_from: string | null;
        revision: string;
      },
    ): Promise<Answer<AdminCurrency>> {
      const { revision, ...values } = body;
      const amounts = parseAmounts(code, values);
      const minimum = amounts.withdraw_min ?? 0n;
      const fee = amounts.withdraw_fee ?? 0n;
      if (fee > 0n && fee >= minimum) throw refuse('withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin);
      if (amounts.withdraw_fee_free_from !== null && amounts.withdraw_fee_free_from < minimum)
        throw refuse('withdraw_fee_free_from', ADMIN_TRADING_TEXTS.feeFreeBelowMin);
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCurrency(trx, code);
        if (!before) throw new AppError('NOT_FOUND');
        checkRevision(toCurrency(before), revision);
        const row = await repository.updateCurrency(trx, code, {
          withdraw_min: minimum.toString(),
          withdraw_fee: (amounts.withdraw_fee ?? 0n).toString(),
          withdraw_fee_free_from:
            amounts.withdraw_fee_free_from === null ? null : amounts.withdraw_fee_free_from.toString(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'trading.currency_updated',
          targetType: 'currency',
          targetId: code,
          before: toCurrency(before),
          after: toCurrency(row),
        });
        return row;
      });
      return { data: withRevision(toCurrency(after)), message: ADMIN_TRADING_TEXTS.currencySaved };
    },

    async feePlans(): Promise<{
      data: { schedule: FeeScheduleRow[]; schedule_revision: string; custom: CustomFeePlan[] };
    }> {
      const current = await deps.feeSchedule.stored();
      const custom = (await repository.listCustomFeePlans()).map(toFeePlan);
      return {
        data: {
          schedule: scheduleRows(current),
          schedule_revision: revisionOf(scheduleColumns(current)),
          custom,
        },
      };
    },

    /**
     * Both columns at once, checked whole (each fee above 0 and at most 10 %, no tier dearer than the one
     * below it) and audited with the reason; this instance's next quote uses it, the others' within seconds.
     */
    async updateFeeSchedule(
      actor: AuditActor,
      body: UpdateFeeScheduleBody,
    ): Promise<Answer<FeeScheduleRow[]>> {
      const schedule: FeeSchedule = {
        1: feeColumn(body.instant_percents),
        2: feeColumn(body.trading_percents),
      };
      const errors: Record<string, string[]> = {};
      for (const [platform, field] of [
        [1, 'instant_percents'],
        [2, 'trading_percents'],
      ] as const) {
        for (const [tier, problem] of Object.entries(checkFeeColumn(schedule[platform]))) {
          errors[`${field}.${Number(tier) - 1}`] = [
            problem === 'above_lower_tier'
              ? ADMIN_TRADING_TEXTS.scheduleAboveLowerTier
              : ADMIN_TRADING_TEXTS.schedulePercent,
          ];
        }
      }
      const first = Object.values(errors)[0]?.[0];
      if (first) throw new AppError('VALIDATION_FAILED', first, errors);
      const stored = await db.transaction().execute(async (trx) => {
        const before = await deps.feeSchedule.lock(trx);
        checkRevision(scheduleColumns(before), body.revision);
        const after = await deps.feeSchedule.replace(trx, schedule);
        await recordAudit(trx, {
          ...actor,
          action: 'trading.fee_schedule_updated',
          targetType: 'fee_schedule',
          targetId: null,
          before: scheduleColumns(before),
          after: { ...scheduleColumns(after), reason: body.reason },
        });
        return after;
      });
      deps.feeSchedule.forget();
      return { data: scheduleRows(stored), message: ADMIN_TRADING_TEXTS.scheduleSaved };
    },

    async setCustomFeePlan(
      actor: AuditActor,
      userId: number,
      body: { custom_fee_percent: string | null; reason: string },
    ): Promise<Answer<CustomFeePlan>> {
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCustomer(trx, userId);
        if (!before) throw new AppError('NOT_FOUND', ADMIN_TRADING_TEXTS.customerNotFound);
        const row = await repository.setCustomFeePercent(trx, userId, body.custom_fee_percent);
        await recordAudit(trx, {
          ...actor,
          action: body.custom_fee_percent === null ? 'trading.fee_plan_cleared' : 'trading.fee_plan_set',
          targetType: 'user',
          targetId: userId,
          before: { custom_fee_percent: percentOf(before.custom_fee_percent) },
          after: { custom_fee_percent: percentOf(row.custom_fee_percent), reason: body.reason },
        });
        return row;
      });
      return {
        data: toFeePlan(after),
        message:
          body.custom_fee_percent === null
            ? ADMIN_TRADING_TEXTS.customPlanCleared
            : ADMIN_TRADING_TEXTS.customPlanSet,
      };
    },

    /**
     * The house's net position: each asset's inventory account (the other
     * side of every trade), valued in GBP at the current bid so staff see
     * their exposure. A negative coin balance is coins customers bought that
     * the house has not bought back.
     */
    async inventory(): Promise<{
      data: { assets: InventoryRow[]; total_gbp_value: string; complete: boolean };
    }> {
      const fiats: readonly string[] = FIAT_CODES;
      let total = new Decimal(0);
      let complete = true;
      const assets: InventoryRow[] = [];
      // Coins first, in the order every screen lists them, then the fiat currencies.
      for (const asset of [...CRYPTO_ASSETS, ...FIAT_CODES]) {
        const { posted } = await ledger.getBalance(db, { asset, kind: 'inventory' });
        const balance = formatAmount(posted, asset);
        const rate = market.gbpRate(asset);
        const value =
          rate === null ? null : new Decimal(balance).times(rate).toDecimalPlaces(2, Decimal.ROUND_DOWN);
        if (value === null) {
          if (posted !== 0n) complete = false;
        } else total = total.plus(value);
        assets.push({
          asset,
          kind: fiats.includes(asset) ? 'fiat' : 'coin',
          balance,
          gbp_rate: rate,
          gbp_value: value === null ? null : value.toFixed(2),
        });
      }
      return { data: { assets, total_gbp_value: total.toFixed(2), complete } };
    },
  };
}
