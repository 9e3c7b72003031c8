import {
  AppError,
  listSanctionsHits,
  SANCTIONS_HIT_TRANSITIONS,
  SANCTIONS_HITS_PAGE_SIZE,
  SANCTIONS_TEXTS,
  type Page,
  type SanctionsHit,
  type SanctionsHitStatus,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import { withTransaction } from '../../db/index.js';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { readPage } from '../../http/pages.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { HitRow } from './repository.js';
import { hold, type SanctionsServiceDeps } from './shared.js';

type Reviewed = { data: SanctionsHit; message: string };

function toHit(row: HitRow): SanctionsHit {
  return {
    id: row.id,
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: `${row.first_name} ${row.last_name}`,
    account_type: row.account_type,
    block_status: row.block_status,
    subject_kind: row.subject_kind,
    subject_name: row.subject_name,
    subject_birthdate: row.subject_birthdate,
    group_id: row.group_id,
    group_type: row.group_type,
    listed_name: row.listed_name,
    listed_dobs: row.listed_dobs,
    regime: row.regime,
    status: row.status,
    found_at: row.found_at.toISOString(),
    last_found_at: row.last_found_at.toISOString(),
    review_note: row.review_note,
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    reviewed_by: row.reviewed_by,
    still_listed: row.still_listed,
    delisted_note: row.delisted_note,
    delisted_at: row.delisted_at?.toISOString() ?? null,
    delisted_by: row.delisted_by,
  };
}

/** What a decision refused on a hit already decided says, by the hit's status. */
const ALREADY_DECIDED: Record<Exclude<SanctionsHitStatus, 'open'>, string> = {
  false_positive: SANCTIONS_TEXTS.alreadyFalsePositive,
  confirmed: SANCTIONS_TEXTS.alreadyConfirmed,
  delisted: SANCTIONS_TEXTS.alreadyDelisted,
};

/** Each decision is taken once: on an open hit, or (delisted) on a confirmed one. */
function refuseUnlessAllowed(status: SanctionsHitStatus, decision: SanctionsHitStatus): void {
  if (SANCTIONS_HIT_TRANSITIONS[status].includes(decision)) return;
  if (status === 'open' || (decision === 'delisted' && status !== 'delisted'))
    throw new AppError('CONFLICT', SANCTIONS_TEXTS.onlyConfirmedDelisted);
  throw new AppError('CONFLICT', ALREADY_DECIDED[status]);
}

/** The hits screenings found, and compliance's decision on each: a false positive, confirmed, or delisted. */
export function createHits(deps: SanctionsServiceDeps) {
  const { db, repository } = deps;

  /** Compliance's decision on an open hit, with its note, audited; in the caller's transaction when given one. */
  async function review(
    actor: AuditActor,
    hitId: number,
    decision: 'false_positive' | 'confirmed',
    note: string,
    executor: Kysely<DB> = db,
  ): Promise<void> {
    await withTransaction(executor, async (trx) => {
      const before = await repository.lockHit(trx, hitId);
      if (!before) throw new AppError('NOT_FOUND');
      refuseUnlessAllowed(before.status, decision);
      await repository.review(trx, hitId, decision, note, actor.staffId);
      await recordAudit(trx, {
        ...actor,
        action: decision === 'confirmed' ? 'sanctions.hit_confirmed' : 'sanctions.hit_false_positive',
        targetType: 'sanctions_hit',
        targetId: hitId,
        before: { user_id: before.user_id, status: before.status },
        after: { user_id: before.user_id, status: decision, note },
      });
    });
  }

  async function hitAnswer(hitId: number): Promise<SanctionsHit> {
    const row = await repository.findHit(hitId);
    if (!row) throw new AppError('NOT_FOUND');
    return toHit(row);
  }

  return {
    async listHits(query: { page: number; status: SanctionsHitStatus }): Promise<Page<SanctionsHit>> {
      const { status } = query;
      return readPage({
        page: query.page,
        path: listSanctionsHits.path,
        perPage: SANCTIONS_HITS_PAGE_SIZE,
        filters: { status },
        count: () => repository.countHits(status),
        list: (limit, offset) => repository.listHits(status, limit, offset),
        toItem: toHit,
      });
    },

    /** Recorded and audited; the hold stays until staff lift it on the customer's page. */
    async markFalsePositive(actor: AuditActor, hitId: number, note: string): Promise<Reviewed> {
      await review(actor, hitId, 'false_positive', note);
      return { data: await hitAnswer(hitId), message: SANCTIONS_TEXTS.falsePositiveMarked };
    },

    /**
     * Recorded and audited; the account is held (should a hold lifted before holds waited for review
     * have let it go) and the hold can no longer be lifted. Reporting to OFSI is compliance's, outside.
     * The hold comes first, by the officer: a failure after it leaves the hit open on a held account,
     * never a confirmed match on a free one. The hit and the hold's reason change in one transaction, so
     * the reason says "confirmed" exactly when the hit does (a retry of a half-done confirmation would
     * be refused as already confirmed, and could not mend the reason).
     */
    async confirmMatch(actor: AuditActor, hitId: number, note: string): Promise<Reviewed> {
      const hit = await repository.findHit(hitId);
      if (!hit) throw new AppError('NOT_FOUND');
      refuseUnlessAllowed(hit.status, 'confirmed');
      if (await hold(deps, hit.user_id, actor))
        deps.log.warn({ userId: hit.user_id, hitId }, 'a confirmed sanctions match put an account on hold');
      await db.transaction().execute(async (trx) => {
        await review(actor, hitId, 'confirmed', note, trx);
        await deps.compliance.restateHold(actor, hit.user_id, SANCTIONS_TEXTS.confirmedHoldReason, trx);
      });
      return { data: await hitAnswer(hitId), message: SANCTIONS_TEXTS.matchConfirmed };
    },

    /**
     * Recorded and audited once the active list no longer names the designation: the hit stops holding the
     * account, whose hold (its reason now the revocation) staff lift on the case once nothing else holds it.
     */
    async recordDelisted(actor: AuditActor, hitId: number, note: string): Promise<Reviewed> {
      await db.transaction().execute(async (trx) => {
        const before = await repository.lockHit(trx, hitId);
        if (!before) throw new AppError('NOT_FOUND');
        refuseUnlessAllowed(before.status, 'delisted');
        // Read under the hit's lock: a list imported since names it again, or a screening relists it after.
        if ((await repository.findHit(hitId, trx))?.still_listed)
          throw new AppError('CONFLICT', SANCTIONS_TEXTS.stillListed);
        await repository.delist(trx, hitId, note, actor.staffId);
        await recordAudit(trx, {
          ...actor,
          action: 'sanctions.hit_delisted',
          targetType: 'sanctions_hit',
          targetId: hitId,
          before: { user_id: before.user_id, status: before.status },
          after: { user_id: before.user_id, status: 'delisted', note },
        });
        // The hold's reason says what holds the account now: another confirmed match, one still to review,
        // or nothing. Read under the customer's lock, so two delistings of one customer see each other.
        const customer = await repository.lockCustomer(trx, before.user_id);
        const holding = await repository.findHoldingHit(before.user_id, trx);
        if (customer?.block_status === ON_HOLD && holding !== 'confirmed') {
          const reason = holding === 'open' ? SANCTIONS_TEXTS.holdReason : SANCTIONS_TEXTS.delistedHoldReason;
          await deps.compliance.restateHold(actor, before.user_id, reason, trx);
        }
      });
      return { data: await hitAnswer(hitId), message: SANCTIONS_TEXTS.delisted };
    },
  };
}
