import {
  AppError,
  COMPLIANCE_TEXTS,
  searchCustomers,
  getCustomerLedger,
  type CustomerBalance,
  type CustomerProfile,
  type CustomerSession,
  type CustomerSummary,
  type EditIdentityBody,
  type LedgerLine,
  type Page,
  type SanctionsMatch,
  type ScreeningTrigger,
} from '@florin/contracts';
import { formatAmount, isAssetCode, type AssetCode } from '@florin/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { Ledger, UserKind } from '../../ledger/index.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { isEveryStepSubmitted } from '../kyc/service.js';
import type { Notifier } from '../notifications/service.js';
import { readPage } from '../../http/pages.js';
import type { ComplianceRepository, CustomerRow } from './repository.js';
import {
  checkGoLive,
  currentDocuments,
  toAdminDocument,
  toCustomerDetails,
  toVerificationSteps,
  type KycReader,
} from './views.js';

/** DECISIONS.md: after a staff-assisted 2FA reset, withdrawals wait this long. */
export const TWO_FACTOR_RESET_WITHDRAWAL_WAIT_HOURS = 24;

/** When withdrawals may start again after staff reset the customer's 2FA; null when they need not wait at `now`. */
export function withdrawalsBlockedUntil(user: { two_factor_reset_at: Date | null }, now: Date): Date | null {
  if (!user.two_factor_reset_at) return null;
  const until = new Date(
    user.two_factor_reset_at.getTime() + TWO_FACTOR_RESET_WITHDRAWAL_WAIT_HOURS * 3_600_000,
  );
  return until > now ? until : null;
}

/** Issue 8: after a password change or reset, or 2FA turned on or off, crypto withdrawals wait this long. */
export const SECURITY_CHANGE_CRYPTO_WAIT_HOURS = 24;

/**
 * When crypto withdrawals may start again: 24 hours after the later of a
 * staff 2FA reset and the customer's own security change (password changed
 * or reset, 2FA on or off); null when they need not wait.
 */
export function cryptoWithdrawalsBlockedUntil(
  user: { two_factor_reset_at: Date | null; security_changed_at: Date | null },
  now: Date,
): Date | null {
  const changes = [user.two_factor_reset_at, user.security_changed_at].filter(
    (moment): moment is Date => moment !== null,
  );
  if (changes.length === 0) return null;
  const latest = Math.max(...changes.map((moment) => moment.getTime()));
  const until = new Date(latest + SECURITY_CHANGE_CRYPTO_WAIT_HOURS * 3_600_000);
  return until > now ? until : null;
}

/**
 * For the withdrawal flows (issues 7 and 8): true while the customer's 2FA
 * was reset by staff less than 24 hours ago. Someone who took over the
 * mailbox and talked support into a reset cannot move the money out at once.
 */
export function isWithdrawalBlockedByTwoFactorReset(
  user: { two_factor_reset_at: Date | null },
  now: Date,
): boolean {
  return withdrawalsBlockedUntil(user, now) !== null;
}

type Answer<T> = { data: T; message: string };

/**
 * The customer view: support finds a customer and helps with sign-in and
 * identity details, finance reads balances and history, compliance sees it
 * all. Changes are audited (with the reason staff gave) and the customer is
 * told by e-mail once the change has committed.
 */
