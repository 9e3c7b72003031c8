import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { SOURCE_OF_WEALTH_THRESHOLD_TEXT } from './kyc.js';
import { DocumentKeySchema } from './kyc-documents.js';
import { KycAnswersSchema } from './kyc-source-of-wealth.js';
import { VerificationStateSchema } from './kyc-verification-state.js';
import { pageSchema } from './pagination.js';
import { freeTextSchema } from './text.js';

/**
 * The back office's compliance queue, case page and customer view. Every path
 * is under /api/admin/ and answers 404 to anyone whose role the route does
 * not admit (admin.ts). The spec shows no admin screens (000 §2, §6), so these
 * texts are ours (docs/decisions/031-compliance-queue-and-make-live.md). The
 * customer view is in admin-customers.ts.
 */

export const COMPLIANCE_TEXTS = {
  documentApproved: 'Document approved.',
  documentAlreadyApproved: 'This document is already approved.',
  documentDeclined: 'Document declined. The customer has been told why.',
  documentAlreadyDeclined: 'This document is already declined with another note.',
  documentSuperseded: 'The customer has uploaded a newer version of this document. Review that one instead.',
  declineNoteRequired: 'Please write why the document is declined: the customer reads it.',
  declineNoteTooLong: 'The note may be at most 500 characters.',
  madeLive: 'The account is live.',
  alreadyLive: 'The account is already live.',
  notCompleted: 'The customer has not finished verification yet.',
  stepMissing: 'A verification step is missing: the customer must provide it before going live.',
  noDocuments: 'The customer has not uploaded any documents.',
  documentsPending: 'Some documents are still awaiting review.',
  documentsDeclined: 'Some documents are declined and must be uploaded again.',
  cannotGoLive: 'The account can go live only when verification is complete and every document is approved.',
  putOnHold: 'The account is on hold.',
  alreadyOnHold: 'The account is already on hold.',
  holdLifted: 'The hold is lifted.',
  notOnHold: 'The account is not on hold.',
  openSanctionsHit:
    'This customer has a sanctions match nobody has reviewed. Review it under Sanctions first.',
  confirmedSanctionsHit:
    'This customer is a confirmed sanctions match: the account stays on hold while they are designated. Once the list no longer names them, record the delisting under Sanctions.',
  sourceOfWealthReset: 'The customer will be asked for their source of wealth again.',
  sourceOfWealthAlreadyReset: 'The customer has not answered the last reset yet.',
  /** The audit's reason when the customer's trades pass the threshold they said they would not (spec 000 section 9). */
  sourceOfWealthThresholdReason: `Traded more than ${SOURCE_OF_WEALTH_THRESHOLD_TEXT} this calendar year after answering No to the source-of-wealth question.`,
  sourceOfWealthNotAnswered: 'The customer has not answered the source-of-wealth questions yet.',
  reasonRequired: 'Please give the reason.',
  reasonTooLong: 'The reason may be at most 500 characters.',
  twoFactorReset:
    'Two-factor authentication is reset and every session signed out. Withdrawals wait 24 hours.',
  twoFactorNotOn: 'This customer has no two-factor authentication to reset.',
  emailCodesOn: 'E-mailed codes are on for this customer.',
  emailCodesOff: 'E-mailed codes are off for this customer.',
  emailCodesUnchanged: 'E-mailed codes are already set that way.',
  detailsUpdated: "The customer's details are updated.",
  detailsUnchanged: 'Nothing to change: the details are the same as before.',
  signedOut: 'Every session of the customer is signed out.',
  searchTooShort: 'Type at least 2 characters.',
} as const;

/** Document review lifecycle (CONVENTIONS.md 7): what staff may turn a document into from each status. */
export const DOCUMENT_STATUSES = ['pending', 'approved', 'declined', 'superseded'] as const;
export const DocumentStatusSchema = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatusSchema>;

/**
 * Pending is decided either way; a decision can be revised (an approved
 * document found wanting, a decline made by mistake); a superseded one is a
 * record of what was replaced, never decided again.
 */
export const DOCUMENT_REVIEW_TRANSITIONS: Record<DocumentStatus, readonly ('approved' | 'declined')[]> = {
  pending: ['approved', 'declined'],
  approved: ['declined'],
  declined: ['approved'],
  superseded: [],
};

export const DOCUMENT_STATUS_LABELS: Record<DocumentStatus, string> = {
  pending: 'Awaiting review',
  approved: 'Approved',
  declined: 'Declined',
  superseded: 'Replaced',
};

