import { AppError, AUTH_TEXTS } from '@florin/contracts';
import { verifyPassword } from '../../security/passwords.js';
import { LIMITS } from '../../security/rate-limits.js';
import { queueEmailChangeConfirmation, validation, type AuthServiceDeps } from './shared.js';

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
      const mails = await repository.transaction(async (trx) => {
        await repository.updateUser(user.id, { pending_email: input.email }, trx);
        // A taken address gets no mail (confirming would fail), but the answer is the same.
        const confirmation = (await repository.findUserByEmail(input.email, trx))
          ? undefined
          : await queueEmailChangeConfirmation(deps, trx, user, input.email);
        const notice = await notifier.queue(trx, user, 'email_change_requested', {
          firstName: user.first_name,
          newEmail: input.email,
        });
        return [confirmation, notice];
      });
      for (const mail of mails) await notifier.deliver(mail);
    },

    async confirmEmailChange(token: string): Promise<boolean> {
      const live = await repository.findLiveEmailToken(token, 'email_change');
      if (!live?.new_email || (await repository.findUserByEmail(live.new_email))) return false;
      const mail = await repository.transaction(async (trx) => {
        const used = await repository.consumeEmailToken(token, 'email_change', trx);
        const user = used ? await repository.findUserById(used.user_id, trx) : undefined;
        if (!used?.new_email || !user) return null;
        await repository.updateUser(
          user.id,
          {
            email: used.new_email,
            pending_email: null,
            email_verified_at: clock.now(),
            // Withdrawal codes now go to the new address: crypto withdrawals wait 24 hours (issue 8).
            security_changed_at: clock.now(),
          },
          trx,
        );
        // To the old address: its owner learns of the change even if it was not theirs.
        return notifier.queue(
          trx,
          user,
          'email_changed',
          { firstName: user.first_name, newEmail: used.new_email },
          { to: user.email },
        );
      });
      if (mail === null) return false;
      await notifier.deliver(mail);
      return true;
    },
  };
}
