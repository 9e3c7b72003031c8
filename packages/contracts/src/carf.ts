import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * HMRC's Cryptoasset Reporting Framework (CARF, issue 13): since 1 January
 * 2026 Florin reports, per calendar year, each customer's identity and tax
 * identifiers and, per cryptoasset, their acquisitions and disposals against
 * fiat and their transfers in and out, aggregated, with GBP values. Staff
 * (compliance and finance) download the year as CSV; every download is
 * audited, since the file is personal data.
 */

/** Compliance answers for the report, finance checks its figures; a superadmin may anyway. */
export const CARF_REPORT_ROLES = ['compliance', 'finance'] as const;

/** The first calendar year HMRC's CARF covers. */
export const CARF_FIRST_YEAR = 2026;

export const CARF_TEXTS = {
  title: 'Reports',
  carfHeading: 'HMRC cryptoasset reporting (CARF)',
  carfIntro:
    'One row per customer per cryptoasset for the calendar year (UTC): the customer’s identity and tax identifiers, then the purchases and sales against fiat and the transfers in and out, with counts, units and GBP values. Customers with no activity in the year are left out.',
  carfGbpNote:
    'Trades carry the GBP value recorded when they executed, Florin’s fee excluded. A transfer is valued at the GBP value stored when it was credited, else at the market price then; where Florin has no price, its GBP value is left empty and the last column says so.',
  carfAudit: 'Each download is recorded in the audit log: the file holds personal data.',
  yearLabel: 'Calendar year',
  exportCarf: 'Export CARF data',
  yearRequired: 'Choose a calendar year.',
  yearTooEarly: `CARF reporting starts with ${CARF_FIRST_YEAR}.`,
  yearNotStarted: 'Choose a year that has started.',
} as const;

export const CarfQuerySchema = z.strictObject({
  year: z.coerce
    .number({ error: CARF_TEXTS.yearRequired })
    .int(CARF_TEXTS.yearRequired)
    .min(CARF_FIRST_YEAR, CARF_TEXTS.yearTooEarly)
    .max(9999, CARF_TEXTS.yearNotStarted),
});
export type CarfQuery = z.infer<typeof CarfQuerySchema>;

/**
 * The export's columns, in order. Identity first (repeated on each of a
 * customer's rows, so a spreadsheet can filter by asset), then one asset's
 * figures: counts, units in the asset and pounds, as decimal strings.
 */
export const CARF_CSV_COLUMNS = [
  'Year',
  'Customer reference',
  'Customer type',
  'First name',
  'Last name',
  'Date of birth',
  'Address',
  'City',
  'Postcode',
  'Country',
  'Tax residence',
  'Tax identifier',
  'Tax identifier type',
  'Company name',
  'Company number',
  'Company address',
  'Company city',
  'Company postcode',
  'Company country',
  'Asset',
  'Acquisitions against fiat: count',
  'Acquisitions against fiat: units',
  'Acquisitions against fiat: GBP',
  'Disposals against fiat: count',
  'Disposals against fiat: units',
  'Disposals against fiat: GBP',
  'Transfers in (deposits): count',
  'Transfers in (deposits): units',
  'Transfers in (deposits): GBP',
  'Transfers in (interest): count',
  'Transfers in (interest): units',
  'Transfers in (interest): GBP',
  'Transfers out: count',
  'Transfers out: units',
  'Transfers out: GBP',
  'GBP value notes',
] as const;

/** `florin-carf-2026.csv`. */
export function carfCsvFilename(year: number): string {
  return `florin-carf-${year}.csv`;
}

export const exportCarfReport = defineEndpoint({
  method: 'GET',
  path: '/api/admin/reports/carf',
  summary:
    'HMRC CARF data for one calendar year as CSV: per customer and asset (compliance, finance; audited)',
  query: CarfQuerySchema,
  responses: { 200: z.string() },
});
