import { z } from 'zod';
import { YesNoSchema } from './kyc.js';
import { CompanySchema } from './kyc-company.js';
import { DocumentSchema } from './kyc-documents.js';
import { KycAnswersSchema } from './kyc-source-of-wealth.js';

// ---- the verification state inside GET /api/v1/user ----

/** What the wizard, Getting Started and the shell read from the user (spec 000 section 3). */
export const VerificationStateSchema = z.object({
  country: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  phone: z.string().nullable(),
  birthdate: z.string().nullable(),
  nationality: z.string().nullable(),
  tax_residence: z.string().nullable(),
  tax_id: z.string().nullable(),
  is_kyc_submitted: YesNoSchema,
  is_wealth_submitted: YesNoSchema,
  is_photo_id_submitted: YesNoSchema,
  is_proof_address_submitted: YesNoSchema,
  is_selfie_submitted: YesNoSchema,
  is_sow_reset: YesNoSchema,
  /**
   * While is_sow_reset is 1: 1 when this calendar year's trades exceed the £15,000 threshold, so
   * the only answer is Yes and the full form; null when no reset is waiting.
   */
  sow_over_threshold: YesNoSchema.nullable(),
  ico_confirmed: YesNoSchema,
  account_tiers_class: z.number().int(),
  /** The wizard was finished (the completion dialog shown); staff review from here. */
  verification_completed: YesNoSchema,
  /** Declined documents still to re-upload, the customer's own and their directors'. */
  denied_documents: z.number().int(),
  /** The current document of each kind (own and company; directors' are under company.directors). */
  documents: z.array(DocumentSchema),
  kyc: KycAnswersSchema.nullable(),
  company: CompanySchema.nullable(),
  /** The mailbox the upload-failure dialog names (configuration: COMPLIANCE_EMAIL). */
  compliance_email: z.string(),
});
export type VerificationState = z.infer<typeof VerificationStateSchema>;
