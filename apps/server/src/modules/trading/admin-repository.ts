import type { Kysely, Selectable } from 'kysely';
import type { CoinsTable, CurrenciesTable, DB } from '../../db/schema.js';

export type CoinRow = Selectable<CoinsTable>;
export type CurrencyRow = Selectable<CurrenciesTable>;
export type FeePlanRow = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  platform: number;
  custom_fee_percent: string | null;
};

export const COIN_COLUMNS = [
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

export const CURRENCY_COLUMNS = [
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
