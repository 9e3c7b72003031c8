import { AppError, type User, type VerificationState } from '@florin/contracts';
import type { UserRow } from './repository.js';
import type { AuthServiceDeps } from './shared.js';

/** The user without the verification part. */
export type AccountView = Omit<User, keyof VerificationState>;

export function toUserView(user: UserRow, recoveryCodesLeft: number): AccountView {
  return {
    id: user.id,
    user_identification: user.user_identification,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    pending_email: user.pending_email,
    email_verified: user.email_verified_at !== null,
    // The sign-in before this one: on the first there is none, and "now" would hide nothing.
    last_login: user.previous_login_at?.toISOString() ?? null,
    status: user.status,
    block_status: user.block_status,
    account_type: user.account_type,
    platform: user.platform,
    upgraded: user.upgraded,
    disable_florin_2fa: user.totp_secret_encrypted ? 1 : 0,
    platform_2fa_mobile: user.platform_2fa_mobile ? 1 : 0,
    recovery_codes_left: recoveryCodesLeft,
    referral_code: user.referral_code,
    is_referral_used: user.referred_by_user_id === null ? 0 : 1,
    login_notifications: user.login_notifications,
    loginout_notifications: user.loginout_notifications,
    marketing_notifications: user.marketing_notifications,
    trade_notifications: user.trade_notifications,
    termination_notice_at: user.termination_notice_at?.toISOString() ?? null,
    terminated_at: user.terminated_at?.toISOString() ?? null,
    access_ends_at: user.access_ends_at?.toISOString() ?? null,
  };
}

/** The signed-in user's account as the app shows it. */
export function createAccount(deps: AuthServiceDeps) {
  const { repository } = deps;

  return {
    async getUser(userId: number): Promise<User> {
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      const [recoveryCodesLeft, verification] = await Promise.all([
        repository.countRecoveryCodesLeft(user.id),
        deps.loadVerificationState(user.id),
      ]);
      return { ...toUserView(user, recoveryCodesLeft), ...verification };
    },
  };
}