export function createCustomerAdminService(deps: {
  db: Kysely<DB>;
  repository: ComplianceRepository;
  ledger: Ledger;
  notifier: Notifier;
  kyc: Pick<KycReader, 'getVerificationState'>;
  sanctions: {
    /** Screens the customer against the sanctions list again after a change to the name or date of birth. */
    screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<unknown>;
    /** A hit that holds the account keeps the customer from going live. */
    findHoldingHit(userId: number): Promise<SanctionsMatch | null>;
  };
  /** What 2FA resets are stamped with and sessions and waits are judged by (the app's clock). */
  clock: Clock;
}) {
  const { db, repository, notifier, clock } = deps;

  async function requireCustomer(userId: number, executor: Kysely<DB> = db): Promise<CustomerRow> {
    const customer = await repository.findCustomer(userId, executor);
    if (!customer) throw new AppError('NOT_FOUND');
    return customer;
  }

  async function profileOf(customer: CustomerRow): Promise<CustomerProfile> {
    const [documents, recoveryCodesLeft, state, sanctionsMatch] = await Promise.all([
      repository.listDocuments(customer.id),
      repository.countRecoveryCodesLeft(customer.id),
      deps.kyc.getVerificationState(customer.id),
      deps.sanctions.findHoldingHit(customer.id),
    ]);
    return {
      ...toCustomerDetails(customer),
      pending_email: customer.pending_email,
      email_verified: customer.email_verified_at !== null,
      last_login_at: customer.last_login_at?.toISOString() ?? null,
      two_factor_enabled: customer.two_factor_enabled,
      recovery_codes_left: recoveryCodesLeft,
      email_codes: customer.platform_2fa_mobile,
      two_factor_reset_at: customer.two_factor_reset_at?.toISOString() ?? null,
      withdrawals_blocked_until: withdrawalsBlockedUntil(customer, clock.now())?.toISOString() ?? null,
      termination_notice_at: customer.termination_notice_at?.toISOString() ?? null,
      terminated_at: customer.terminated_at?.toISOString() ?? null,
      access_ends_at: customer.access_ends_at?.toISOString() ?? null,
      legal_hold_reason: customer.legal_hold_reason,
      steps: toVerificationSteps(state),
      documents: currentDocuments(documents).map(toAdminDocument),
      go_live: checkGoLive(customer, documents, isEveryStepSubmitted(state), sanctionsMatch),
    };
  }

  /** Locks the customer, applies the change and audits it, all in one transaction; the row after it. */
  async function change(
    actor: AuditActor,
    userId: number,
    apply: (
      customer: CustomerRow,
      trx: Kysely<DB>,
    ) => Promise<{ action: string; before: Record<string, unknown>; after: Record<string, unknown> } | null>,
  ): Promise<{ before: CustomerRow; after: CustomerRow; changed: boolean }> {
    return db.transaction().execute(async (trx) => {
      const before = await repository.lockCustomer(trx, userId);
      if (!before) throw new AppError('NOT_FOUND');
      const audit = await apply(before, trx);
      if (!audit) return { before, after: before, changed: false };
      await recordAudit(trx, { ...actor, targetType: 'user', targetId: userId, ...audit });
      return { before, after: await requireCustomer(userId, trx), changed: true };
    });
  }

  return {
    async search(query: string | undefined, page: number): Promise<Page<CustomerSummary>> {
      const q = query || undefined;
      return readPage({
        page,
        path: searchCustomers.path,
        filters: { q },
        count: () => repository.countCustomers(q),
        list: (limit, offset) => repository.searchCustomers(q, limit, offset),
        toItem: (row): CustomerSummary => ({ ...row, created_at: row.created_at.toISOString() }),
      });
    },

    async getProfile(userId: number): Promise<CustomerProfile> {
      return profileOf(await requireCustomer(userId));
    },

    /** Each of the customer's ledger accounts, read through the ledger; term deposits summed per asset. */
    async balances(userId: number): Promise<CustomerBalance[]> {
      await requireCustomer(userId);
      const accounts = await repository.listAccounts(userId);
      const totals = new Map<string, { asset: AssetCode; kind: string; posted: bigint; held: bigint }>();
      for (const account of accounts) {
        if (!isAssetCode(account.asset)) continue;
        const balance = await deps.ledger.getBalance(db, {
          asset: account.asset,
          kind: account.kind as UserKind,
          ownerUserId: String(userId),
          reference: account.reference || undefined,
        });
        const key = `${account.asset}:${account.kind}`;
        const total = totals.get(key) ?? { asset: account.asset, kind: account.kind, posted: 0n, held: 0n };
        total.posted += balance.posted;
        total.held += balance.held;
        totals.set(key, total);
      }
      return [...totals.values()].map((total) => ({
        asset: total.asset,
        kind: total.kind,
        posted: formatAmount(total.posted, total.asset),
        held: formatAmount(total.held, total.asset),
        available: formatAmount(total.posted - total.held, total.asset),
      }));
    },

    async ledgerHistory(userId: number, page: number): Promise<Page<LedgerLine>> {
      await requireCustomer(userId);
      return readPage({
        page,
        path: getCustomerLedger.path.replace('{userId}', String(userId)),
        count: () => repository.countLedgerEntries(userId),
        list: (limit, offset) => repository.listLedgerEntries(userId, limit, offset),
        toItem: (row): LedgerLine => {
          const asset = row.asset as AssetCode;
          return {
            entry_id: row.entry_id,
            journal_id: row.journal_id,
            kind: row.kind,
            reference: row.reference,
            asset,
            account_kind: row.account_kind,
            amount: formatAmount(BigInt(row.amount), asset),
            balance_after: row.balance_after === null ? null : formatAmount(BigInt(row.balance_after), asset),
            created_at: row.created_at.toISOString(),
          };
        },
      });
    },

    async sessions(userId: number): Promise<CustomerSession[]> {
      await requireCustomer(userId);
      const rows = await repository.listActiveSessions(userId, clock.now());
      return rows.map((row) => ({
        id: row.id,
        ip: row.ip,
        user_agent: row.user_agent,
        created_at: row.created_at.toISOString(),
        last_seen_at: row.last_seen_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      }));
    },

    /**
     * After support has checked who is asking: no authenticator, no recovery
     * codes, no session left; withdrawals wait 24 hours from now.
     */
    async resetTwoFactor(
      actor: AuditActor,
      userId: number,
      reason: string,
    ): Promise<Answer<CustomerProfile>> {
      const { after } = await change(actor, userId, async (customer, trx) => {
        if (!customer.two_factor_enabled) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.twoFactorNotOn);
        const recoveryCodesLeft = await repository.countRecoveryCodesLeft(userId, trx);
        await repository.clearTwoFactor(trx, userId, clock.now());
        await repository.deleteRecoveryCodes(trx, userId);
        const signedOut = await repository.revokeSessions(trx, userId);
        const updated = await requireCustomer(userId, trx);
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
        };
      });
      await notifier.notify(after, 'two_factor_reset_by_staff', { firstName: after.first_name });
      return { data: await profileOf(after), message: COMPLIANCE_TEXTS.twoFactorReset };
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
      const { after, changed } = await change(actor, userId, async (customer, trx) => {
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
        };
      });
      if (changed) {
        await notifier.notify(after, 'email_codes_switched', {
          firstName: after.first_name,
          enabled: input.enabled,
        });
      }
      const message = !changed
        ? COMPLIANCE_TEXTS.emailCodesUnchanged
        : input.enabled
          ? COMPLIANCE_TEXTS.emailCodesOn
          : COMPLIANCE_TEXTS.emailCodesOff;
      return { data: await profileOf(after), message };
    },

    /** DECISIONS.md: name and date of birth change only through staff, at the customer's request. */
    async editIdentity(
      actor: AuditActor,
      userId: number,
      input: EditIdentityBody,
    ): Promise<Answer<CustomerProfile>> {
      const { before, after } = await change(actor, userId, async (customer, trx) => {
        const values: { first_name?: string; last_name?: string; birthdate?: string } = {};
        if (input.first_name !== undefined && input.first_name !== customer.first_name) {
          values.first_name = input.first_name;
        }
        if (input.last_name !== undefined && input.last_name !== customer.last_name) {
          values.last_name = input.last_name;
        }
        if (input.birthdate !== undefined && input.birthdate !== customer.birthdate) {
          values.birthdate = input.birthdate;
        }
        const fields = Object.keys(values) as (keyof typeof values)[];
        if (fields.length === 0) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.detailsUnchanged);
        await repository.updateCustomer(trx, userId, values);
        return {
          action: 'user.identity_edited',
          before: Object.fromEntries(fields.map((field) => [field, customer[field]])),
          after: { ...values, reason: input.reason },
        };
      });
      const changes = [
        before.first_name !== after.first_name || before.last_name !== after.last_name ? 'name' : null,
        before.birthdate !== after.birthdate ? 'date of birth' : null,
      ].filter((item): item is string => item !== null);
      // The old name greets them: it is who they were when they asked.
      await notifier.notify(after, 'identity_details_changed', {
        firstName: before.first_name,
        changes: changes.join(' and '),
      });
      // A match puts the account on hold: the profile shows it as it is after the screening.
      await deps.sanctions.screenCustomer(userId, 'identity_edited');
      return {
        data: await profileOf(await requireCustomer(userId)),
        message: COMPLIANCE_TEXTS.detailsUpdated,
      };
    },

    async signOut(actor: AuditActor, userId: number, reason: string): Promise<{ message: string }> {
      let signedOut = 0;
      const { after } = await change(actor, userId, async (_customer, trx) => {
        signedOut = await repository.revokeSessions(trx, userId);
        return {
          action: 'user.signed_out',
          before: { active_sessions: signedOut },
          after: { active_sessions: 0, reason },
        };
      });
      // Nothing ended, nothing to tell.
      if (signedOut > 0) await notifier.notify(after, 'signed_out_by_staff', { firstName: after.first_name });
      return { message: COMPLIANCE_TEXTS.signedOut };
    },
  };
}

export type CustomerAdminService = ReturnType<typeof createCustomerAdminService>;
