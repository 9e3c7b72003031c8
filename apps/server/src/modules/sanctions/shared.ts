import { AppError, SANCTIONS_TEXTS } from '@florin/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/service.js';
import type { ComplianceService } from '../compliance/service.js';
import type { SanctionsRepository } from './repository.js';

/*
 * What the sanctions flows (list-import.ts, screening.ts, hits.ts, ...) and their repositories share:
 * the service's dependencies, the hold a match puts on an account, and the size of a bulk insert.
 * service.ts composes the flows into the module's one service.
 */

export type SanctionsServiceDeps = {
  db: Kysely<DB>;
  repository: SanctionsRepository;
  compliance: Pick<ComplianceService, 'putOnHold' | 'restateHold'>;
  log: FastifyBaseLogger;
};

/**
 * The account goes on hold unless it already is; true when this call put it there. `restate`: a hold
 * already there takes this reason (a confirmed match's, whatever the hold said before).
 */
export async function hold(
  deps: Pick<SanctionsServiceDeps, 'compliance'>,
  userId: number,
  actor: AuditActor = SYSTEM_ACTOR,
  reason: string = SANCTIONS_TEXTS.holdReason,
  restate = false,
): Promise<boolean> {
  try {
    await deps.compliance.putOnHold(actor, userId, reason);
    return true;
  } catch (error) {
    // The compliance service's only conflict here: the account is on hold already.
    if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    if (restate) await deps.compliance.restateHold(actor, userId, reason);
    return false;
  }
}

/** Rows a multi-row INSERT carries: well under PostgreSQL's 65,535 parameters at 15 columns. */
export const INSERT_CHUNK = 1_000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
