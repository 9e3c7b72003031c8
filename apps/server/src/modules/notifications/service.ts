import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { MailMessage, Mailer } from '../../adapters/mail/mailer.js';
import { systemClock, type Clock } from '../../clock.js';
import { insertWithDrawnIds } from '../../db/drawn-ids.js';
import type { DB } from '../../db/schema.js';
import { NOTIFICATIONS, type NotificationData, type NotificationEvent } from './catalogue.js';
import { createMailOutbox, type QueuedMail } from './outbox.js';
import { renderMail } from './render.js';
export { renderMail } from './render.js';
export { MAIL_OUTBOX_INTERVAL_MS, type QueuedMail } from './outbox.js';

export type Recipient = {
  id: number;
  email: string;
  login_notifications: boolean;
  loginout_notifications: boolean;
  /** Unset: read from the user's row when a mail depends on it. */
  marketing_notifications?: boolean;
  trade_notifications?: boolean;
};

/**
 * `executor`: the caller's transaction, so the mail commits (or rolls back) with the change it is
 * about; the sender (a leader job) sends it within seconds. Without one, the change has already
 * committed, and the mail is written and sent at once.
 */
export type MailOptions = { executor?: Kysely<DB> };

export type Notifier = ReturnType<typeof createNotifier>;

/** The one place features tell a customer something: every mail goes through the outbox (outbox.ts). */
export function createNotifier(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  clock?: Clock;
}) {
  const outbox = createMailOutbox({ ...deps, clock: deps.clock ?? systemClock });

  /** A customer's mail as rendered, with its notifications row; undefined when their Alerts switch is off. */
  async function render<E extends NotificationEvent>(
    executor: Kysely<DB>,
    mail: { user: Recipient; event: E; data: NotificationData<E>; to?: string },
  ) {
    const { user, event } = mail;
    const entry = NOTIFICATIONS[event];
    if ('optional' in entry && entry.optional) {
      const flag = entry.optional;
      const isOn =
        user[flag] ??
        (await executor.selectFrom('users').select(flag).where('id', '=', user.id).executeTakeFirst())?.[
          flag
        ];
      if (!isOn) return undefined;
    }
    const rendered = (entry.render as (value: NotificationData<E>) => ReturnType<typeof entry.render>)(
      mail.data,
    );
    return {
      mail: { userId: user.id, event, message: renderMail(mail.to ?? user.email, rendered) },
      notification: { user_id: user.id, event, subject: rendered.subject },
    };
  }

  /** Renders and writes a customer's mail and its notifications row; undefined when their Alerts switch is off. */
  async function write<E extends NotificationEvent>(
    executor: Kysely<DB>,
    mail: { user: Recipient; event: E; data: NotificationData<E>; to?: string },
    deliverer: 'writer' | 'sender',
  ): Promise<QueuedMail | undefined> {
    const rendered = await render(executor, mail);
    return rendered && outbox.enqueue(executor, rendered.mail, deliverer, rendered.notification);
  }

  /**
   * One event's mails to many customers in the caller's transaction, one statement a table however
   * many (decision 136): the mails due at once for the sender, the notifications rows with ids drawn
   * in the statement. The customers whose Alerts switch is off get neither.
   */
  async function writeAll<E extends NotificationEvent>(
    executor: Kysely<DB>,
    event: E,
    mails: readonly { user: Recipient; data: NotificationData<E> }[],
  ): Promise<number> {
    const entry = NOTIFICATIONS[event];
    let wanted = mails;
    if ('optional' in entry && entry.optional) {
      const flag = entry.optional;
      const unknown = [
        ...new Set(mails.filter(({ user }) => user[flag] === undefined).map(({ user }) => user.id)),
      ];
      const read =
        unknown.length === 0
          ? []
          : await executor
              .selectFrom('users')
              .select(['id', flag])
              .where('id', '=', sql<number>`any(${unknown}::integer[])`)
              .execute();
      const isOn = new Map(read.map((row) => [row.id, row[flag]]));
      wanted = mails.filter(({ user }) => user[flag] ?? isOn.get(user.id) ?? false);
    }
    if (wanted.length === 0) return 0;
    const render = entry.render as (value: NotificationData<E>) => ReturnType<typeof entry.render>;
    const rendered = wanted.map(({ user, data }) => ({ user, rendered: render(data) }));
    await outbox.enqueueAll(
      executor,
      rendered.map(({ user, rendered: words }) => ({
        userId: user.id,
        event,
        message: renderMail(user.email, words),
      })),
    );
    await insertWithDrawnIds(rendered, async (rows) => {
      const written = await sql<{ id: string }>`
        INSERT INTO notifications (id, user_id, event, subject)
        SELECT id, user_id, ${event}, subject
        FROM unnest(${rows.map(({ id }) => id)}::bigint[], ${rows.map(({ row }) => row.user.id)}::integer[],
          ${rows.map(({ row }) => row.rendered.subject)}::text[]) AS v (id, user_id, subject)
        ON CONFLICT (id) DO NOTHING
        RETURNING id`.execute(executor);
      return written.rows.map((row) => String(row.id));
    });
    return wanted.length;
  }

  /** After the caller's commit: its change stands whatever happens here, so a failure is only logged. */
  async function writeAndDeliver(
    log: Record<string, unknown>,
    run: (executor: Kysely<DB>) => Promise<QueuedMail | undefined>,
  ): Promise<void> {
    try {
      const queued = await run(deps.db);
      if (queued) await outbox.deliver(queued);
    } catch (error) {
      deps.log.error({ err: error, ...log }, 'notification not queued');
    }
  }

  return {
    async notify<E extends NotificationEvent>(
      user: Recipient,
      event: E,
      data: NotificationData<E>,
      options: { to?: string } & MailOptions = {},
    ): Promise<void> {
      const mail = { user, event, data, to: options.to };
      if (options.executor) await write(options.executor, mail, 'sender');
      else await writeAndDeliver({ event, userId: user.id }, (executor) => write(executor, mail, 'writer'));
    },

    /**
     * A mail to an address that need not belong to a customer (a newsletter subscriber): no Alerts
     * switch applies, and it is not listed among a customer's notifications. For events that have
     * no `optional` switch.
     */
    async notifyAddress<E extends NotificationEvent>(
      to: string,
      event: E,
      data: NotificationData<E>,
      options: MailOptions = {},
    ): Promise<void> {
      const entry = NOTIFICATIONS[event];
      const rendered = (entry.render as (value: NotificationData<E>) => ReturnType<typeof entry.render>)(
        data,
      );
      const mail = { userId: null, event, message: renderMail(to, rendered) };
      if (options.executor) await outbox.enqueue(options.executor, mail, 'sender');
      else await writeAndDeliver({ event }, (executor) => outbox.enqueue(executor, mail, 'writer'));
    },

    /**
     * A customer's mail (due for the sender at once) and notifications row as two statements for the caller's
     * own statement to run as common table expressions (issue 43: a trade writes its journal, its row and its
     * mail in one); none when their Alerts switch is off.
     */
    async statementsFor<E extends NotificationEvent>(
      executor: Kysely<DB>,
      user: Recipient,
      event: E,
      data: NotificationData<E>,
    ): Promise<RawBuilder<unknown>[]> {
      const rendered = await render(executor, { user, event, data });
      if (!rendered) return [];
      return [
        outbox.enqueueStatement(rendered.mail),
        sql`${deps.db.insertInto('notifications').values(rendered.notification)}`,
      ];
    },

    /**
     * Writes a customer's mail in the caller's transaction, held for the caller to `deliver` right
     * after the commit, so the customer has it when the answer arrives. If the server dies first,
     * the sender sends it once the hold (outbox.ts MAIL_CLAIM_MS) runs out.
     */
    queue: <E extends NotificationEvent>(
      executor: Kysely<DB>,
      user: Recipient,
      event: E,
      data: NotificationData<E>,
      options: { to?: string } = {},
    ): Promise<QueuedMail | undefined> => write(executor, { user, event, data, to: options.to }, 'writer'),

    /**
     * One event's mails to many customers, written in the caller's transaction in one statement a
     * table (a pass of the fill engine: hundreds of trades) and due at once: the sender
     * (deliverPending) sends them, so the caller never waits for a mail. How many were written.
     */
    queueAll: <E extends NotificationEvent>(
      executor: Kysely<DB>,
      event: E,
      mails: readonly { user: Recipient; data: NotificationData<E> }[],
    ): Promise<number> => writeAll(executor, event, mails),

    /**
     * A mail that is no customer notification (an enquiry's), rendered by its module, written in the
     * caller's transaction and held for the caller to `deliver` after the commit, as `queue` does.
     */
    queueMessage: (executor: Kysely<DB>, message: MailMessage, event: string): Promise<QueuedMail> =>
      outbox.enqueue(executor, { userId: null, event, message }, 'writer'),

    /**
     * A mail that is no customer notification (the staff's mail), rendered by its module: written to
     * the outbox and sent at once, retried by the sender when that fails.
     */
    async sendMail(message: MailMessage, event: string): Promise<void> {
      await writeAndDeliver({ event }, (executor) =>
        outbox.enqueue(executor, { userId: null, event, message }, 'writer'),
      );
    },

    /**
     * Sends a queued mail after the commit; never throws (a mail that fails is retried by the sender).
     * True when it was sent now.
     */
    async deliver(queued: QueuedMail | undefined): Promise<boolean> {
      return queued ? outbox.deliver(queued) : false;
    },

    /** The sender's run (a leader job, jobs/index.ts): every due mail, with retries and backoff. */
    deliverPending: () => outbox.deliverPending(),

    /** Part of the retention job (jobs/index.ts): sent mail past its 30 days is deleted. */
    pruneSent: () => outbox.pruneSent(),
  };
}
