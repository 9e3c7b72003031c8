import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, RawBuilder } from 'kysely';
import type { MailMessage, Mailer } from '../../adapters/mail/mailer.js';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import { createOutboxRepository, type NewOutboxMail, type OutboxRow } from './outbox-repository.js';

/** How often the leading instance looks for mail that is due (jobs/index.ts). */
export const MAIL_OUTBOX_INTERVAL_MS = 5_000;
/** A mail that failed this many times stops being retried and waits for staff (GET /api/admin/mail/failed). */
export const MAIL_MAX_ATTEMPTS = 8;
/** Small batches: a slow mail server holds up a few mails, and each run ends soon. */
const BATCH_SIZE = 10;
/**
 * How long one run goes on taking batches (less than MAIL_OUTBOX_INTERVAL_MS): a big tick's fill mails leave
 * within a run or two, and a slow mail server still ends a run soon; the next run takes the rest.
 */
const RUN_BUDGET_MS = 4_000;
/**
 * How long a claimed row is left to its claimer (the request that wrote it, or one sender run) before
 * another sender may take it. Longer than a batch of sends to a slow mail server takes, so a mail is sent
 * twice only when its sender died between sending it and marking its batch sent.
 */
export const MAIL_CLAIM_MS = 5 * 60_000;
const FIRST_RETRY_MS = 30_000;
/**
 * How long a sent mail's envelope (who, what about, when) is kept: long enough to answer "did you
 * send it?", then pruned by the retention job. Failed and pending mail is kept until sent or resent.
 */
export const MAIL_SENT_RETENTION_MS = 30 * 24 * 3_600_000;
const LONGEST_WAIT_MS = 3_600_000;

/** The wait after the `attempts`-th failed attempt: 30 s, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

/** A mail as its outbox row, first tried at `nextAttemptAt`. */
function rowOf(
  mail: { userId: number | null; event: string; message: MailMessage },
  nextAttemptAt: Date,
): NewOutboxMail {
  const { message } = mail;
  return {
    user_id: mail.userId,
    event: mail.event,
    to_address: message.to,
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    reply_to: message.replyTo ?? null,
    next_attempt_at: nextAttemptAt,
  };
}

/** A mail written to the outbox and held by its writer, who delivers it after the commit (deliver). */
export type QueuedMail = { id: string; heldUntil: Date };

export type MailOutbox = ReturnType<typeof createMailOutbox>;

/**
 * Every e-mail is a row first (migration 0034), written with the change it is about, then sent: by
 * its writer at once, or by the sender (deliverPending) when the writer could not, with retries.
 */
export function createMailOutbox(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const repository = createOutboxRepository(deps.db);
  const now = () => deps.clock.now();
  const later = (ms: number) => new Date(now().getTime() + ms);

  /**
   * Sends one claimed row; a failure is recorded for the next attempt, never thrown. True when sent: the
   * caller marks it sent (a sender marks its whole batch at once).
   */
  async function send(row: OutboxRow): Promise<boolean> {
    const message: MailMessage = {
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      ...(row.reply_to === null ? {} : { replyTo: row.reply_to }),
    };
    try {
      await deps.mailer.send(message);
    } catch (error) {
      const attempts = row.attempts + 1;
      const isLast = attempts >= MAIL_MAX_ATTEMPTS;
      await repository.markAttemptFailed(row, {
        status: isLast ? 'failed' : 'pending',
        attempts,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
        nextAttemptAt: later(retryDelayMs(attempts)),
      });
      deps.log.error(
        { err: error, mailId: row.id, event: row.event, attempts },
        isLast ? 'mail failed for good' : 'mail not sent, will retry',
      );
      return false;
    }
    return true;
  }

  return {
    /**
     * Writes a mail with `executor` (the caller's transaction, or the database): held for its writer
     * to deliver, or due at once for the sender.
     */
    async enqueue(
      executor: Kysely<DB>,
      mail: { userId: number | null; event: string; message: MailMessage },
      deliverer: 'writer' | 'sender',
      /** The customer's notifications row (what the Notifications list shows), written by the same statement. */
      notification?: { user_id: number; event: string; subject: string },
    ): Promise<QueuedMail> {
      const heldUntil = deliverer === 'writer' ? later(MAIL_CLAIM_MS) : now();
      const id = await repository.insert(executor, rowOf(mail, heldUntil), notification);
      return { id, heldUntil };
    },

    /** One mail due at once for the sender, as a statement for the caller's own statement to run. */
    enqueueStatement(mail: {
      userId: number | null;
      event: string;
      message: MailMessage;
    }): RawBuilder<unknown> {
      return repository.insertStatement(rowOf(mail, now()));
    },

    /** Many mails in one statement with `executor`, due at once: the sender (deliverPending) sends them. */
    async enqueueAll(
      executor: Kysely<DB>,
      mails: readonly { userId: number | null; event: string; message: MailMessage }[],
    ): Promise<void> {
      const due = now();
      await repository.insertAll(
        executor,
        mails.map((mail) => rowOf(mail, due)),
      );
    },

    /**
     * Sends a mail its writer queued, once committed; if the writer took too long, the sender has it.
     * True when this call sent it.
     */
    async deliver(queued: QueuedMail): Promise<boolean> {
      try {
        const row = await repository.claimHeld(queued.id, queued.heldUntil, later(MAIL_CLAIM_MS));
        if (!row || !(await send(row))) return false;
        await repository.markSent([row], now());
        return true;
      } catch (error) {
        // The change the mail is about stands; the row is still pending, and the sender takes it later.
        deps.log.error({ err: error, mailId: queued.id }, 'mail not sent, left to the sender');
        return false;
      }
    },

    /** Deletes sent mail older than MAIL_SENT_RETENTION_MS; how many it deleted. */
    pruneSent: (): Promise<number> => repository.deleteSentBefore(later(-MAIL_SENT_RETENTION_MS)),

    /** The sender: every due mail, in small batches, each claimed so no other sender sends it too. */
    async deliverPending(): Promise<{ sent: number; failed: number }> {
      const outcome = { sent: 0, failed: 0 };
      // The real time, not the app's clock: a budget of work, which a test's stopped clock must not stretch.
      const until = performance.now() + RUN_BUDGET_MS;
      while (performance.now() < until) {
        const rows = await repository.claimDue(now(), later(MAIL_CLAIM_MS), BATCH_SIZE);
        const sent: OutboxRow[] = [];
        for (const row of rows) {
          if (await send(row)) sent.push(row);
          else outcome.failed += 1;
        }
        await repository.markSent(sent, now());
        outcome.sent += sent.length;
        if (rows.length < BATCH_SIZE) break;
      }
      return outcome;
    },
  };
}
