import {
  AppError,
  type CustomerProfile,
  type SanctionsMatch,
  type ScreeningTrigger,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { isEveryStepSubmitted } from '../kyc/service.js';
import type { Notifier } from '../notifications/service.js';
import type { ComplianceRepository, CustomerRow } from './repository.js';
import type { AccountChange } from './shared.js';
import {
  checkGoLive,
  currentDocuments,
  toAdminDocument,
  toCustomerDetails,
  toVerificationSteps,
  type KycReader,
} from './views.js';
import { withdrawalsBlockedUntil } from './withdrawal-waits.js';

/*
 * What the customer view's flows (customer-reads.ts, sign-in-help.ts, identity-edits.ts) share:
 * their dependencies, the customer's profile and the audited change. customer-service.ts composes them.
 */

export type Answer<T> = { data: T; message: string };

export type CustomerAdminDeps = {
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
};

export async function requireCustomer(
  deps: CustomerAdminDeps,
  userId: number,
  executor: Kysely<DB> = deps.db,
): Promise<CustomerRow> {
  const customer = await deps.repository.findCustomer(userId, executor);
  if (!customer) throw new AppError('NOT_FOUND');
  return customer;
}

export async function profileOf(deps: CustomerAdminDeps, customer: CustomerRow): Promise<CustomerProfile> {
  const { repository, clock } = deps;
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

/**
 * Locks the customer, applies the change and audits it, all in one transaction; the row after it.
 * The change's mail, written in that transaction, is sent after the commit.
 */
export async function changeCustomer(
  deps: CustomerAdminDeps,
  actor: AuditActor,
  userId: number,
  apply: (customer: CustomerRow, trx: Kysely<DB>) => Promise<AccountChange | null>,
): Promise<{ before: CustomerRow; after: CustomerRow; changed: boolean }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const before = await deps.repository.lockCustomer(trx, userId);
    if (!before) throw new AppError('NOT_FOUND');
    const changed = await apply(before, trx);
    if (!changed) return { before, after: before, changed: false };
    const { mail, ...audit } = changed;
    await recordAudit(trx, { ...actor, targetType: 'user', targetId: userId, ...audit });
    return { before, after: await requireCustomer(deps, userId, trx), changed: true, mail };
  });
  await deps.notifier.deliver(result.mail);
  return { before: result.before, after: result.after, changed: result.changed };
}
