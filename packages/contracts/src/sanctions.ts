import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { pageSchema } from './pagination.js';

/**
 * Sanctions screening (issue 13). Compliance imports the UK government's
 * consolidated list of financial sanctions targets (OFSI's ConList.csv) as a
 * file: our machines are offline. One list is active; each import replaces
 * it and screens every customer again. Customers, Corporate customers'
 * companies and their directors and owners are screened when they submit
 * verification and whenever a screened detail changes. A possible match puts
 * the account on compliance hold and opens a hit for review; every screening,
 * clear or not, is kept as evidence with the list it used.
 */

/** Who works the sanctions screen: compliance (a superadmin always may). */
export const SANCTIONS_ROLES = ['compliance'] as const;

/** The published ConList.csv is a few MB; this leaves room for it to grow. */
export const SANCTIONS_FILE_MAX_BYTES = 30 * 1024 * 1024;
export const SANCTIONS_FILE_MAX_MB = SANCTIONS_FILE_MAX_BYTES / (1024 * 1024);

export const SANCTIONS_HITS_PAGE_SIZE = 25;

export const SANCTIONS_TEXTS = {
  imported: 'The sanctions list is imported and every customer has been screened against it.',
  fileRequired: 'Please choose the consolidated list file (ConList.csv) to import.',
  fileTooLarge: `The file is larger than ${SANCTIONS_FILE_MAX_MB} MB. Is it the consolidated list (ConList.csv)?`,
  notText: 'This file is not a CSV text file. Please choose the consolidated list (ConList.csv).',
  notConList:
    'This is not the UK consolidated list in CSV format (ConList.csv): its first line must be "Last Updated" with the date (dd/mm/yyyy), and its second the column names.',
  missingColumns: 'This is not the UK consolidated list in CSV format (ConList.csv). It has no column',
  noRows: 'The file names no one: it has the column names but no rows.',
  unclosedQuote: 'a quoted field is never closed, so the file is cut off or is not a CSV file.',
  tooManyFields: 'the row has more fields than the column names; a comma may be missing its quotes.',
  badGroupType: 'the Group Type must be Individual, Entity or Ship.',
  noGroupId: 'the Group ID is empty.',
  noName: 'the row has no name (Name 1 to Name 6 are all empty).',
  falsePositiveMarked:
    'Marked as a false positive. If the account is on hold, lift the hold on the customer’s page.',
  alreadyFalsePositive: 'This hit is already marked as a false positive.',
  matchConfirmed:
    'Recorded as a confirmed match. The account stays on hold while the customer is designated: report it to OFSI.',
  alreadyConfirmed: 'This hit is already recorded as a confirmed match.',
  delisted:
    'Recorded as delisted. The hit no longer holds the account: review the customer’s case and lift the hold there.',
  alreadyDelisted: 'This hit is already recorded as delisted.',
  onlyConfirmedDelisted: 'Only a confirmed match can be recorded as delisted.',
  stillListed:
    'The active consolidated list still names this designation. Import the list that no longer names it, then record the delisting.',
  delistNoteRequired:
    'Please write when the designation was revoked and where OFSI published the revocation.',
  noteRequired: 'Please write why this is not the listed person or entity.',
  confirmNoteRequired:
    'Please write what shows this is the listed person or entity, and your report’s reference.',
  noteTooLong: 'The note may be at most 500 characters.',
  holdReason: 'Possible sanctions match. Review the hit on the Sanctions screen.',
  confirmedHoldReason:
    'Confirmed sanctions match. The account stays on hold while the customer is designated; see the hit on the Sanctions screen.',
  delistedHoldReason:
    'Sanctions designation revoked. Review the account, then lift the hold if nothing else holds it.',
  noList: 'No sanctions list has been imported yet. Until one is, nobody can be screened.',
} as const;

export const SANCTIONS_GROUP_TYPES = ['Individual', 'Entity', 'Ship'] as const;
export const SanctionsGroupTypeSchema = z.enum(SANCTIONS_GROUP_TYPES);
export type SanctionsGroupType = z.infer<typeof SanctionsGroupTypeSchema>;

/** What made a screening run. */
export const SCREENING_TRIGGERS = [
  'onboarding',
  'details_changed',
  'company_changed',
  'directors_changed',
  'identity_edited',
  'list_imported',
] as const;
export const ScreeningTriggerSchema = z.enum(SCREENING_TRIGGERS);
export type ScreeningTrigger = z.infer<typeof ScreeningTriggerSchema>;

