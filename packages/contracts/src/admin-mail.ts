import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { PageQuerySchema, pageSchema } from './pagination.js';

/**
 * The mail outbox in the back office (issue 42): every e-mail is written
 * before it is sent and retried with backoff; one that failed every attempt
 * waits here until support sends it again.
 */

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export const MailStatusSchema = z.enum(MAIL_STATUSES);
export type MailStatus = z.infer<typeof MailStatusSchema>;

export const MAIL_TEXTS = {
  resent: 'The email will be sent again within a minute.',
  notFailed: 'Only an email that failed can be sent again.',
} as const;

export const AdminMailSchema = z.object({
  id: z.string(),
  /** The customer it is for; null for an address that is no customer's (a newsletter subscriber). */
  user_id: z.number().int().nullable(),
  /** The notification it carries, e.g. fiat_withdrawal_requested. */
  event: z.string(),
  to: z.string(),
  subject: z.string(),
  status: MailStatusSchema,
  attempts: z.number().int().min(0),
  /** What the mail server said the last time it failed. */
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type AdminMail = z.infer<typeof AdminMailSchema>;

export const FailedMailQuerySchema = z.strictObject(PageQuerySchema.shape);
export type FailedMailQuery = z.input<typeof FailedMailQuerySchema>;

export const listFailedMail = defineEndpoint({
  method: 'GET',
  path: '/api/admin/mail/failed',
  summary: 'E-mails that failed every attempt, newest first, 25 a page (support, superadmin)',
  query: FailedMailQuerySchema,
  responses: { 200: pageSchema(AdminMailSchema) },
});

export const resendMail = defineEndpoint({
  method: 'POST',
  path: '/api/admin/mail/{id}/resend',
  summary:
    'Send a failed e-mail again: it goes back to the outbox with its attempts reset (support, superadmin). 409 unless it failed',
  params: z.strictObject({ id: z.string().regex(/^\d{1,18}$/) }),
  responses: { 200: z.object({ data: AdminMailSchema, message: z.string() }) },
});
