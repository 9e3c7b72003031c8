import { z } from 'zod';
import { isOwnerStatus } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';
import {
  anyCountrySchema,
  BENEFICIAL_OWNER_THRESHOLD_PERCENT,
  BirthdateSchema,
  KYC_TEXTS,
  PermittedCountrySchema,
  PhoneSchema,
  required,
  YesNoSchema,
} from './kyc.js';
import { DocumentSchema } from './kyc-documents.js';
import { nameSchema } from './text.js';

/** A Corporate customer's verification: the company, its directors and owners (spec 000); kyc.ts has the texts. */

/** A director's or owner's name: the shared name rule (text.ts), 100 characters. */
const personName = (message: string) =>
  nameSchema({ required: message, tooLong: 'This field may be at most 100 characters.', max: 100 });

// ---- Corporate: company, directors and owners ----

export const CompanyBodySchema = z.strictObject({
  name: nameSchema({
    required: KYC_TEXTS.nameRequired,
    tooLong: 'This field may be at most 200 characters.',
    max: 200,
  }),
  company_number: z
    .string({ error: KYC_TEXTS.companyNumberRequired })
    .trim()
    .toUpperCase()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(
      z
        .string()
        .min(1, KYC_TEXTS.companyNumberRequired)
        .regex(/^[A-Z0-9]{2,20}$/, KYC_TEXTS.companyNumberInvalid),
    ),
  address: required(KYC_TEXTS.addressRequired),
  city: required(KYC_TEXTS.cityRequired, 100),
  country: PermittedCountrySchema,
  zip: required(KYC_TEXTS.zipRequired, 20),
});
export type CompanyBody = z.infer<typeof CompanyBodySchema>;

/** Director status: 1 owner only, 2 director only, 3 both (spec 000 section 9). */
export const DirectorStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], {
  error: KYC_TEXTS.missingSelection,
});

/** Percent with up to two decimals, as text or a number. */
const ShareHoldingSchema = z
  .union([z.string(), z.number()], { error: KYC_TEXTS.shareHoldingInvalid })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, KYC_TEXTS.shareHoldingInvalid)
      .refine((value) => Number(value) <= 100, KYC_TEXTS.shareHoldingInvalid),
  );

/**
 * Whether this shareholding and status leave a beneficial owner undeclared: more than 25 % (spec
 * 000 section 9) with status 2, director only.
 */
export function isUndeclaredOwner(shareHolding: string, status: number): boolean {
  return Number(shareHolding) > BENEFICIAL_OWNER_THRESHOLD_PERCENT && !isOwnerStatus(status);
}

const directorFields = {
  firstName: personName(KYC_TEXTS.firstNameRequired),
  lastName: personName(KYC_TEXTS.lastNameRequired),
  shareHolding: ShareHoldingSchema,
  address: required(KYC_TEXTS.addressRequired),
  city: required(KYC_TEXTS.cityRequired, 100),
  zip: required(KYC_TEXTS.zipRequired, 20),
  country: anyCountrySchema(),
  phone: PhoneSchema,
  birthdate: BirthdateSchema,
  status: DirectorStatusSchema,
};

/**
 * The 25 % rule, checked as soon as the shareholding and the status are valid themselves (not
 * only once every other field is), so the form shows it with the other refusals in one go.
 */
function refuseUndeclaredOwner<Schema extends z.ZodType<{ shareHolding?: string; status: number }>>(
  schema: Schema,
): Schema {
  return schema.refine(
    (body) => body.shareHolding === undefined || !isUndeclaredOwner(body.shareHolding, body.status),
    {
      path: ['shareHolding'],
      message: KYC_TEXTS.ownerRequired,
      // Not when the body is no object at all (an issue at its root), nor either field is invalid.
      when: ({ issues }) =>
        !issues.some((issue) => {
          const [field] = issue.path ?? [];
          return field === undefined || field === 'shareHolding' || field === 'status';
        }),
    },
  );
}

export const DirectorBodySchema = refuseUndeclaredOwner(z.strictObject(directorFields));
export type DirectorBody = z.infer<typeof DirectorBodySchema>;

export const DirectorSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  /** Percent as a decimal string ("30.00"). */
  shareHolding: z.string(),
  address: z.string(),
  city: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string(),
  birthdate: z.string(),
  owner: YesNoSchema,
  director: YesNoSchema,
  status: z.number().int(),
  identity_done: YesNoSchema,
  proof_address_done: YesNoSchema,
  documents: z.array(DocumentSchema),
});
export type Director = z.infer<typeof DirectorSchema>;

export const CompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  company_number: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  zip: z.string(),
  directors: z.array(DirectorSchema),
});
export type Company = z.infer<typeof CompanySchema>;

export const saveCompany = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company',
  summary: "Create or update the Corporate customer's company",
  body: CompanyBodySchema,
  responses: { 200: z.object({ data: CompanySchema }) },
});

const DirectorParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const createDirector = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company-director',
  summary: 'Add a director or owner to the company',
  body: DirectorBodySchema,
  responses: { 201: z.object({ data: DirectorSchema }) },
});

/**
 * The spec's PUT payload (000 section 7) carries no shareholding: without it the stored one is
 * kept (and still checked against the 25 % rule with the status sent).
 */
export const DirectorUpdateBodySchema = refuseUndeclaredOwner(
  z.strictObject({ ...directorFields, shareHolding: ShareHoldingSchema.optional() }),
);
export type DirectorUpdateBody = z.infer<typeof DirectorUpdateBodySchema>;

export const updateDirector = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users/corporate/company-director/{id}',
  summary: 'Change a director or owner',
  params: DirectorParams,
  body: DirectorUpdateBodySchema,
  responses: { 200: z.object({ data: DirectorSchema }) },
});

export const deleteDirector = defineEndpoint({
  method: 'DELETE',
  path: '/api/v1/users/corporate/company-director/{id}',
  summary: 'Remove a director or owner',
  params: DirectorParams,
  responses: { 200: z.object({ success: z.literal(true) }) },
});

/** Multipart: `file` and `type`. */
export const DirectorDocumentFieldsSchema = z.strictObject({
  type: z.enum(['passport', 'national_id', 'driver_license_front', 'driver_license_back', 'proof_address'], {
    error: 'Please choose the document type.',
  }),
});

export const uploadDirectorDocument = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company-director/{id}/document-upload',
  multipart: true,
  summary: "Upload a director's or owner's identity document or proof of address (multipart)",
  params: DirectorParams,
  responses: { 200: z.object({ data: z.object({ done: z.literal(1), director: DirectorSchema }) }) },
});