const isoDateTime = z.string();
const userId = z.coerce.number().int().positive().max(2_147_483_647);
const UserParams = z.strictObject({ userId });
const DocumentParams = z.strictObject({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** A free-text reason kept in the audit log (and, for a hold, shown to staff). */
export const ReasonSchema = freeTextSchema({
  required: COMPLIANCE_TEXTS.reasonRequired,
  tooLong: COMPLIANCE_TEXTS.reasonTooLong,
  max: 500,
});

/** Rows per page of the queue, the search and the ledger history. */
export const ADMIN_PAGE_SIZE = 25;

// ---- shared shapes ----

export const AdminDocumentSchema = z.object({
  id: z.number().int(),
  key: DocumentKeySchema,
  /** DOCUMENT_LABELS[key]. */
  label: z.string(),
  status: DocumentStatusSchema,
  /** The reviewer's reason when declined; the customer reads it as the cause. */
  disapprove_note: z.string().nullable(),
  /** Set for a director's or owner's document. */
  director_id: z.number().int().nullable(),
  director_name: z.string().nullable(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  created_at: isoDateTime,
  reviewed_at: isoDateTime.nullable(),
  reviewed_by: z.string().nullable(),
});
export type AdminDocument = z.infer<typeof AdminDocumentSchema>;

export const CustomerSummarySchema = z.object({
  id: z.number().int(),
  user_identification: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  account_type: z.enum(['Individual', 'Corporate']).nullable(),
  /** 1 live. */
  status: z.number().int(),
  /** 2 on hold. */
  block_status: z.number().int(),
  created_at: isoDateTime,
});
export type CustomerSummary = z.infer<typeof CustomerSummarySchema>;

/** What makes the account go live, or not yet: an empty list of blockers means it may. */
export const GoLiveCheckSchema = z.object({
  allowed: z.boolean(),
  blockers: z.array(z.string()),
});
export type GoLiveCheck = z.infer<typeof GoLiveCheckSchema>;

/** Which steps of the wizard the customer has submitted (the KYC module's flags, as the customer's shell reads them). */
export const VerificationStepsSchema = VerificationStateSchema.pick({
  is_kyc_submitted: true,
  is_wealth_submitted: true,
  is_photo_id_submitted: true,
  is_proof_address_submitted: true,
  is_selfie_submitted: true,
  verification_completed: true,
  denied_documents: true,
});
export type VerificationSteps = z.infer<typeof VerificationStepsSchema>;

export const CustomerDetailsSchema = CustomerSummarySchema.extend({
  platform: z.number().int(),
  block_reason: z.string().nullable(),
  live_since: isoDateTime.nullable(),
  country: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  phone: z.string().nullable(),
  birthdate: z.string().nullable(),
  nationality: z.string().nullable(),
  tax_residence: z.string().nullable(),
  tax_id: z.string().nullable(),
  is_sow_reset: z.number().int(),
  details_submitted_at: isoDateTime.nullable(),
  verification_completed_at: isoDateTime.nullable(),
});
export type CustomerDetails = z.infer<typeof CustomerDetailsSchema>;

// ---- compliance queue ----

export const QueueItemSchema = CustomerSummarySchema.extend({
  /** documents: something awaits review; ready: everything approved, the account only needs to go live. */
  stage: z.enum(['documents', 'ready']),
  waiting_since: isoDateTime,
  pending_documents: z.number().int(),
  approved_documents: z.number().int(),
  declined_documents: z.number().int(),
  verification_completed: z.boolean(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const ComplianceQueueQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const listComplianceQueue = defineEndpoint({
  method: 'GET',
  path: '/api/admin/compliance/queue',
  summary: 'Customers with documents awaiting review, or ready to go live, oldest waiting first, 25 a page',
  query: ComplianceQueueQuerySchema,
  responses: { 200: pageSchema(QueueItemSchema) },
});

// ---- the case page ----

export const CaseDirectorSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  /** Percent as a decimal string ("30.00"). */
  share_holding: z.string(),
  owner: z.boolean(),
  director: z.boolean(),
  address: z.string(),
  city: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string(),
  birthdate: z.string(),
});
export type CaseDirector = z.infer<typeof CaseDirectorSchema>;

export const CaseCompanySchema = z.object({
  name: z.string(),
  company_number: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  zip: z.string(),
  directors: z.array(CaseDirectorSchema),
});
export type CaseCompany = z.infer<typeof CaseCompanySchema>;

/** A sanctions hit that holds the account: one nobody has reviewed yet, or a confirmed match. */
export const SanctionsMatchSchema = z.enum(['open', 'confirmed']);
export type SanctionsMatch = z.infer<typeof SanctionsMatchSchema>;

/** Why lifting the hold and going live are refused while a sanctions hit holds the account. */
export function sanctionsMatchBlocker(match: SanctionsMatch): string {
  return match === 'confirmed' ? COMPLIANCE_TEXTS.confirmedSanctionsHit : COMPLIANCE_TEXTS.openSanctionsHit;
}

export const ComplianceCaseSchema = z.object({
  customer: CustomerDetailsSchema,
  /** null when no sanctions hit holds the account; otherwise the hold cannot be lifted nor the customer made live. */
  sanctions_match: SanctionsMatchSchema.nullable(),
  steps: VerificationStepsSchema,
  kyc: KycAnswersSchema.nullable(),
  company: CaseCompanySchema.nullable(),
  /** The current document of each kind, own, company's and each director's. */
  documents: z.array(AdminDocumentSchema),
  /** Earlier uploads the customer replaced, newest first: a record, not to decide. */
  replaced_documents: z.array(AdminDocumentSchema),
  go_live: GoLiveCheckSchema,
});
export type ComplianceCase = z.infer<typeof ComplianceCaseSchema>;

export const getComplianceCase = defineEndpoint({
  method: 'GET',
  path: '/api/admin/compliance/cases/{userId}',
  summary: "A customer's verification: details, answers, company, directors and every document",
  params: UserParams,
  responses: { 200: z.object({ data: ComplianceCaseSchema }) },
});

/**
 * The stored file, for viewing in the page: inline only for images and PDFs,
 * `Content-Security-Policy: sandbox`, nosniff and no-store, so it is never
 * executed nor kept in a cache.
 */
export const getAdminDocumentFile = defineEndpoint({
  method: 'GET',
  path: '/api/admin/documents/{id}/file',
  summary: "A customer's document file, for review in the page",
  params: DocumentParams,
  responses: { 200: z.unknown() },
});

const documentAnswer = z.object({ data: AdminDocumentSchema, message: z.string() });

export const approveDocument = defineEndpoint({
  method: 'POST',
  path: '/api/admin/documents/{id}/approve',
  summary: 'Approve a document (approving it again changes nothing)',
  params: DocumentParams,
  responses: { 200: documentAnswer },
});

export const DeclineDocumentBodySchema = z.strictObject({
  note: z
    .string({ error: COMPLIANCE_TEXTS.declineNoteRequired })
    .trim()
    .min(1, COMPLIANCE_TEXTS.declineNoteRequired)
    .max(500, COMPLIANCE_TEXTS.declineNoteTooLong),
});
export type DeclineDocumentBody = z.infer<typeof DeclineDocumentBodySchema>;

export const declineDocument = defineEndpoint({
  method: 'POST',
  path: '/api/admin/documents/{id}/decline',
  summary: 'Decline a document with the note the customer reads as the cause',
  params: DocumentParams,
  body: DeclineDocumentBodySchema,
  responses: { 200: documentAnswer },
});

const customerAnswer = z.object({ data: CustomerDetailsSchema, message: z.string() });

export const makeAccountLive = defineEndpoint({
  method: 'POST',
  path: '/api/admin/compliance/cases/{userId}/make-live',
  summary: 'Make the account live (status 1): only once verification is complete and every document approved',
  params: UserParams,
  responses: { 200: customerAnswer },
});

export const ReasonBodySchema = z.strictObject({ reason: ReasonSchema });
export type ReasonBody = z.infer<typeof ReasonBodySchema>;

export const putAccountOnHold = defineEndpoint({
  method: 'POST',
  path: '/api/admin/compliance/cases/{userId}/hold',
  summary: 'Put the account on compliance hold (block_status 2), with the reason',
  params: UserParams,
  body: ReasonBodySchema,
  responses: { 200: customerAnswer },
});

export const liftAccountHold = defineEndpoint({
  method: 'POST',
  path: '/api/admin/compliance/cases/{userId}/lift-hold',
  summary: 'Lift a compliance hold, with the reason',
  params: UserParams,
  body: ReasonBodySchema,
  responses: { 200: customerAnswer },
});

export const resetSourceOfWealth = defineEndpoint({
  method: 'POST',
  path: '/api/admin/compliance/cases/{userId}/reset-source-of-wealth',
  summary: 'Ask the customer for their source of wealth again (is_sow_reset 1), with the reason',
  params: UserParams,
  body: ReasonBodySchema,
  responses: { 200: customerAnswer },
});

/** Who reviews documents and decides whether an account is live. */
export const COMPLIANCE_ROLES = ['compliance'] as const;
