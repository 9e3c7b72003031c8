import { AppError, EMAILED_CODE_MINUTES, FIAT_TEXTS, type Fiat2faPurpose } from '@florin/contracts';
import { requireCustomer, type FiatServiceDeps } from './shared.js';
import { FIAT_WITHDRAW_PURPOSE } from './withdrawals.js';

/** How the mailed code names what it confirms. */
const CODE_PURPOSE_PHRASES: Record<Fiat2faPurpose, string> = {
  'Fiat Withdraw(2fa)': 'a fiat withdrawal',
  'Crypto Withdraw(2fa)': 'a crypto withdrawal',
  'Referral Earning(2fa)': 'a claim of your referral earnings',
  'Auto Trade(2fa)': 'setting up an auto trade',
};

/** The one-time codes mailed to confirm a withdrawal, a referral claim or an auto trade. */
export function createWithdrawalCodes(
  deps: Pick<FiatServiceDeps, 'db' | 'repository' | 'notifier' | 'emailedCodes'>,
) {
  const { db, repository, notifier } = deps;

  return {
    /** Mails a one-time code to a customer who uses e-mailed codes; older open codes stop working. */
    async requestCode(userId: number, purpose: string): Promise<{ message: string }> {
      const customer = await requireCustomer(repository, userId);
      if (!customer.platform_2fa_mobile) throw new AppError('CONFLICT', FIAT_TEXTS.emailCodesOff);
      // The code and its mail commit together: no code that was never mailed, no mail of a code not kept.
      const mail = await db.transaction().execute(async (trx) => {
        const code = await deps.emailedCodes.issue(trx, userId, purpose);
        return notifier.queue(trx, customer, 'withdrawal_code', {
          firstName: customer.first_name,
          code,
          purpose: CODE_PURPOSE_PHRASES[purpose as Fiat2faPurpose],
          isWithdrawal: purpose === FIAT_WITHDRAW_PURPOSE || purpose === 'Crypto Withdraw(2fa)',
          minutes: EMAILED_CODE_MINUTES,
        });
      });
      await notifier.deliver(mail);
      return { message: FIAT_TEXTS.codeSent };
    },
  };
}
