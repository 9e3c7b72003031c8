import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/** Verification documents: their keys and labels, and the customer's uploads (spec 000). */

// ---- documents ----

export const DOCUMENT_KEYS = [
  'passport',
  'national_id_front',
  'id_front',
  'id_back',
  'proof_selfie',
  'proof_address',
  'coi',
  'aoa',
  'cproof_address',
] as const;
export const DocumentKeySchema = z.enum(DOCUMENT_KEYS);
export type DocumentKey = z.infer<typeof DocumentKeySchema>;

/** What each document is called on screen (the Rejected view, the back office). */
export const DOCUMENT_LABELS: Record<DocumentKey, string> = {
  passport: 'Passport',
  national_id_front: 'National ID or Biometric Residence Permit',
  id_front: 'Driver License (front)',
  id_back: 'Driver License (back)',
  proof_selfie: 'Identification Document With Selfie',
  proof_address: 'Proof of Address',
  coi: 'Certificate of Incorporation',
  aoa: 'Articles of Association',
  cproof_address: 'Corporate Proof of Address',
};

export const DocumentSchema = z.object({
  id: z.number().int(),
  key: DocumentKeySchema,
  /** Below 0 declined, 0 awaiting review, above 0 approved. */
  is_admin_approved: z.number().int(),
  /** The reviewer's reason when declined: the customer sees it as the cause. */
  disapprove_note: z.string().nullable(),
  /** Set for a director's or owner's document. */
  director_id: z.number().int().nullable(),
  content_type: z.string(),
  created_at: z.string(),
});
export type Document = z.infer<typeof DocumentSchema>;

/** Multipart uploads: at most this size per file (the upload check refuses more). */
export const MAX_UPLOAD_MB = 10;
export const ACCEPTED_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

/**
 * `POST /api/v1/user/id-proof`, multipart: `file` (or `file[]` repeated: exactly two for a driver
 * licence, front then back) and these fields. `proof_selfie` is the selfie with the ID;
 * `companyDirectorId` uploads for a director instead of the customer.
 */
export const IdProofFieldsSchema = z.strictObject({
  doc_type: z.enum(['passport', 'national_id', 'driver_license', 'proof_selfie', 'proof_address'], {
    error: 'Please choose the document type.',
  }),
  companyDirectorId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type IdProofFields = z.infer<typeof IdProofFieldsSchema>;

export const uploadIdProof = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/id-proof',
  multipart: true,
  summary: 'Upload an identity document, the selfie with it, or a proof of address (multipart)',
  responses: {
    200: z.object({ data: z.object({ done: z.literal(1), documents: z.array(DocumentSchema) }) }),
  },
});

/**
 * `POST /api/v1/user/documents/upload`, multipart: `parameters` (JSON text of these fields) and
 * `file`. Uploads or re-uploads one document by key: the company's documents, and every declined one.
 */
export const DocumentUploadParametersSchema = z.strictObject({
  user_id: z.coerce.number().int().positive().max(2_147_483_647),
  key: DocumentKeySchema,
});
export type DocumentUploadParameters = z.infer<typeof DocumentUploadParametersSchema>;

export const uploadDocument = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/documents/upload',
  multipart: true,
  summary: 'Upload or re-upload one document by key (multipart)',
  responses: { 200: z.object({ data: DocumentSchema }) },
});

/** The stored file of one of the customer's own documents (never executed: served as an attachment). */
export const getDocumentFile = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/documents/{id}/file',
  summary: "One of the signed-in customer's document files",
  params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.unknown() },
});
