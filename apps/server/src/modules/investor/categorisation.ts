import {
  AppError,
  CATEGORY_STATEMENTS,
  CATEGORY_THRESHOLDS,
  INVESTOR_TEXTS,
  todayInLondon,
  type CategoriseBody,
  type InvestorCategory,
  type InvestorJourney,
} from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import type { InvestorCustomer } from './repository.js';
import { inStep, journeyOf, requireCustomer, type InvestorServiceDeps } from './shared.js';

/** Hundredths of a percent, so that 10% is compared exactly: "7.5" → 750n. */
function hundredths(percent: string): bigint {
  const [whole, fraction = ''] = percent.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

const pence = (pounds: string) => parseAmount(pounds, 'GBP');
const atLeast = (pounds: string, threshold: string) => pence(pounds) >= pence(threshold);

/** The calendar date `months` before `date` (YYYY-MM-DD), clamped to the month's end. */
function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const lastDay = new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).getUTCDate();
  const shifted = new Date(Date.UTC(Math.floor(index / 12), index % 12, Math.min(day, lastDay)));
  return shifted.toISOString().slice(0, 10);
}

/**
 * Checks the figures against the category's rule. A customer the rule does
 * not fit is told why, on the field, and nothing is stored.
 */
function checkCategory(accountType: InvestorCustomer['account_type'], body: CategoriseBody): void {
  const allowed = Object.keys(CATEGORY_STATEMENTS[accountType]) as InvestorCategory[];
  if (!allowed.includes(body.category))
    throw new AppError('VALIDATION_FAILED', undefined, { category: ['Choose one of the types listed.'] });
  const refuse = (field: string, text: string) => {
    throw new AppError('VALIDATION_FAILED', undefined, { [field]: [text] });
  };
  const limit = hundredths(CATEGORY_THRESHOLDS.restrictedPercent);
  switch (body.category) {
    case 'restricted':
      if (hundredths(body.past_percent) > limit) refuse('past_percent', INVESTOR_TEXTS.restrictedTooMuch);
      if (hundredths(body.intended_percent) > limit)
        refuse('intended_percent', INVESTOR_TEXTS.restrictedTooMuch);
      return;
    case 'high_net_worth':
      if (
        !atLeast(body.annual_income, CATEGORY_THRESHOLDS.annualIncome) &&
        !atLeast(body.net_assets, CATEGORY_THRESHOLDS.netAssets)
      )
        refuse('annual_income', INVESTOR_TEXTS.highNetWorthBelow);
      return;
    case 'sophisticated': {
      const today = todayInLondon();
      if (
        body.certified_on > today ||
        body.certified_on < monthsBefore(today, CATEGORY_THRESHOLDS.certificateMonths)
      )
        refuse('certified_on', INVESTOR_TEXTS.sophisticatedTooOld);
      return;
    }
    case 'large_undertaking': {
      const met = [
        atLeast(body.balance_sheet_total, CATEGORY_THRESHOLDS.balanceSheetTotal),
        atLeast(body.net_turnover, CATEGORY_THRESHOLDS.netTurnover),
        atLeast(body.own_funds, CATEGORY_THRESHOLDS.ownFunds),
      ].filter(Boolean).length;
      if (met < 2) refuse('balance_sheet_total', INVESTOR_TEXTS.largeCompanyBelow);
      return;
    }
  }
}

/** Where the customer stands, and the first step: the type of investor they declare. */
export function createCategorisation(deps: InvestorServiceDeps) {
  const { db, repository } = deps;
  const now = () => deps.clock.now();
  return {
    async journey(userId: number): Promise<{ data: InvestorJourney }> {
      return { data: await journeyOf(deps, db, await requireCustomer(deps, userId)) };
    },

    /** The declared category, its figures and the statement as confirmed; may be changed until the assessment is passed. */
    async categorise(userId: number, body: CategoriseBody, ip: string | null) {
      return inStep(deps, userId, ['categorisation', 'assessment'], async (trx, customer) => {
        checkCategory(customer.account_type, body);
        const statements = CATEGORY_STATEMENTS[customer.account_type] as Record<
          string,
          { label: string; statement: string }
        >;
        const { label, statement } = statements[body.category]!;
        const { category, confirmed: _confirmed, ...figures } = body;
        await repository.updateProfile(trx, userId, { category, categorised_at: now() });
        await repository.addEvidence(trx, userId, {
          step: 'categorised',
          details: {
            category,
            label,
            statement,
            confirmed: true,
            figures,
            account_type: customer.account_type,
          },
          ip,
        });
        return { data: await journeyOf(deps, trx, customer), message: INVESTOR_TEXTS.categorised };
      });
    },
  };
}
