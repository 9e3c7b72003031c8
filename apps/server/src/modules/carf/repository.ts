import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A calendar year as instants: from its first moment (inclusive) to the next year's (exclusive), UTC. */
export type YearSpan = { from: Date; to: Date };

/** A trade in the year; amounts are minor units, as text. */
export type CarfTradeRow = {
  user_id: number;
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  quantity: string;
  notional: string;
  gbp_value: string;
  created_at: Date;
};

/** A coin movement in or out of a customer's account; `gbp_value` is pounds as the journal stored it, if it did. */
export type CarfTransferRow = {
  user_id: number;
  asset: string;
  quantity: string;
  at: Date;
  gbp_value: string | null;
};

export type CarfCustomerRow = {
  id: number;
  user_identification: string;
  account_type: 'Individual' | 'Corporate' | null;
  first_name: string;
  last_name: string;
  birthdate: string | null;
  address: string | null;
  city: string | null;
  zip: string | null;
  country: string | null;
  tax_residence: string | null;
  tax_id: string | null;
  company_name: string | null;
  company_number: string | null;
  company_address: string | null;
  company_city: string | null;
  company_zip: string | null;
  company_country: string | null;
};

/** The only place the CARF export builds queries: every customer's activity in one calendar year. */
export function createCarfRepository(db: Kysely<DB>) {
  return {
    trades(span: YearSpan): Promise<CarfTradeRow[]> {
      return db
        .selectFrom('trades')
        .select(['user_id', 'side', 'asset', 'fiat', 'quantity', 'notional', 'gbp_value', 'created_at'])
        .where('created_at', '>=', span.from)
        .where('created_at', '<', span.to)
        .orderBy('seq')
        .execute();
    },

    /** Deposits credited to a customer in the year, with the GBP value their credit journal recorded. */
    async deposits(span: YearSpan): Promise<CarfTransferRow[]> {
      const rows = await db
        .selectFrom('crypto_deposits as d')
        .leftJoin('journals as j', 'j.id', 'd.journal_id')
        .select([
          'd.user_id',
          'd.asset',
          'd.amount as quantity',
          'd.credited_at as at',
          sql<string | null>`j.metadata->>'gbp_value'`.as('gbp_value'),
        ])
        .where('d.status', '=', 'credited')
        .where('d.user_id', 'is not', null)
        .where('d.credited_at', '>=', span.from)
        .where('d.credited_at', '<', span.to)
        .orderBy('d.seq')
        .execute();
      return rows.filter((row): row is CarfTransferRow => row.user_id !== null && row.at !== null);
    },

    /** Term deposit interest paid in the year (the principal only comes back: it never left Florin). */
    async interest(span: YearSpan): Promise<CarfTransferRow[]> {
      const rows = await db
        .selectFrom('term_deposits')
        .select([
          'user_id',
          'asset',
          'interest as quantity',
          'paid_at as at',
          sql<string | null>`null`.as('gbp_value'),
        ])
        .where('interest', '>', '0')
        .where('paid_at', '>=', span.from)
        .where('paid_at', '<', span.to)
        .orderBy('seq')
        .execute();
      return rows.filter((row): row is CarfTransferRow => row.at !== null);
    },

    /** Withdrawals sent to the chain in the year: the whole amount left the customer's account. */
    async withdrawals(span: YearSpan): Promise<CarfTransferRow[]> {
      const rows = await db
        .selectFrom('crypto_withdrawals')
        .select([
          'user_id',
          'asset',
          'amount as quantity',
          'sent_at as at',
          sql<string | null>`null`.as('gbp_value'),
        ])
        .where('status', 'in', ['sent', 'confirmed'])
        .where('sent_at', '>=', span.from)
        .where('sent_at', '<', span.to)
        .orderBy('seq')
        .execute();
      return rows.filter((row): row is CarfTransferRow => row.at !== null);
    },

    /** Who the customers are, as KYC recorded them; a company account's company beside its holder. */
    customers(ids: readonly number[]): Promise<CarfCustomerRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('users as u')
        .leftJoin('companies as c', 'c.user_id', 'u.id')
        .select([
          'u.id',
          'u.user_identification',
          'u.account_type',
          'u.first_name',
          'u.last_name',
          // DATE reads back as a Date on pg and a string on PGlite.
          sql<string | null>`to_char(u.birthdate, 'YYYY-MM-DD')`.as('birthdate'),
          'u.address',
          'u.city',
          'u.zip',
          'u.country',
          'u.tax_residence',
          'u.tax_id',
          'c.name as company_name',
          'c.company_number',
          'c.address as company_address',
          'c.city as company_city',
          'c.zip as company_zip',
          'c.country as company_country',
        ])
        .where('u.id', 'in', ids)
        .orderBy('u.seq')
        .execute();
    },
  };
}

export type CarfRepository = ReturnType<typeof createCarfRepository>;
