import type { FastifyInstance } from 'fastify';
import {
  confirmNewsletter,
  exportNewsletterSubscribers,
  listNewsletterSubscribers,
  NEWSLETTER_TEXTS,
  subscribeNewsletter,
  unsubscribeNewsletter,
} from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { NewsletterService } from './service.js';

/** Support answers visitors' requests about the list; a superadmin is admitted to every staff route anyway. */
const support = { staff: ['support'] as const };

export function registerNewsletterRoutes(
  app: FastifyInstance,
  deps: { newsletter: NewsletterService },
): void {
  const { newsletter } = deps;

  registerRoute(app, subscribeNewsletter, {
    access: 'public',
    handler: async (request) => {
      await newsletter.subscribe(request.body.email, request.ip);
      return { message: NEWSLETTER_TEXTS.signedUp };
    },
  });

  registerRoute(app, confirmNewsletter, {
    access: 'public',
    handler: async (request) => {
      await newsletter.confirm(request.params.token);
      return { message: NEWSLETTER_TEXTS.confirmed };
    },
  });

  registerRoute(app, unsubscribeNewsletter, {
    access: 'public',
    handler: async (request) => {
      await newsletter.unsubscribe(request.params.token);
      return { message: NEWSLETTER_TEXTS.unsubscribed };
    },
  });

  registerRoute(app, listNewsletterSubscribers, {
    access: support,
    handler: async (request) =>
      newsletter.list(request.query.skip, request.query.take, request.query.q || undefined),
  });

  registerRoute(app, exportNewsletterSubscribers, {
    access: support,
    handler: async (request, reply) => {
      const file = await newsletter.exportConfirmed(auditActorOf(request));
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`);
      return file.csv;
    },
  });
}
