import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A trade as the capital gains report needs it: amounts are minor units, as text. */
export type TaxTradeRow = {
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  quantity: string;
  notional: string;
  total: string;
  gbp_value: string;
  created_at: Date;
};

/** Coins that reached the customer without a purchase on Florin: a deposit, or term deposit interest. */
export type TaxReceiptRow = { asset: string; quantity: string; received_at: Date };

export function createTaxRepository(db: Kysely<DB>) {
  return {
    /** The report applies an individual's rules; a company's gains fall under corporation tax. */
    async isIndividual(userId: number): Promise<boolean> {
      const user = await db
        .selectFrom('users')
        .select('account_type')
        .where('id', '=', userId)
        .executeTakeFirst();
      return user?.account_type === 'Individual';
    },

    trades(userId: number): Promise<TaxTradeRow[]> {
      return db
        .selectFrom('trades')
        .select(['side', 'asset', 'fiat', 'quantity', 'notional', 'total', 'gbp_value', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('seq')
        .execute();
    },

    async receipts(userId: number): Promise<TaxReceiptRow[]> {
      const deposits = await db
        .selectFrom('crypto_deposits')
        .select(['asset', 'amount as quantity', 'credited_at as received_at'])
        .where('user_id', '=', userId)
        .where('status', '=', 'credited')
        .where('credited_at', 'is not', null)
        .execute();
      const interest = await db
        .selectFrom('term_deposits')
        .select(['asset', 'interest as quantity', 'paid_at as received_at'])
        .where('user_id', '=', userId)
        .where('paid_at', 'is not', null)
        .where('interest', '>', '0')
        .execute();
      return [...deposits, ...interest].filter((row): row is TaxReceiptRow => row.received_at !== null);
    },
  };
}

export type TaxRepository = ReturnType<typeof createTaxRepository>;
