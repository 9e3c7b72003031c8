import { AppError, COMPLIANCE_TEXTS, type CustomerProfile } from '@florin/contracts';
import type { AuditActor } from '../audit/service.js';
import {
  changeCustomer,
  profileOf,
  requireCustomer,
  type Answer,
  type CustomerAdminDeps,
} from './customer-admin-shared.js';

/** Support's help with signing in: 2FA reset, e-mailed codes switched, sessions ended. */
export function createSignInHelp(deps: CustomerAdminDeps) {
  const { repository, notifier, clock } = deps;
  return {
    /**
     * After support has checked who is asking: no authenticator, no recovery
     * codes, no session left; withdrawals wait 24 hours from now.
     */
    async resetTwoFactor(
      actor: AuditActor,
      userId: number,
      reason: string,
    ): Promise<Answer<CustomerProfile>> {
      const { after } = await changeCustomer(deps, actor, userId, async (customer, trx) => {
        if (!customer.two_factor_enabled) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.twoFactorNotOn);
        const recoveryCodesLeft = await repository.countRecoveryCodesLeft(userId, trx);
        await repository.clearTwoFactor(trx, userId, clock.now());
        await repository.deleteRecoveryCodes(trx, userId);
        const signedOut = await repository.revokeSessions(trx, userId);
        const updated = await requireCustomer(deps, userId, trx);
        return {
          action: 'user.two_factor_reset',
          before: { two_factor_enabled: true, recovery_codes_left: recoveryCodesLeft },
          after: {
            two_factor_enabled: false,
            recovery_codes_left: 0,
            two_factor_reset_at: updated.two_factor_reset_at,
            sessions_signed_out: signedOut,
            reason,
          },
          mail: await notifier.queue(trx, updated, 'two_factor_reset_by_staff', {
            firstName: updated.first_name,
          }),
        };
      });
      return { data: await profileOf(deps, after), message: COMPLIANCE_TEXTS.twoFactorReset };
    },

    /**
     * Setting it to what it already is changes nothing and tells nobody. Turning e-mailed codes on
     * makes the mailbox a second factor, as a 2FA reset does; turning them off can leave a customer
     * without an authenticator with no second factor at all. Either way withdrawals wait 24 hours from it.
     */
    async setEmailCodes(
      actor: AuditActor,
      userId: number,
      input: { enabled: boolean; reason: string },
    ): Promise<Answer<CustomerProfile>> {
      const { after, changed } = await changeCustomer(deps, actor, userId, async (customer, trx) => {
        if (customer.platform_2fa_mobile === input.enabled) return null;
        const twoFactorResetAt = clock.now();
        await repository.updateCustomer(trx, userId, {
          platform_2fa_mobile: input.enabled,
          two_factor_reset_at: twoFactorResetAt,
        });
        return {
          action: 'user.email_codes_switched',
          before: { platform_2fa_mobile: customer.platform_2fa_mobile },
          after: {
            platform_2fa_mobile: input.enabled,
            two_factor_reset_at: twoFactorResetAt,
            reason: input.reason,
          },
          mail: await notifier.queue(trx, customer, 'email_codes_switched', {
            firstName: customer.first_name,
            enabled: input.enabled,
          }),
        };
      });
      const message = !changed
        ? COMPLIANCE_TEXTS.emailCodesUnchanged
        : input.enabled
          ? COMPLIANCE_TEXTS.emailCodesOn
          : COMPLIANCE_TEXTS.emailCodesOff;
      return { data: await profileOf(deps, after), message };
    },

    async signOut(actor: AuditActor, userId: number, reason: string): Promise<{ message: string }> {
      await changeCustomer(deps, actor, userId, async (customer, trx) => {
        const signedOut = await repository.revokeSessions(trx, userId);
        return {
          action: 'user.signed_out',
          before: { active_sessions: signedOut },
          after: { active_sessions: 0, reason },
          // Nothing ended, nothing to tell.
          mail:
            signedOut > 0
              ? await notifier.queue(trx, customer, 'signed_out_by_staff', { firstName: customer.first_name })
              : undefined,
        };
      });
      return { message: COMPLIANCE_TEXTS.signedOut };
    },
  };
}
