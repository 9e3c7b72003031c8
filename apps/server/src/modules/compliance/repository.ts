import { sql, type Kysely } from 'kysely';
import type { DB, UsersTable, RowOf } from '../../db/schema.js';
import { createComplianceAccessRepository } from './access-repository.js';
import { createComplianceDeclarationRepository } from './declaration-repository.js';
import { createComplianceDocumentRepository } from './document-repository.js';
import { createComplianceLedgerRepository } from './ledger-repository.js';
import { createComplianceQueueRepository } from './queue-repository.js';

export type { DocumentRow } from './document-repository.js';
export type { QueueRow } from './queue-repository.js';

/** A query on the database or inside the caller's transaction. */
type Executor = Kysely<DB>;

/** What the back office reads of a customer: no password hash, no 2FA secrets. */
const CUSTOMER_COLUMNS = [
  'users.id',
  'users.user_identification',
  'users.first_name',
  'users.last_name',
  'users.email',
  'users.pending_email',
  'users.email_verified_at',
  'users.account_type',
  'users.platform',
  'users.status',
  'users.block_status',
  'users.block_reason',
  'users.created_at',
  'users.last_login_at',
  'users.live_since',
  'users.country',
  'users.address',
  'users.city',
  'users.zip',
  'users.phone',
  'users.nationality',
  'users.tax_residence',
  'users.tax_id',
  'users.is_sow_reset',
  'users.details_submitted_at',
  'users.verification_completed_at',
  'users.platform_2fa_mobile',
  'users.two_factor_reset_at',
  'users.login_notifications',
  'users.loginout_notifications',
  'users.termination_notice_at',
  'users.terminated_at',
  'users.access_ends_at',
  'users.legal_hold_reason',
] as const;

export type CustomerRow = Pick<
  RowOf<UsersTable>,
  (typeof CUSTOMER_COLUMNS)[number] extends `users.${infer C}` ? C : never
> & {
  /** YYYY-MM-DD on both engines (pg gives a Date for DATE columns, PGlite a string). */
  birthdate: string | null;
  two_factor_enabled: boolean;
};

/** `%` and `_` typed into the search box are meant literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Every query of the compliance module: the customer's row and the customer search here, the queue,
 * documents, declarations, ways in and ledger in a file each beside it, as one object.
 */
export function createComplianceRepository(db: Kysely<DB>) {
  const selectCustomer = (executor: Executor) =>
    executor
      .selectFrom('users')
      .select(CUSTOMER_COLUMNS)
      .select([
        sql<string | null>`to_char(users.birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        sql<boolean>`users.totp_secret_encrypted is not null`.as('two_factor_enabled'),
      ]);

  return {
    findCustomer(userId: number, executor: Executor = db): Promise<CustomerRow | undefined> {
      return selectCustomer(executor).where('users.id', '=', userId).executeTakeFirst();
    },

    /** The customer's row, locked until the transaction ends: two decisions on one account take turns. */
    lockCustomer(executor: Executor, userId: number): Promise<CustomerRow | undefined> {
      return selectCustomer(executor).where('users.id', '=', userId).forUpdate().executeTakeFirst();
    },

    async updateCustomer(
      executor: Executor,
      userId: number,
      values: Partial<
        Pick<
          RowOf<UsersTable>,
          | 'status'
          | 'live_since'
          | 'block_status'
          | 'block_reason'
          | 'is_sow_reset'
          | 'platform_2fa_mobile'
          | 'first_name'
          | 'last_name'
          | 'birthdate'
          | 'two_factor_reset_at'
        >
      >,
    ): Promise<void> {
      await executor.updateTable('users').set(values).where('id', '=', userId).execute();
    },

    async countCustomers(query: string | undefined): Promise<number> {
      const row = await searchable(db, query)
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .executeTakeFirstOrThrow();
      return Number(row.rows); // a count of rows, not money
    },

    /** Newest customers first; a reference typed in full comes first of all. */
    searchCustomers(query: string | undefined, limit: number, offset: number) {
      let search = searchable(db, query).select([
        'users.id',
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.account_type',
        'users.status',
        'users.block_status',
        'users.created_at',
      ]);
      if (query) {
        search = search.orderBy(
          sql`case when users.user_identification = ${query.toUpperCase()} then 0 else 1 end`,
        );
      }
      return search.orderBy('users.seq', 'desc').limit(limit).offset(offset).execute();
    },

    ...createComplianceQueueRepository(db),
    ...createComplianceDocumentRepository(db),
    ...createComplianceDeclarationRepository(db),
    ...createComplianceAccessRepository(db),
    ...createComplianceLedgerRepository(db),
  };
}

/** Customers matching a name, an e-mail address or a reference (any part, any case); all without a query. */
function searchable(db: Kysely<DB>, query: string | undefined) {
  const base = db.selectFrom('users');
  if (!query) return base;
  const pattern = likePattern(query);
  return base.where((eb) =>
    eb.or([
      eb('users.email', 'ilike', pattern),
      eb('users.user_identification', 'ilike', pattern),
      eb(sql<string>`users.first_name || ' ' || users.last_name`, 'ilike', pattern),
    ]),
  );
}

export type ComplianceRepository = ReturnType<typeof createComplianceRepository>;
