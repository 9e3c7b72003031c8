import { sql, type Kysely, type QueryCreator } from 'kysely';
import type { DB, KycDocumentsTable, UsersTable, RowOf } from '../../db/schema.js';
import { revokeCustomerAccess, SESSION_IDLE_MINUTES } from '../auth/sessions.js';

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

export type DocumentRow = Pick<
  RowOf<KycDocumentsTable>,
  | 'id'
  | 'user_id'
  | 'director_id'
  | 'key'
  | 'storage_key'
  | 'content_type'
  | 'size_bytes'
  | 'status'
  | 'disapprove_note'
  | 'reviewed_at'
  | 'created_at'
> & { director_name: string | null; reviewed_by: string | null };

export type QueueRow = {
  id: number;
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  account_type: 'Individual' | 'Corporate' | null;
  status: number;
  block_status: number;
  created_at: Date;
  verification_completed_at: Date | null;
  pending_documents: number;
  approved_documents: number;
  declined_documents: number;
  waiting_since: Date;
};

/** `%` and `_` typed into the search box are meant literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function createComplianceRepository(db: Kysely<DB>) {
  /**
   * Each customer's current documents (not replaced, and not those of a
   * director the customer removed) counted by status: the queue's source.
   */
  const documentCounts = (executor: QueryCreator<DB>) =>
    executor
      .selectFrom('kyc_documents as d')
      .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
      .where('d.status', '<>', 'superseded')
      .where((eb) => eb.or([eb('d.director_id', 'is', null), eb('cd.deleted_at', 'is', null)]))
      .groupBy('d.user_id')
      .select([
        'd.user_id',
        sql<number>`count(*) filter (where d.status = 'pending')::int`.as('pending_documents'),
        sql<number>`count(*) filter (where d.status = 'approved')::int`.as('approved_documents'),
        sql<number>`count(*) filter (where d.status = 'declined')::int`.as('declined_documents'),
        sql<Date | null>`min(d.created_at) filter (where d.status = 'pending')`.as('oldest_pending'),
      ]);

  /** Something to review, or everything approved on a finished verification of an account not yet live. */
  const queue = (executor: Executor) =>
    executor
      .with('counts', (qb) => documentCounts(qb))
      .selectFrom('counts')
      .innerJoin('users', 'users.id', 'counts.user_id')
      .where((eb) =>
        eb.or([
          eb('counts.pending_documents', '>', 0),
          eb.and([
            eb('users.status', '<>', 1),
            eb('users.verification_completed_at', 'is not', null),
            eb('counts.declined_documents', '=', 0),
          ]),
        ]),
      );

  const selectCustomer = (executor: Executor) =>
    executor
      .selectFrom('users')
      .select(CUSTOMER_COLUMNS)
      .select([
        sql<string | null>`to_char(users.birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        sql<boolean>`users.totp_secret_encrypted is not null`.as('two_factor_enabled'),
      ]);

  return {
    async countQueue(): Promise<number> {
      const row = await queue(db)
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** Oldest waiting first: the oldest pending upload, or when the wizard was finished. */
    listQueue(limit: number, offset: number): Promise<QueueRow[]> {
      const waitingSince = sql<Date>`coalesce(counts.oldest_pending, users.verification_completed_at)`;
      return queue(db)
        .select([
          'users.id',
          'users.user_identification',
          'users.first_name',
          'users.last_name',
          'users.email',
          'users.account_type',
          'users.status',
          'users.block_status',
          'users.created_at',
          'users.verification_completed_at',
          'counts.pending_documents',
          'counts.approved_documents',
          'counts.declined_documents',
          waitingSince.as('waiting_since'),
        ])
        .orderBy(waitingSince)
        .orderBy('users.seq')
        .limit(limit)
        .offset(offset)
        .execute();
    },

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

    /**
     * Every document of the customer, their company's and their current
     * directors', replaced ones included, newest first within a kind.
     */
    listDocuments(userId: number, executor: Executor = db): Promise<DocumentRow[]> {
      return executor
        .selectFrom('kyc_documents as d')
        .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
        .leftJoin('staff', 'staff.id', 'd.reviewed_by_staff_id')
        .where('d.user_id', '=', userId)
        .where((eb) => eb.or([eb('d.director_id', 'is', null), eb('cd.deleted_at', 'is', null)]))
        .select([
          'd.id',
          'd.user_id',
          'd.director_id',
          'd.key',
          'd.storage_key',
          'd.content_type',
          'd.size_bytes',
          'd.status',
          'd.disapprove_note',
          'd.reviewed_at',
          'd.created_at',
          sql<string | null>`cd.first_name || ' ' || cd.last_name`.as('director_name'),
          'staff.email as reviewed_by',
        ])
        .orderBy(sql`cd.seq nulls first`)
        .orderBy('d.key')
        .orderBy('d.seq', 'desc')
        .execute();
    },

    findDocument(id: string, executor: Executor = db): Promise<DocumentRow | undefined> {
      return executor
        .selectFrom('kyc_documents as d')
        .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
        .leftJoin('staff', 'staff.id', 'd.reviewed_by_staff_id')
        .where('d.id', '=', id)
        .select([
          'd.id',
          'd.user_id',
          'd.director_id',
          'd.key',
          'd.storage_key',
          'd.content_type',
          'd.size_bytes',
          'd.status',
          'd.disapprove_note',
          'd.reviewed_at',
          'd.created_at',
          sql<string | null>`cd.first_name || ' ' || cd.last_name`.as('director_name'),
          'staff.email as reviewed_by',
        ])
        .executeTakeFirst();
    },

    /**
     * Locks the customer's current documents (or only those of `ids`): a
     * decision and the customer's re-upload, which supersedes a document with
     * an UPDATE, take turns.
     */
    async lockDocuments(executor: Executor, userId: number, ids?: readonly string[]): Promise<void> {
      let query = executor
        .selectFrom('kyc_documents')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '<>', 'superseded');
      if (ids) query = query.where('id', 'in', ids);
      await query.orderBy('id').forUpdate().execute();
    },

    async reviewDocument(
      executor: Executor,
      id: string,
      values: { status: 'approved' | 'declined'; disapprove_note: string | null; staffId: number | null },
    ): Promise<void> {
      await executor
        .updateTable('kyc_documents')
        .set({
          status: values.status,
          disapprove_note: values.disapprove_note,
          reviewed_by_staff_id: values.staffId,
          reviewed_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
    },

    findKycAnswers(userId: number) {
      return db
        .selectFrom('kyc_answers')
        .select([
          'trades_over_threshold',
          'aware_of_risk',
          'initial_investment',
          'annual_income',
          'net_worth',
          'investment_portfolio',
          'source_of_wealth',
          'experience',
          'investment_trades',
          'offense',
          'offense_details',
          'criminal',
          'criminal_details',
          'caution',
          'caution_details',
          'ccj',
          'ccj_details',
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async hasKycAnswers(executor: Executor, userId: number): Promise<boolean> {
      const row = await executor
        .selectFrom('kyc_answers')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Those of these customers (without `userIds`, of all) who answered No to the £15,000 question and
     * are not already asked again.
     */
    async listAnsweredBelowThreshold(executor: Executor, userIds?: readonly number[]): Promise<number[]> {
      const rows = await executor
        .selectFrom('users')
        .innerJoin('kyc_answers', 'kyc_answers.user_id', 'users.id')
        .select('users.id')
        .$if(userIds !== undefined, (query) =>
          query.where('users.id', '=', sql<number>`any(${[...(userIds ?? [])]}::integer[])`),
        )
        .where('users.is_sow_reset', '=', 0)
        // A terminated customer may only withdraw what is theirs: a reset would stop that too.
        .where('users.terminated_at', 'is', null)
        .where('kyc_answers.trades_over_threshold', '=', 0)
        .execute();
      return rows.map((row) => row.id);
    },

    findCompany(userId: number) {
      return db
        .selectFrom('companies')
        .select(['id', 'name', 'company_number', 'address', 'city', 'country', 'zip'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    listDirectors(companyId: number) {
      return db
        .selectFrom('company_directors')
        .select([
          'id',
          'first_name',
          'last_name',
          'share_holding',
          'address',
          'city',
          'zip',
          'country',
          'phone',
          'status',
          sql<string>`to_char(birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        ])
        .where('company_id', '=', companyId)
        .where('deleted_at', 'is', null)
        .orderBy('seq')
        .execute();
    },

    async countCustomers(query: string | undefined): Promise<number> {
      const row = await searchable(db, query)
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
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

    async countRecoveryCodesLeft(userId: number, executor: Executor = db): Promise<number> {
      const row = await executor
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string>().as('left'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.left);
    },

    async deleteRecoveryCodes(executor: Executor, userId: number): Promise<void> {
      await executor.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    /** `resetAt` starts the withdrawals' wait. */
    async clearTwoFactor(executor: Executor, userId: number, resetAt: Date): Promise<void> {
      await executor
        .updateTable('users')
        .set({
          totp_secret_encrypted: null,
          totp_pending_secret_encrypted: null,
          totp_last_step: null,
          two_factor_reset_at: resetAt,
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Sessions that still let someone in at `now`: not revoked, not expired, not idle too long. */
    listActiveSessions(userId: number, now: Date, executor: Executor = db) {
      return executor
        .selectFrom('sessions')
        .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', new Date(now.getTime() - SESSION_IDLE_MINUTES * 60_000))
        .orderBy('last_seen_at', 'desc')
        .execute();
    },

    /** Ends every session of the customer and deletes their API tokens; the number of sessions still open. */
    revokeSessions(executor: Executor, userId: number): Promise<number> {
      return revokeCustomerAccess(executor, userId);
    },

    /** The customer's ledger accounts (created as money first moves for them). */
    listAccounts(userId: number) {
      return db
        .selectFrom('accounts')
        .select(['asset', 'kind', 'reference'])
        .where('owner_user_id', '=', String(userId))
        .orderBy('asset')
        .orderBy('kind')
        .orderBy('reference')
        .execute();
    },

    async countLedgerEntries(userId: number): Promise<number> {
      const row = await db
        .selectFrom('entries')
        .innerJoin('accounts', 'accounts.id', 'entries.account_id')
        .where('accounts.owner_user_id', '=', String(userId))
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    listLedgerEntries(userId: number, limit: number, offset: number) {
      return db
        .selectFrom('entries')
        .innerJoin('accounts', 'accounts.id', 'entries.account_id')
        .innerJoin('journals', 'journals.id', 'entries.journal_id')
        .where('accounts.owner_user_id', '=', String(userId))
        .select([
          'entries.id as entry_id',
          'entries.journal_id',
          'journals.kind',
          'journals.reference',
          'entries.asset',
          'accounts.kind as account_kind',
          'entries.amount',
          'entries.balance_after',
          'entries.created_at',
        ])
        .orderBy('entries.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
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
