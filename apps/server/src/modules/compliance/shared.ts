import { AppError, sanctionsMatchBlocker, type SanctionsMatch } from '@florin/contracts';
import type { Kysely } from 'kysely';
import { withTransaction } from '../../db/index.js';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { Notifier, QueuedMail } from '../notifications/service.js';
import type { TradingVolumes } from '../trading-volume/service.js';
import type { ComplianceRepository, CustomerRow } from './repository.js';
import type { KycReader } from './views.js';

/*
 * What the compliance flows (cases.ts, document-review.ts, account-state.ts, source-of-wealth.ts)
 * share: their dependencies and the customer lock every change to an account takes. service.ts
 * composes the flows into the module's one service.
 */

export type Decision<T> = { data: T; message: string };

export type ComplianceServiceDeps = {
  db: Kysely<DB>;
  repository: ComplianceRepository;
  notifier: Notifier;
  kyc: KycReader;
  /** What the sanctions module answers here: a hold waits for its hits' review, going live for a screening. */
  sanctions: {
    findHoldingHit(userId: number, executor: Kysely<DB>): Promise<SanctionsMatch | null>;
    screenIfMissedSince(userId: number, completedAt: Date): Promise<void>;
  };
  /** Who has traded more than £15,000 this calendar year. */
  tradingVolumes: Pick<TradingVolumes, 'listOverSourceOfWealthThreshold'>;
  publicUrl: string;
};

/** Where the e-mails send the customer: their own pages. */
export function userUrlOf(deps: Pick<ComplianceServiceDeps, 'publicUrl'>): string {
  return `${deps.publicUrl}/user`;
}

export async function requireCustomer(deps: ComplianceServiceDeps, userId: number): Promise<CustomerRow> {
  const customer = await deps.repository.findCustomer(userId);
  if (!customer) throw new AppError('NOT_FOUND');
  return customer;
}

/** Locks the customer inside `trx`; a customer that does not exist is 404 like any unknown path. */
export async function lockCustomer(
  deps: ComplianceServiceDeps,
  trx: Kysely<DB>,
  userId: number,
): Promise<CustomerRow> {
  const customer = await deps.repository.lockCustomer(trx, userId);
  if (!customer) throw new AppError('NOT_FOUND');
  return customer;
}

/** A sanctions match that is not a false positive keeps the account held and not live. */
export async function refuseWhileMatched(
  deps: ComplianceServiceDeps,
  userId: number,
  trx: Kysely<DB>,
): Promise<void> {
  const holding = await deps.sanctions.findHoldingHit(userId, trx);
  if (holding) throw new AppError('CONFLICT', sanctionsMatchBlocker(holding));
}

/**
 * What a change to an account records: its audit entry, and the customer's mail about it when there is
 * one, written in the change's transaction (notifier.queue) for the caller to deliver after the commit.
 */
export type AccountChange = {
  action: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  mail?: QueuedMail;
};

/** Locks the customer, applies the change and audits it in one transaction (the caller's when given). */
export async function changeAccount(
  deps: ComplianceServiceDeps,
  actor: AuditActor,
  userId: number,
  change: (customer: CustomerRow, trx: Kysely<DB>) => Promise<AccountChange | null>,
  executor: Kysely<DB> = deps.db,
): Promise<{ customer: CustomerRow; changed: boolean; mail?: QueuedMail }> {
  return withTransaction(executor, async (trx) => {
    const customer = await lockCustomer(deps, trx, userId);
    const changed = await change(customer, trx);
    if (!changed) return { customer, changed: false };
    const { mail, ...audit } = changed;
    await recordAudit(trx, { ...actor, targetType: 'user', targetId: userId, ...audit });
    const updated = await deps.repository.findCustomer(userId, trx);
    if (!updated) throw new AppError('NOT_FOUND');
    return { customer: updated, changed: true, mail };
  });
}
