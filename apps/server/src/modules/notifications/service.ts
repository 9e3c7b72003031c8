import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Mailer } from '../../adapters/mail/mailer.js';
import type { DB } from '../../db/schema.js';
import { NOTIFICATIONS, type NotificationData, type NotificationEvent } from './catalogue.js';
import { renderMail } from './render.js';
export { renderMail } from './render.js';

export type Recipient = {
  id: number;
  email: string;
  login_notifications: boolean;
  loginout_notifications: boolean;
  /** Unset: read from the user's row when a mail depends on it. */
  marketing_notifications?: boolean;
  trade_notifications?: boolean;
};

export type Notifier = ReturnType<typeof createNotifier>;

/**
 * The one place features tell a customer something. Call it after the change
 * has committed: a mail about a change that rolled back would be a lie.
 */
export function createNotifier(deps: { db: Kysely<DB>; mailer: Mailer; log: FastifyBaseLogger }) {
  return {
    async notify<E extends NotificationEvent>(
      user: Recipient,
      event: E,
      data: NotificationData<E>,
      options: { to?: string } = {},
    ): Promise<void> {
      const entry = NOTIFICATIONS[event];
      if ('optional' in entry && entry.optional) {
        const flag = entry.optional;
        const isOn =
          user[flag] ??
          (await deps.db.selectFrom('users').select(flag).where('id', '=', user.id).executeTakeFirst())?.[
            flag
          ];
        if (!isOn) return;
      }
      const rendered = (entry.render as (value: NotificationData<E>) => ReturnType<typeof entry.render>)(
        data,
      );
      try {
        await deps.mailer.send(renderMail(options.to ?? user.email, rendered));
        await deps.db
          .insertInto('notifications')
          .values({ user_id: user.id, event, subject: rendered.subject })
          .execute();
      } catch (error) {
        // The change itself stands; a mail that failed is logged for staff to follow up.
        // TODO(#14): a durable outbox with retries once background jobs exist.
        deps.log.error({ err: error, event, userId: user.id }, 'notification not sent');
      }
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
    ): Promise<void> {
      const entry = NOTIFICATIONS[event];
      const rendered = (entry.render as (value: NotificationData<E>) => ReturnType<typeof entry.render>)(
        data,
      );
      try {
        await deps.mailer.send(renderMail(to, rendered));
      } catch (error) {
        // As for a customer: whatever the mail was about stands; the failure is logged.
        deps.log.error({ err: error, event }, 'notification not sent');
      }
    },
  };
}
