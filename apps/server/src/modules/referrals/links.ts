import { AppError, REFERRALS_TEXTS, type CustomReferral, type ReferralOverview } from '@florin/contracts';
import { isEligibleUnder } from './commissions.js';
import { isSlugClash, requireCustomer, type Answer, type ReferralServiceDeps } from './shared.js';

/** The path of a customer's referral link; the register page reads `ref` (features/auth/register-page.tsx). */
export function referralPathOf(code: string): string {
  return `/register?ref=${encodeURIComponent(code)}`;
}

/** The customer's referral link, a partner's custom slug, and the lookup the registration page makes. */
export function createReferralLinks(deps: ReferralServiceDeps) {
  const { db, repository } = deps;

  return {
    async overview(userId: number): Promise<ReferralOverview> {
      const customer = await requireCustomer(repository, userId);
      const current = await repository.getPolicy(db);
      const partner = await repository.findPartner(userId);
      const bank = await deps.bankAccountOf(userId);
      return {
        referral_code: customer.referral_code,
        referral_path: referralPathOf(customer.referral_code),
        has_custom_referral: partner?.has_custom_referral ?? false,
        is_eligible: isEligibleUnder(current.policy, customer),
        commission_percent: current.commission_percent,
        passcode_required: deps.secondFactor.isRequired(customer),
        email_codes: customer.platform_2fa_mobile,
        has_bank_account: bank !== null,
      };
    },

    async getCustom(userId: number): Promise<CustomReferral> {
      const partner = await repository.findPartner(userId);
      if (!partner?.has_custom_referral) throw new AppError('FORBIDDEN', REFERRALS_TEXTS.notPartner);
      return { slug: partner.slug, logo_url: partner.logo_url };
    },

    async saveCustom(userId: number, slug: string): Promise<Answer<CustomReferral>> {
      const partner = await repository.findPartner(userId);
      if (!partner?.has_custom_referral) throw new AppError('FORBIDDEN', REFERRALS_TEXTS.notPartner);
      try {
        const row = await repository.upsertPartner(db, userId, { slug });
        return { data: { slug: row.slug, logo_url: row.logo_url }, message: REFERRALS_TEXTS.slugSaved };
      } catch (error) {
        if (isSlugClash(error))
          throw new AppError('VALIDATION_FAILED', REFERRALS_TEXTS.slugTaken, {
            slug: [REFERRALS_TEXTS.slugTaken],
          });
        throw error;
      }
    },

    /** The referral registration page: a partner's slug or a referral code → the code to register with. */
    async lookup(id: string) {
      const value = id.trim().toLowerCase();
      const partner = await repository.findPartnerBySlug(value);
      if (partner?.has_custom_referral) {
        const user = await repository.findReferralCodeOf(partner.user_id);
        if (user)
          return { data: { code: user.referral_code, slug: partner.slug, logo_url: partner.logo_url } };
      }
      const user = await repository.findUserByReferralCode(value);
      if (!user) throw new AppError('NOT_FOUND');
      return { data: { code: user.referral_code, slug: null, logo_url: null } };
    },
  };
}
