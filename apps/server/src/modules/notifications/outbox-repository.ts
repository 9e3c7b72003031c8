import { sql, type ExpressionBuilder, type Kysely, type QueryCreator, type RawBuilder } from 'kysely';
import type { DB, MailOutboxStatus, RowOf } from '../../db/schema.js';

export type OutboxRow = RowOf<DB['mail_outbox']>;

export type NewOutboxMail = {
  user_id: number | null;
  event: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  reply_to: string | null;
  next_attempt_at: Date;
};

/** A claimed row: its id and the next attempt its claim set, which no one else has moved since. */
export type Claim = Pick<OutboxRow, 'id' | 'next_attempt_at'>;

/**
 * An outcome is recorded only while the claim holds: a send that outlasted it (the sender has sent the
 * mail since) must not put a sent mail back to pending.
 */
function isStillClaimed(eb: ExpressionBuilder<DB, 'mail_outbox'>, claim: Claim) {
  return eb.and([
    eb('id', '=', claim.id),
    eb('status', '=', 'pending'),
    eb('next_attempt_at', '=', claim.next_attempt_at),
  ]);
}

/** The queries of the mail outbox (migration 0034). */
export function createOutboxRepository(db: Kysely<DB>) {
  return {
    /** One mail, and the customer's notifications row beside it in the same statement (issue 43). */
    async insert(
      executor: Kysely<DB>,
      mail: NewOutboxMail,
      notification?: { user_id: number; event: string; subject: string },
    ): Promise<string> {
      const writer: QueryCreator<DB> = notification
        ? executor.with('notified', (db) =>
            db.insertInto('notifications').values(notification).returning('id'),
          )
        : executor;
      const { id } = await writer
        .insertInto('mail_outbox')
        .values(mail)
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /** One mail's insert, for a caller's statement to run as a common table expression. */
    insertStatement(mail: NewOutboxMail): RawBuilder<unknown> {
      return sql`${db.insertInto('mail_outbox').values(mail)}`;
    },

    /** Many mails in one statement of one array a column (a pass of the fill engine writes hundreds). */
    async insertAll(executor: Kysely<DB>, mails: readonly NewOutboxMail[]): Promise<void> {
      if (mails.length === 0) return;
      const column = <K extends keyof NewOutboxMail>(key: K) => mails.map((mail) => mail[key]);
      await sql`
        INSERT INTO mail_outbox (user_id, event, to_address, subject, text_body, html_body, reply_to, next_attempt_at)
        SELECT * FROM unnest(${column('user_id')}::integer[], ${column('event')}::text[],
          ${column('to_address')}::text[], ${column('subject')}::text[], ${column('text_body')}::text[],
          ${column('html_body')}::text[], ${column('reply_to')}::text[], ${column('next_attempt_at')}::timestamptz[])`.execute(
        executor,
      );
    },

    /**
     * Claims up to `limit` due rows by moving their next attempt to `until`, in one statement: a
     * second sender skips the rows this one locked, and finds them not due once it commits.
     */
    async claimDue(now: Date, until: Date, limit: number): Promise<OutboxRow[]> {
      return db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: until })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('mail_outbox')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now)
            .orderBy('next_attempt_at')
            .limit(limit)
            .forUpdate()
            .skipLocked(),
        )
        .returningAll()
        .execute();
    },

    /** The row its writer still holds (its next attempt unchanged since the insert), claimed until `until`. */
    async claimHeld(id: string, heldUntil: Date, until: Date): Promise<OutboxRow | undefined> {
      return db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: until })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', heldUntil)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Marks the claimed rows sent, in one statement (a sender's batch, or the one mail its writer sent). A
     * sent mail keeps its envelope, not its words: bodies carry one-time codes and sign-in links, which have
     * no business in the database once the mail is out (and a sent mail is never resent).
     */
    async markSent(claims: readonly Claim[], at: Date): Promise<void> {
      if (claims.length === 0) return;
      await db
        .updateTable('mail_outbox')
        .set((eb) => ({
          status: 'sent',
          sent_at: at,
          attempts: eb('attempts', '+', 1),
          last_error: null,
          text_body: '',
          html_body: '',
        }))
        .where((eb) => eb.or(claims.map((claim) => isStillClaimed(eb, claim))))
        .execute();
    },

    async markAttemptFailed(
      claim: Claim,
      outcome: { status: MailOutboxStatus; attempts: number; error: string; nextAttemptAt: Date },
    ): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({
          status: outcome.status,
          attempts: outcome.attempts,
          last_error: outcome.error,
          next_attempt_at: outcome.nextAttemptAt,
        })
        .where((eb) => isStillClaimed(eb, claim))
        .execute();
    },

    /** Sent mail older than `before`: its envelope has served its purpose. */
    async deleteSentBefore(before: Date): Promise<number> {
      const result = await db
        .deleteFrom('mail_outbox')
        .where('status', '=', 'sent')
        .where('sent_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows); // a row count, not money
    },

    async countFailed(): Promise<number> {
      const { count } = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow();
      return Number(count);
    },

    async listFailed(limit: number, offset: number): Promise<OutboxRow[]> {
      return db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('status', '=', 'failed')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async lock(executor: Kysely<DB>, id: string): Promise<OutboxRow | undefined> {
      return executor
        .selectFrom('mail_outbox')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async requeue(executor: Kysely<DB>, id: string, now: Date): Promise<OutboxRow> {
      return executor
        .updateTable('mail_outbox')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
