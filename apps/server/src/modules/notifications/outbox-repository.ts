import type { Kysely } from 'kysely';
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

/** The queries of the mail outbox (migration 0034). */
export function createOutboxRepository(db: Kysely<DB>) {
  return {
    async insert(executor: Kysely<DB>, mail: NewOutboxMail): Promise<string> {
      const { id } = await executor
        .insertInto('mail_outbox')
        .values(mail)
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
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

    async markSent(id: string, at: Date): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set((eb) => ({ status: 'sent', sent_at: at, attempts: eb('attempts', '+', 1), last_error: null }))
        .where('id', '=', id)
        .execute();
    },

    async markAttemptFailed(
      id: string,
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
        .where('id', '=', id)
        .execute();
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