export const SCREENING_TRIGGER_LABELS: Record<ScreeningTrigger, string> = {
  onboarding: 'Verification submitted',
  details_changed: 'Date of birth changed',
  company_changed: 'Company details changed',
  directors_changed: 'Directors or owners changed',
  identity_edited: 'Name or date of birth edited by staff',
  list_imported: 'New sanctions list imported',
};

/**
 * clear: no match; hit: at least one match that holds the account (not yet reviewed, or confirmed);
 * reviewed: every match was marked a false positive earlier.
 */
export const SCREENING_OUTCOMES = ['clear', 'hit', 'reviewed'] as const;
export const ScreeningOutcomeSchema = z.enum(SCREENING_OUTCOMES);
export type ScreeningOutcome = z.infer<typeof ScreeningOutcomeSchema>;

/** Whose name was screened: the customer, their company, or one of its directors or owners. */
export const SCREENING_SUBJECT_KINDS = ['customer', 'company', 'director'] as const;
export const ScreeningSubjectKindSchema = z.enum(SCREENING_SUBJECT_KINDS);
export type ScreeningSubjectKind = z.infer<typeof ScreeningSubjectKindSchema>;

/**
 * A hit's lifecycle (CONVENTIONS.md 7): open until compliance decides whether it is the listed party.
 * A false positive lets the hold be lifted; a confirmed match keeps the account on hold while the party
 * is designated (its assets are frozen; only OFSI can license dealing with them). Once the designation
 * is revoked and the active list no longer names it, compliance records the match as delisted, and the
 * hold can be lifted. These are staff's decisions; a screening that finds a delisted match again makes it
 * confirmed once more.
 */
export const SANCTIONS_HIT_STATUSES = ['open', 'false_positive', 'confirmed', 'delisted'] as const;
export const SanctionsHitStatusSchema = z.enum(SANCTIONS_HIT_STATUSES);
export type SanctionsHitStatus = z.infer<typeof SanctionsHitStatusSchema>;
export const SANCTIONS_HIT_TRANSITIONS: Record<SanctionsHitStatus, readonly SanctionsHitStatus[]> = {
  open: ['false_positive', 'confirmed'],
  false_positive: [],
  confirmed: ['delisted'],
  delisted: [],
};

export const SanctionsListSchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int(),
  /** The file's own Last Updated date, YYYY-MM-DD. */
  list_updated_on: z.string(),
  imported_at: z.string(),
  imported_by: z.string().nullable(),
  /** Counts of rows and designations, not money. */
  rows: z.number().int(),
  designations: z.number().int(),
  individuals: z.number().int(),
  entities: z.number().int(),
  ships: z.number().int(),
});
export type SanctionsList = z.infer<typeof SanctionsListSchema>;

export const RescreenSummarySchema = z.object({
  /** Customers screened against the new list, and those of them with an unreviewed match (row counts). */
  customers: z.number().int(),
  hits: z.number().int(),
  /** Of those, the accounts this import put on hold (the others already were). */
  held: z.number().int(),
});
export type RescreenSummary = z.infer<typeof RescreenSummarySchema>;

export const getSanctionsList = defineEndpoint({
  method: 'GET',
  path: '/api/admin/sanctions/list',
  summary:
    'The active sanctions list: its file, its Last Updated date, who imported it and its counts (compliance)',
  responses: { 200: z.object({ data: SanctionsListSchema.nullable() }) },
});

/**
 * Multipart: one `file`, OFSI's ConList.csv. Refused as a whole (422, the
 * reasons under `errors.file`) when it is not that format; nothing changes then.
 */
export const importSanctionsList = defineEndpoint({
  method: 'POST',
  path: '/api/admin/sanctions/list',
  multipart: true,
  summary:
    'Import the UK consolidated list (ConList.csv, multipart `file`): it replaces the active list and every customer is screened again (compliance)',
  responses: {
    200: z.object({
      data: z.object({ list: SanctionsListSchema, screening: RescreenSummarySchema }),
      message: z.string(),
    }),
  },
});

