import type { KycAnswers, VerificationState, YesNo } from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isEveryStepSubmitted } from './flags.js';
import type { AnswersRow } from './repository.js';
import { isOverSourceOfWealthThreshold, toDirector, toDocument, type KycServiceDeps } from './shared.js';
import { loadVerification } from './verification.js';

export type VerificationStateReader = ReturnType<typeof createVerificationState>;

function toAnswers(row: AnswersRow): KycAnswers {
  const yesNo = (value: number): YesNo => (value === 1 ? 1 : 0);
  const optionalYesNo = (value: number | null): YesNo | null => (value === null ? null : yesNo(value));
  return {
    trades_over_threshold: yesNo(row.trades_over_threshold),
    aware_of_risk: yesNo(row.aware_of_risk),
    initial_investment: row.initial_investment,
    annual_income: row.annual_income,
    net_worth: row.net_worth,
    investment_portfolio: row.investment_portfolio,
    source_of_wealth: row.source_of_wealth,
    experience: row.experience,
    investment_trades: row.investment_trades,
    offense: optionalYesNo(row.offense),
    offense_details: row.offense_details,
    criminal: optionalYesNo(row.criminal),
    criminal_details: row.criminal_details,
    caution: optionalYesNo(row.caution),
    caution_details: row.caution_details,
    ccj: optionalYesNo(row.ccj),
    ccj_details: row.ccj_details,
  };
}

/**
 * What the customer has declared and uploaded, with the flags GET /api/v1/user shows, and the two
 * questions the back office asks of it: is every step still submitted, and is everything approved.
 */
export function createVerificationState(
  deps: Pick<KycServiceDeps, 'db' | 'repository' | 'tradingVolumes' | 'complianceEmail'>,
) {
  const { db, repository } = deps;

  async function getVerificationState(userId: number, executor: Kysely<DB> = db): Promise<VerificationState> {
    const { user, answers, company, directors, documents, flags } = await loadVerification(
      repository,
      userId,
      executor,
    );
    const own = documents.filter((document) => document.director_id === null);
    let sowOverThreshold: YesNo | null = null;
    if (user.is_sow_reset === 1) {
      sowOverThreshold = (await isOverSourceOfWealthThreshold(deps, userId, executor)) ? 1 : 0;
    }
    return {
      country: user.country,
      address: user.address,
      city: user.city,
      zip: user.zip,
      phone: user.phone,
      birthdate: user.birthdate,
      nationality: user.nationality,
      tax_residence: user.tax_residence,
      tax_id: user.tax_id,
      is_kyc_submitted: flags.is_kyc_submitted,
      is_wealth_submitted: flags.is_wealth_submitted,
      is_photo_id_submitted: flags.is_photo_id_submitted,
      is_proof_address_submitted: flags.is_proof_address_submitted,
      is_selfie_submitted: flags.is_selfie_submitted,
      is_sow_reset: user.is_sow_reset === 1 ? 1 : 0,
      sow_over_threshold: sowOverThreshold,
      ico_confirmed: user.ico_confirmed === 1 ? 1 : 0,
      account_tiers_class: user.account_tiers_class,
      verification_completed: user.verification_completed_at ? 1 : 0,
      denied_documents: flags.denied_documents,
      documents: own.map(toDocument),
      kyc: answers ? toAnswers(answers) : null,
      company: company
        ? {
            id: company.id,
            name: company.name,
            company_number: company.company_number,
            address: company.address,
            city: company.city,
            country: company.country,
            zip: company.zip,
            directors: directors.map((director) => toDirector(director, documents)),
          }
        : null,
      compliance_email: deps.complianceEmail,
    };
  }

  return {
    getVerificationState,

    // ---- for the back office ----

    /**
     * Every step of the wizard is still submitted: a new address (superseded proof of address) or a
     * company left without directors takes one back after the wizard was finished.
     */
    async hasEveryStepSubmitted(userId: number, executor: Kysely<DB> = db): Promise<boolean> {
      return isEveryStepSubmitted(await getVerificationState(userId, executor));
    },

    /** Every step submitted and every current document (own, company's, directors') approved. */
    async isEverythingApproved(userId: number): Promise<boolean> {
      const state = await getVerificationState(userId);
      if (!isEveryStepSubmitted(state)) return false;
      const documents = [
        ...state.documents,
        ...(state.company?.directors.flatMap((director) => director.documents) ?? []),
      ];
      return documents.length > 0 && documents.every((document) => document.is_admin_approved > 0);
    },
  };
}
