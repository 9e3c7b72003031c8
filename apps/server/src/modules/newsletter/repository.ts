import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { NEWSLETTER_TRANSITIONS, type NewsletterCounts } from '@florin/contracts';
import type { DB, NewsletterSubscribersTable } from '../../db/schema.js';
import { statesThatMayBecome, transition } from '../../lifecycle.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type SubscriberRow = Selectable<NewsletterSubscribersTable>;

/** The consent a sign-up records: what was agreed to, when, from where. */
export type Consent = { text: string; at: Date; ip: string };

/** A new confirmation link: its hash and when it lapses. */
export type ConfirmLink = { hash: string; expiresAt: Date };

const LIST_COLUMNS = ['id', 'email', 'status', 'consent_at', 'confirmed_at', 'unsubscribed_at'] as const;

/** The only place the newsletter module builds queries. */
export function createNewsletterRepository(db: Kysely<DB>) {
  return {
    /** The address's row, locked until the transaction ends; emails are stored lower-cased. */
    findByEmailForUpdate(trx: Transaction<DB>, email: string) {
      return trx
        .selectFrom('newsletter_subscribers')
        .selectAll()
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .forUpdate()
        .executeTakeFirst();
    },

    /** undefined when the address is already on the list (a sign-up at the same moment won). */
    insertPending(
      trx: Transaction<DB>,
      values: {
        email: string;
        confirm: ConfirmLink;
        unsubscribeHash: string;
        unsubscribeEncrypted: string;
        consent: Consent;
      },
    ) {
      return trx
        .insertInto('newsletter_subscribers')
        .values({
          email: values.email,
          confirm_token_hash: values.confirm.hash,
          confirm_expires_at: values.confirm.expiresAt,
          unsubscribe_token_hash: values.unsubscribeHash,
          unsubscribe_token_encrypted: values.unsubscribeEncrypted,
          consent_text: values.consent.text,
          consent_at: values.consent.at,
          consent_ip: values.consent.ip,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
    },

    /**
     * A new sign-up of a pending or unsubscribed address: pending again, with a new link and consent.
     * A pending one stays pending (only its link is new); any other goes by the lifecycle.
     */
    renewPending(
      trx: Transaction<DB>,
      subscriber: Pick<SubscriberRow, 'id' | 'status'>,
      confirm: ConfirmLink,
      consent: Consent,
    ) {
      const { id, status } = subscriber;
      return trx
        .updateTable('newsletter_subscribers')
        .set({
          status: status === 'pending' ? status : transition(NEWSLETTER_TRANSITIONS, status, 'pending'),
          confirm_token_hash: confirm.hash,
          confirm_expires_at: confirm.expiresAt,
          consent_text: consent.text,
          consent_at: consent.at,
          consent_ip: consent.ip,
          unsubscribed_at: null,
        })
        .where('id', '=', id)
        .execute();
    },

    /** The subscriber whose confirmation link this is, expired or not; locked. */
    findByConfirmHashForUpdate(trx: Transaction<DB>, hash: string) {
      return trx
        .selectFrom('newsletter_subscribers')
        .select(['id', 'status', sql<boolean>`confirm_expires_at <= now()`.as('is_expired')])
        .where('confirm_token_hash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Confirms and spends the link: the hash is cleared, so it never matches again. */
    markConfirmed(trx: Transaction<DB>, subscriber: Pick<SubscriberRow, 'id' | 'status'>) {
      const { id, status } = subscriber;
      return trx
        .updateTable('newsletter_subscribers')
        .set({
          status: transition(NEWSLETTER_TRANSITIONS, status, 'confirmed'),
          confirmed_at: sql<Date>`now()`,
          confirm_token_hash: null,
          confirm_expires_at: null,
        })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Unsubscribes the address of this link; a pending link dies with it. True when the link is
     * known (also when it was unsubscribed before: the answer is the same).
     */
    async unsubscribe(hash: string): Promise<boolean> {
      const changed = await db
        .updateTable('newsletter_subscribers')
        .set({
          status: 'unsubscribed',
          unsubscribed_at: sql<Date>`coalesce(unsubscribed_at, now())`,
          confirm_token_hash: null,
          confirm_expires_at: null,
        })
        .where('unsubscribe_token_hash', '=', hash)
        .where('status', 'in', statesThatMayBecome(NEWSLETTER_TRANSITIONS, 'unsubscribed'))
        .returning('id')
        .executeTakeFirst();
      if (changed) return true;
      // Unsubscribed before: the lifecycle moves nothing, and the answer is the same.
      const known = await db
        .selectFrom('newsletter_subscribers')
        .select('id')
        .where('unsubscribe_token_hash', '=', hash)
        .executeTakeFirst();
      return known !== undefined;
    },

    async countByStatus(executor: Executor = db): Promise<NewsletterCounts> {
      const rows = await executor
        .selectFrom('newsletter_subscribers')
        .select(['status', sql<number>`count(*)::int`.as('count')])
        .groupBy('status')
        .execute();
      const counts: NewsletterCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };
      for (const row of rows) counts[row.status] = row.count;
      return counts;
    },

    /** Newest first; `search` matches part of the address, whatever its case. */
    async listPage(skip: number, take: number, search?: string) {
      let query = db.selectFrom('newsletter_subscribers');
      if (search) {
        const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
        query = query.where(sql<string>`lower(email)`, 'like', pattern);
      }
      const [rows, total] = await Promise.all([
        query.select(LIST_COLUMNS).orderBy('id', 'desc').limit(take).offset(skip).execute(),
        query.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: total.count };
    },

    /** Every confirmed subscriber, in the order they signed up. */
    listConfirmed() {
      return db
        .selectFrom('newsletter_subscribers')
        .select(['email', 'confirmed_at', 'consent_text', 'consent_at'])
        .where('status', '=', 'confirmed')
        .orderBy('id')
        .execute();
    },
  };
}

export type NewsletterRepository = ReturnType<typeof createNewsletterRepository>;