export const SanctionsHitSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user_identification: z.string(),
  customer_name: z.string(),
  account_type: z.enum(['Individual', 'Corporate']).nullable(),
  /** 2: the account is on compliance hold now. */
  block_status: z.number().int(),
  subject_kind: ScreeningSubjectKindSchema,
  subject_name: z.string(),
  subject_birthdate: z.string().nullable(),
  group_id: z.string(),
  group_type: SanctionsGroupTypeSchema,
  listed_name: z.string(),
  /** The designation's dates of birth as listed (dd/mm/yyyy, 00 unknown), joined by "; ". */
  listed_dobs: z.string().nullable(),
  regime: z.string().nullable(),
  status: SanctionsHitStatusSchema,
  found_at: z.string(),
  last_found_at: z.string(),
  review_note: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  /** Whether the active list still names the designation: a confirmed match can be delisted only once not. */
  still_listed: z.boolean(),
  delisted_note: z.string().nullable(),
  delisted_at: z.string().nullable(),
  delisted_by: z.string().nullable(),
});
export type SanctionsHit = z.infer<typeof SanctionsHitSchema>;

export const SanctionsHitsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  status: SanctionsHitStatusSchema.default('open'),
});
export type SanctionsHitsQuery = z.input<typeof SanctionsHitsQuerySchema>;

export const listSanctionsHits = defineEndpoint({
  method: 'GET',
  path: '/api/admin/sanctions/hits',
  summary: `Screening hits, newest first, ${SANCTIONS_HITS_PAGE_SIZE} a page; open ones by default (compliance)`,
  query: SanctionsHitsQuerySchema,
  responses: { 200: pageSchema(SanctionsHitSchema) },
});

/** A review's note, required: `required` says what it must hold for that decision. */
const reviewNoteBody = (required: string) =>
  z.strictObject({
    note: z.string({ error: required }).trim().min(1, required).max(500, SANCTIONS_TEXTS.noteTooLong),
  });

/** Why the hit is not the listed party. */
export const FalsePositiveBodySchema = reviewNoteBody(SANCTIONS_TEXTS.noteRequired);
export type FalsePositiveBody = z.infer<typeof FalsePositiveBodySchema>;

/** What shows the hit is the listed party, and the OFSI report's reference. */
export const ConfirmMatchBodySchema = reviewNoteBody(SANCTIONS_TEXTS.confirmNoteRequired);

const HitParamsSchema = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const markSanctionsHitFalsePositive = defineEndpoint({
  method: 'POST',
  path: '/api/admin/sanctions/hits/{id}/false-positive',
  summary:
    'Mark a hit as a false positive, with a note. The hold stays: staff lift it on the customer (compliance)',
  params: HitParamsSchema,
  body: FalsePositiveBodySchema,
  responses: { 200: z.object({ data: SanctionsHitSchema, message: z.string() }) },
});

export const confirmSanctionsHit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/sanctions/hits/{id}/confirm',
  summary:
    'Record a hit as a confirmed match, with a note: the account stays on hold and the hold cannot be lifted (compliance)',
  params: HitParamsSchema,
  body: ConfirmMatchBodySchema,
  responses: { 200: z.object({ data: SanctionsHitSchema, message: z.string() }) },
});

/** When the designation was revoked, and where OFSI published it. */
export const DelistedBodySchema = reviewNoteBody(SANCTIONS_TEXTS.delistNoteRequired);

export const recordSanctionsHitDelisted = defineEndpoint({
  method: 'POST',
  path: '/api/admin/sanctions/hits/{id}/delisted',
  summary:
    'Record that a confirmed match’s designation was revoked, with a note, once the active list no longer names it: the hit stops holding the account (compliance)',
  params: HitParamsSchema,
  body: DelistedBodySchema,
  responses: { 200: z.object({ data: SanctionsHitSchema, message: z.string() }) },
});

export const ScreeningSubjectSchema = z.object({
  kind: ScreeningSubjectKindSchema,
  name: z.string(),
  birthdate: z.string().nullable(),
});

export const ScreeningMatchSchema = z.object({
  hit_id: z.number().int(),
  subject_kind: ScreeningSubjectKindSchema,
  subject_name: z.string(),
  group_id: z.string(),
  listed_name: z.string(),
  /** The hit's status when this screening found it. */
  status: SanctionsHitStatusSchema,
});

export const ScreeningSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  list_id: z.number().int(),
  list_updated_on: z.string(),
  list_sha256: z.string(),
  trigger: ScreeningTriggerSchema,
  outcome: ScreeningOutcomeSchema,
  subjects: z.array(ScreeningSubjectSchema),
  matches: z.array(ScreeningMatchSchema),
  screened_at: z.string(),
});
export type Screening = z.infer<typeof ScreeningSchema>;

export const listCustomerScreenings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/sanctions/customers/{userId}/screenings',
  summary:
    "Every screening of one customer, newest first: part of the customer's evidence record (compliance)",
  params: z.strictObject({ userId: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.object({ data: z.array(ScreeningSchema) }) },
});
