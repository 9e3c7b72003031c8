import type { FastifyInstance } from 'fastify';
import { listFailedMail, resendMail } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { MailAdmin } from './mail-admin.js';

/** Support answers customers who say a mail never came (a superadmin always may). */
const MAIL_STAFF = { staff: ['support'] as const };

export function registerMailRoutes(app: FastifyInstance, deps: { mail: MailAdmin }): void {
  const { mail } = deps;

  registerRoute(app, listFailedMail, {
    access: MAIL_STAFF,
    handler: (request) => mail.listFailed(request.query.page),
  });

  registerRoute(app, resendMail, {
    access: MAIL_STAFF,
    handler: (request) => mail.resend(request.params.id, auditActorOf(request)),
  });
}
