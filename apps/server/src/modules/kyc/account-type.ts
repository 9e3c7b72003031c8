import { AppError, KYC_TEXTS, type AccountTypeBody } from '@florin/contracts';
import { isLive } from '@florin/domain';
import { isEveryStepSubmitted } from './flags.js';
import { lockUser, type KycServiceDeps } from './shared.js';
import type { VerificationStateReader } from './verification-state.js';

/** The account type the wizard starts with, the platform it finishes with, and the ICO confirmation. */
export function createAccountType(
  deps: Pick<KycServiceDeps, 'db' | 'repository' | 'upgrades' | 'sanctions'>,
  verification: Pick<VerificationStateReader, 'getVerificationState'>,
) {
  const { db, repository } = deps;

  return {
    /**
     * Individual or Corporate while nothing is submitted (step 2); Instant or
     * Trade once every step is (step 10), which finishes the wizard. Afterwards
     * Trade upgrades a live instant customer to the trading platform (issue 9);
     * going back to Instant goes through support.
     */
    async setAccountType(userId: number, body: AccountTypeBody): Promise<void> {
      // Set inside the transaction when this call finishes the wizard.
      const wizard = { isSubmitted: false };
      const upgradeId = await db.transaction().execute(async (trx): Promise<string | null> => {
        const user = await lockUser(repository, trx, userId);
        if (body.account_type === 'Individual' || body.account_type === 'Corporate') {
          if (user.account_type === body.account_type) return null;
          if (user.account_type !== null && (await repository.hasSubmittedAnything(userId, trx))) {
            throw new AppError('CONFLICT', KYC_TEXTS.accountTypeLocked);
          }
          await repository.updateUser(userId, { account_type: body.account_type }, trx);
          return null;
        }
        const isTrade = body.account_type === 'Trade';
        const platform = isTrade ? 2 : 1;
        const trading = { platform: 2, account_tiers_class: 4, ico_confirmed: 1 } as const;
        const recordUpgrade = () =>
          deps.upgrades?.recordUpgrade(trx, { userId, fromPlatform: user.platform, toPlatform: 2 }) ?? null;
        if (user.verification_completed_at) {
          // A repeated choice (a retry, a second tab) is fine and records nothing.
          if (user.platform === platform) return null;
          if (!isTrade) throw new AppError('CONFLICT', KYC_TEXTS.accountTypeLocked);
          // As trading itself: a customer not live, or on hold, cannot start trading.
          if (!isLive(user)) throw new AppError('ACCOUNT_NOT_LIVE');
          await repository.updateUser(userId, trading, trx);
          return recordUpgrade();
        }
        if (!user.account_type) throw new AppError('CONFLICT', KYC_TEXTS.stepsIncomplete);
        const state = await verification.getVerificationState(userId, trx);
        if (!isEveryStepSubmitted(state)) throw new AppError('CONFLICT', KYC_TEXTS.stepsIncomplete);
        await repository.updateUser(
          userId,
          { ...(isTrade ? trading : { platform }), verification_completed_at: new Date() },
          trx,
        );
        wizard.isSubmitted = true;
        // Staff see every new trading account, whether chosen in the wizard or later.
        return isTrade && user.platform !== 2 ? recordUpgrade() : null;
      });
      if (upgradeId !== null) void deps.upgrades?.notifyStaff(upgradeId);
      // Onboarding: the customer, or the company with its directors and owners, is screened once submitted.
      if (wizard.isSubmitted) await deps.sanctions?.screenCustomer(userId, 'onboarding');
    },

    async confirmIco(userId: number, confirmed: boolean): Promise<void> {
      await repository.updateUser(userId, { ico_confirmed: confirmed ? 1 : 0 });
    },
  };
}
