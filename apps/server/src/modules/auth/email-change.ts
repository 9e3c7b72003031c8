import { AppError, AUTH_TEXTS } from '@florin/contracts';
import { verifyPassword } from '../../security/passwords.js';
import { LIMITS } from '../../security/rate-limits.js';
import { sendEmailChangeConfirmation, validation, type AuthServiceDeps } from './shared.js';

/** A new e-mail address, confirmed from its own mailbox. */
export function createEmailChange(deps: AuthServiceDeps) {
  const { repository, notifier, limits, clock } = deps;

  return {
    async requestEmailChange(userId: number, input: { email: string; password: string }): Promise<void> {
      await limits.take(LIMITS.passwordChangeFailuresPerUser, String(userId));
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (!(await verifyPassword(user.password_hash, input.password))) {
        throw validation('password', AUTH_TEXTS.currentPasswordWrong);
      }
      await limits.clear(LIMITS.passwordChangeFailuresPerUser, String(userId));
      if (input.email === user.email.toLowerCase()) {
        throw validation('email', 'This is already your email address.');
      }
      await repository.updateUser(user.id, { pending_email: input.email });
      // A taken address gets no mail (confirming would fail), but the answer is the same.
      if (!(await repository.findUserByEmail(input.email)))
        await sendEmailChangeConfirmation(deps, user, input.email);
      await notifier.notify(user, 'email_change_requested', {
        firstName: user.first_name,
        newEmail: input.email,
      });
    },

    async confirmEmailChange(token: string): Promise<boolean> {
      const live = await repository.findLiveEmailToken(token, 'email_change');
      if (!live?.new_email || (await repository.findUserByEmail(live.new_email))) return false;
      const used = await repository.consumeEmailToken(token, 'email_change');
      const user = used ? await repository.findUserById(used.user_id) : undefined;
      if (!used?.new_email || !user) return false;
      const oldEmail = user.email;
      await repository.updateUser(user.id, {
        email: used.new_email,
        pending_email: null,
        email_verified_at: clock.now(),
        // Withdrawal codes now go to the new address: crypto withdrawals wait 24 hours (issue 8).
        security_changed_at: clock.now(),
      });
      await notifier.notify(
        user,
        'email_changed',
        { firstName: user.first_name, newEmail: used.new_email },
        { to: oldEmail },
      );
      return true;
    },
  };
}
