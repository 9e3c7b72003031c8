import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { pageSchema } from './pagination.js';
import { TEXT_RULE_TEXTS, freeTextSchema, nameSchema } from './text.js';

/**
 * Product enquiries from the contact page (spec 002 §2.13, §5, §7): a
 * visitor, signed in or not, sends first name, last name, e-mail and a
 * message to `POST /api/v1/inquire/{type}`. The server keeps it, forwards it
 * to the mailbox for its type with Reply-To the visitor, and sends the
 * visitor a short acknowledgement. Support staff read them in the back office.
 */

/** The spec does not show the type values (002 §7); the issue names these four. */
export const ENQUIRY_TYPES = ['general', 'business', 'press', 'support'] as const;
export const EnquiryTypeSchema = z.enum(ENQUIRY_TYPES);
export type EnquiryType = z.infer<typeof EnquiryTypeSchema>;

/** How the contact page and the back office name each type. */
export const ENQUIRY_TYPE_LABELS: Record<EnquiryType, string> = {
  general: 'General',
  business: 'Business development',
  press: 'Press',
  support: 'Support',
};

export const ENQUIRY_NAME_MAX = 100;
export const ENQUIRY_MESSAGE_MAX = 2000;
/** The visitor's e-mail travels as Reply-To: RFC 5321's longest address. */
const EMAIL_MAX = 254;

/** Spec 002 §2.13, word for word: when the phone line is open, and so when enquiries are answered. */
export const OPENING_HOURS = 'UK business hours Mon-Fri 9am-6pm';

/** The spec gives which fields are required and that the e-mail must be valid (002 §5); the words are ours. */
export const ENQUIRY_TEXTS = {
  sent: `Thank you for your enquiry. We have emailed you a confirmation and will reply during ${OPENING_HOURS}.`,
  unknownType: 'There is no such enquiry type. Use general, business, press or support.',
  firstNameRequired: 'The first name field is required.',
  firstNameTooLong: `The first name may be at most ${ENQUIRY_NAME_MAX} characters.`,
  lastNameRequired: 'The last name field is required.',
  lastNameTooLong: `The last name may be at most ${ENQUIRY_NAME_MAX} characters.`,
  /** A name goes into the subject line of the forwarded mail: one line, nothing invisible (text.ts). */
  nameInvalid: TEXT_RULE_TEXTS.nameInvalid,
  emailRequired: 'The email field is required.',
  emailInvalid: 'Please enter a valid email address.',
  messageRequired: 'The message field is required.',
  messageTooLong: `The message may be at most ${ENQUIRY_MESSAGE_MAX} characters.`,
} as const;

const name = (required: string, tooLong: string) => nameSchema({ required, tooLong, max: ENQUIRY_NAME_MAX });

export const EnquiryBodySchema = z.strictObject({
  first_name: name(ENQUIRY_TEXTS.firstNameRequired, ENQUIRY_TEXTS.firstNameTooLong),
  last_name: name(ENQUIRY_TEXTS.lastNameRequired, ENQUIRY_TEXTS.lastNameTooLong),
  email: z
    .string({ error: ENQUIRY_TEXTS.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, ENQUIRY_TEXTS.emailRequired)
    .max(EMAIL_MAX, ENQUIRY_TEXTS.emailInvalid)
    .pipe(z.email(ENQUIRY_TEXTS.emailInvalid)),
  message: freeTextSchema({
    required: ENQUIRY_TEXTS.messageRequired,
    tooLong: ENQUIRY_TEXTS.messageTooLong,
    max: ENQUIRY_MESSAGE_MAX,
  }),
});
export type EnquiryBody = z.infer<typeof EnquiryBodySchema>;
export type EnquiryInput = z.input<typeof EnquiryBodySchema>;

export const sendEnquiry = defineEndpoint({
  method: 'POST',
  path: '/api/v1/inquire/{type}',
  summary:
    'Send a product enquiry (anyone; a few an hour per address). Unknown types answer 404. The enquiry is kept, forwarded to the mailbox for its type and acknowledged by e-mail',
  // Checked by the route against EnquiryTypeSchema, so an unknown type is a 404 (no such enquiry) rather than a 422.
  params: z.strictObject({
    type: z.string().max(100).describe('general, business, press or support'),
  }),
  body: EnquiryBodySchema,
  responses: { 200: z.object({ message: z.string() }) },
});

// ---- the back office ----

export const ENQUIRIES_PAGE_SIZE = 25;

export const EnquirySchema = z.object({
  id: z.number().int(),
  type: EnquiryTypeSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  message: z.string(),
  created_at: z.string(),
  /** When it went to the type's mailbox; null: the mail failed (logged), and this list is the only copy. */
  forwarded_at: z.string().nullable(),
});
export type Enquiry = z.infer<typeof EnquirySchema>;

export const EnquiriesQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  type: EnquiryTypeSchema.optional(),
});
export type EnquiriesQuery = z.input<typeof EnquiriesQuerySchema>;

export const listEnquiries = defineEndpoint({
  method: 'GET',
  path: '/api/admin/enquiries',
  summary: `Product enquiries, newest first, ${ENQUIRIES_PAGE_SIZE} a page; filter by type (support, superadmin)`,
  query: EnquiriesQuerySchema,
  responses: { 200: pageSchema(EnquirySchema) },
});
