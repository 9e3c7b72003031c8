import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { AssetCodeSchema, DecimalStringSchema } from './money.js';

/**
 * The customer's capital gains report (issue 13): their disposals on Florin in
 * one UK tax year, matched under HMRC's share-matching rules (packages/domain
 * capital-gains.ts). Sums are pounds and coins decimal strings; a loss is a
 * negative gain.
 */

export const TAX_TEXTS = {
  title: 'Capital gains report',
  intro:
    'Your disposals of crypto on Florin in the tax year, matched as HMRC requires: with purchases on the same day first, then purchases in the next 30 days, then the average cost of your pool.',
  notAdvice:
    'This report covers your activity on Florin only and is not tax advice. If you hold the same coins elsewhere, or sent coins from Florin as a payment or a gift, your figures will differ: speak to a tax adviser.',
  uncosted:
    'Some coins sold came from deposits from outside Florin or term deposit interest, for which Florin has no purchase cost. Add their cost from your own records.',
  noDisposals: 'You sold no crypto on Florin in this tax year.',
  loadFailed: 'The report could not be loaded. Try again.',
} as const;

/** How HMRC matched part of a disposal (CRYPTO22200). */
export const MATCH_RULE_LABELS = {
  'same-day': 'Same day',
  'thirty-day': 'Next 30 days',
  'section-104': 'Section 104 pool',
} as const;

export const MatchRuleSchema = z.enum(['same-day', 'thirty-day', 'section-104']);

export const CapitalGainsQuerySchema = z.object({
  /** The tax year by the year it starts: 2025 is 6 April 2025 to 5 April 2026. Default: the current one. */
  year: z.coerce.number().int().min(2009).max(2100).optional(),
});

export const DisposalMatchSchema = z.object({
  rule: MatchRuleSchema,
  quantity: DecimalStringSchema,
  cost: DecimalStringSchema,
  /** The day of the purchase a 30-day match draws on; null for the other rules. */
  acquired_on: z.string().nullable(),
});

export const TaxDisposalSchema = z.object({
  asset: AssetCodeSchema,
  /** The UK day; all of a day's sales of a coin are one disposal. */
  date: z.string(),
  quantity: DecimalStringSchema,
  proceeds: DecimalStringSchema,
  cost: DecimalStringSchema,
  gain: DecimalStringSchema,
  matches: z.array(DisposalMatchSchema),
  /** Of the quantity, coins with no purchase cost on record (deposits from outside, interest). */
  uncosted_quantity: DecimalStringSchema,
});
export type TaxDisposal = z.infer<typeof TaxDisposalSchema>;

export const TaxPoolSchema = z.object({
  asset: AssetCodeSchema,
  quantity: DecimalStringSchema,
  cost: DecimalStringSchema,
  uncosted_quantity: DecimalStringSchema,
});

export const CapitalGainsReportSchema = z.object({
  tax_year: z.object({ year: z.number().int(), label: z.string(), first: z.string(), last: z.string() }),
  /** The tax years the customer can choose: from their first activity to the current one, newest first. */
  tax_years: z.array(z.object({ year: z.number().int(), label: z.string() })),
  disposals: z.array(TaxDisposalSchema),
  totals: z.object({
    proceeds: DecimalStringSchema,
    costs: DecimalStringSchema,
    /** The sum of the gains, and of the losses (as a positive figure), as the tax return asks for them. */
    gains: DecimalStringSchema,
    losses: DecimalStringSchema,
    net: DecimalStringSchema,
  }),
  /** Each coin's section 104 pool at the end of the tax year. */
  pools: z.array(TaxPoolSchema),
});
export type CapitalGainsReport = z.infer<typeof CapitalGainsReportSchema>;

export const getCapitalGains = defineEndpoint({
  method: 'GET',
  path: '/api/v1/tax/capital-gains',
  summary: "The customer's capital gains report for one UK tax year",
  query: CapitalGainsQuerySchema,
  responses: { 200: CapitalGainsReportSchema },
});

/** The same report as CSV, one row per matched part of each disposal. */
export const exportCapitalGainsPath = '/api/v1/tax/capital-gains/export';

/** `Florin capital gains 2025-26.csv`: a header carries no en dash, so the year's name takes a hyphen. */
export function capitalGainsCsvFilename(label: string): string {
  return `Florin capital gains ${label.replace('–', '-')}.csv`;
}

export const CAPITAL_GAINS_CSV_COLUMNS = [
  'Date',
  'Asset',
  'Quantity disposed',
  'Proceeds (GBP)',
  'Allowable cost (GBP)',
  'Gain or loss (GBP)',
  'Matched under',
  'Matched quantity',
  'Matched cost (GBP)',
  'Purchase date (30-day rule)',
  'Quantity with no recorded cost',
] as const;
