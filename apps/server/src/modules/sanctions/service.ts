import { createHash } from 'node:crypto';
import {
  AppError,
  listSanctionsHits,
  SANCTIONS_HIT_TRANSITIONS,
  SANCTIONS_HITS_PAGE_SIZE,
  SANCTIONS_TEXTS,
  type Page,
  type RescreenSummary,
  type SanctionsHit,
  type SanctionsHitStatus,
  type SanctionsList,
  type Screening,
  type ScreeningOutcome,
  type ScreeningTrigger,
} from '@florin/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { withTransaction } from '../../db/index.js';
import { ON_HOLD, type DB, type SanctionsScreeningMatch } from '../../db/schema.js';
import { readPage } from '../../http/pages.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/service.js';
import type { ComplianceService } from '../compliance/service.js';
import { parseConList } from './con-list.js';
import {
  buildIndex,
  normaliseName,
  screenCompany,
  screenPerson,
  type NameMatch,
  type SanctionsIndex,
} from './matching.js';
import type { HitRow, ListRow, NewScreening, SanctionsRepository, SubjectRow } from './repository.js';

/** What other modules call when a screened detail changes: the customer is screened again. */
export type SanctionsScreener = {
  /** null: no list is imported yet, so nothing was screened. */
  screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<ScreeningOutcome | null>;
};

export type UploadedList = { filename: string; bytes: Buffer };

type SubjectMatch = { subject: SubjectRow; match: NameMatch; key: string };
type Reviewed = { data: SanctionsHit; message: string };

function toList(row: ListRow): SanctionsList {
  return {
    id: row.id,
    file_name: row.file_name,
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    list_updated_on: row.list_updated_on,
    imported_at: row.imported_at.toISOString(),
    imported_by: row.imported_by,
    rows: row.row_count,
    designations: row.designation_count,
    individuals: row.individual_count,
    entities: row.entity_count,
    ships: row.ship_count,
  };
}

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

/** A file name safe to keep and show: no folders, no control characters, at most 200 characters. */
function cleanFileName(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim();
  return (base || 'ConList.csv').slice(-200);
}

/**
 * One hit per customer, screened subject and designation: the same subject
 * (by its normalised name and date of birth) matching the same designation
 * again is the same hit, so a false positive stays decided until either changes.
 */
function matchKey(subject: SubjectRow, groupId: string): string {
  const name = [...normaliseName(subject.name)].sort().join(' ');
  return [subject.kind, subject.directorId ?? '', name, subject.birthdate ?? '', groupId].join('|');
}

function matchesOf(index: SanctionsIndex, subjects: readonly SubjectRow[]): SubjectMatch[] {
  return subjects.flatMap((subject) => {
    const found =
      subject.kind === 'company'
        ? screenCompany(index, subject.name)
        : screenPerson(index, { name: subject.name, birthdate: subject.birthdate });
    return found.map((match) => ({ subject, match, key: matchKey(subject, match.designation.groupId) }));
  });
}

const subjectsOf = (subjects: readonly SubjectRow[]) =>
  subjects.map(({ kind, name, birthdate }) => ({ kind, name, birthdate }));

/**
 * Sanctions screening (issue 13): the consolidated list compliance imports,
 * the screening of customers, companies and their directors and owners
 * against it, and the hits compliance reviews. A screening with an unreviewed
 * match puts the account on hold through the compliance service, as staff
 * would; a false positive is recorded but never lifts a hold by itself.
 */
export function createSanctionsService(deps: {
  db: Kysely<DB>;
  repository: SanctionsRepository;
  compliance: Pick<ComplianceService, 'putOnHold' | 'restateHold'>;
  log: FastifyBaseLogger;
}) {
  const { db, repository } = deps;
  /** The active list's index, built once per list and instance (a list is a few thousand designations). */
  let cached: { listId: number; index: SanctionsIndex } | null = null;

  async function indexOf(listId: number): Promise<SanctionsIndex> {
    if (cached?.listId !== listId) {
      cached = { listId, index: buildIndex(await repository.listIndexEntries(listId)) };
    }
    return cached.index;
  }

  /**
   * The account goes on hold unless it already is; true when this call put it there. `restate`: a hold
   * already there takes this reason (a confirmed match's, whatever the hold said before).
   */
  async function hold(
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

  /**
   * Records one customer's screening with its matches (each a new or the
   * existing hit) in one transaction, then holds the account if any match
   * is not yet reviewed or is confirmed; a confirmed one also restates the
   * hold's reason, so a reason left stale by a failure is mended by the next
   * screening.
   */
  async function recordMatches(
    userId: number,
    listId: number,
    trigger: ScreeningTrigger,
    subjects: readonly SubjectRow[],
    found: readonly SubjectMatch[],
  ): Promise<{ outcome: ScreeningOutcome; held: boolean }> {
    let confirmed = false;
    const outcome = await db.transaction().execute(async (trx): Promise<ScreeningOutcome> => {
      const known = await repository.findHitStatuses(
        trx,
        userId,
        found.map((item) => item.key),
      );
      const namedAgain = await repository.namedByActiveList(
        trx,
        found
          .filter((item) => known.get(item.key) === 'delisted')
          .map((item) => item.match.designation.groupId),
      );
      // A false positive never holds the account; a delisted match only once the active list names it again.
      const holds = ({ key, match }: SubjectMatch) => {
        const status = known.get(key);
        if (status === 'false_positive') return false;
        return status !== 'delisted' || namedAgain.has(match.designation.groupId);
      };
      const isOpen = found.some(holds);
      const result: ScreeningOutcome = found.length === 0 ? 'clear' : isOpen ? 'hit' : 'reviewed';
      const screeningId = await repository.insertScreening(trx, {
        user_id: userId,
        list_id: listId,
        trigger,
        outcome: result,
        subjects: subjectsOf(subjects),
      });
      const matches: SanctionsScreeningMatch[] = [];
      for (const { subject, match, key } of found) {
        const { designation } = match;
        const hit = await repository.upsertHit(trx, {
          user_id: userId,
          match_key: key,
          subject_kind: subject.kind,
          director_id: subject.directorId,
          subject_name: subject.name,
          subject_birthdate: subject.birthdate,
          list_id: listId,
          group_id: designation.groupId,
          group_type: designation.groupType === 'Entity' ? 'Entity' : 'Individual',
          listed_name: match.listedName,
          listed_dobs: designation.dobsAsListed.length > 0 ? designation.dobsAsListed.join('; ') : null,
          regime: designation.regime,
          first_screening_id: screeningId,
          last_screening_id: screeningId,
        });
        if (await repository.relistHit(trx, hit.id)) {
          hit.status = 'confirmed';
          await recordAudit(trx, {
            ...SYSTEM_ACTOR,
            action: 'sanctions.hit_relisted',
            targetType: 'sanctions_hit',
            targetId: hit.id,
            before: { user_id: userId, status: 'delisted' },
            after: { user_id: userId, status: 'confirmed', group_id: designation.groupId, trigger },
          });
        }
        if (hit.status === 'confirmed') confirmed = true;
        matches.push({
          hit_id: hit.id,
          subject_kind: subject.kind,
          subject_name: subject.name,
          group_id: designation.groupId,
          listed_name: match.listedName,
          status: hit.status,
        });
      }
      if (matches.length > 0) await repository.setScreeningMatches(trx, screeningId, matches);
      return result;
    });
    const held =
      outcome !== 'hit'
        ? false
        : confirmed
          ? await hold(userId, SYSTEM_ACTOR, SANCTIONS_TEXTS.confirmedHoldReason, true)
          : await hold(userId);
    if (held) deps.log.warn({ userId, trigger }, 'sanctions screening put an account on hold');
    return { outcome, held };
  }

  /** Each decision is taken once: on an open hit, or (delisted) on a confirmed one. */
  function refuseUnlessAllowed(status: SanctionsHitStatus, decision: SanctionsHitStatus): void {
    if (SANCTIONS_HIT_TRANSITIONS[status].includes(decision)) return;
    if (status === 'open' || (decision === 'delisted' && status !== 'delisted'))
      throw new AppError('CONFLICT', SANCTIONS_TEXTS.onlyConfirmedDelisted);
    throw new AppError('CONFLICT', ALREADY_DECIDED[status]);
  }

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

  /** Every customer against the list just imported: clear ones written in bulk, matches one by one. */
  async function rescreenEveryone(listId: number): Promise<RescreenSummary> {
    const index = await indexOf(listId);
    const byUser = new Map<number, SubjectRow[]>();
    for (const subject of await repository.listSubjects()) {
      const own = byUser.get(subject.userId) ?? [];
      own.push(subject);
      byUser.set(subject.userId, own);
    }
    const clear: NewScreening[] = [];
    const summary: RescreenSummary = { customers: byUser.size, hits: 0, held: 0 };
    for (const [userId, subjects] of byUser) {
      const found = matchesOf(index, subjects);
      if (found.length === 0) {
        clear.push({
          user_id: userId,
          list_id: listId,
          trigger: 'list_imported',
          outcome: 'clear',
          subjects: subjectsOf(subjects),
        });
        continue;
      }
      const { outcome, held } = await recordMatches(userId, listId, 'list_imported', subjects, found);
      if (outcome === 'hit') summary.hits += 1;
      if (held) summary.held += 1;
    }
    await db.transaction().execute((trx) => repository.insertScreenings(trx, clear));
    return summary;
  }

  /** Screens one customer (their name, company and directors) against the active list. */
  async function screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<ScreeningOutcome | null> {
    const active = await repository.findActiveList();
    if (!active) return null;
    const subjects = await repository.listSubjects(userId);
    if (subjects.length === 0) return null;
    const found = matchesOf(await indexOf(active.id), subjects);
    const { outcome } = await recordMatches(userId, active.id, trigger, subjects, found);
    return outcome;
  }

  return {
    async getActiveList(): Promise<SanctionsList | null> {
      const row = await repository.findActiveList();
      return row ? toList(row) : null;
    },

    /**
     * Replaces the active list with the file, whole or not at all: a file
     * that is not the consolidated list changes nothing. Then every customer
     * is screened against the new list.
     */
    async importList(
      actor: AuditActor,
      file: UploadedList,
    ): Promise<{ data: { list: SanctionsList; screening: RescreenSummary }; message: string }> {
      if (actor.staffId === null) throw new Error('a sanctions list is imported by a staff member');
      const staffId = actor.staffId;
      const parsed = parseConList(file.bytes);
      if (!parsed.ok) {
        throw new AppError('VALIDATION_FAILED', parsed.errors[0], { file: parsed.errors });
      }
      const { list } = parsed;
      const sha256 = createHash('sha256').update(file.bytes).digest('hex');
      const listId = await db.transaction().execute(async (trx) => {
        await repository.lockLists(trx);
        const before = await repository.findActiveList(trx);
        await repository.replaceActiveList(trx);
        const id = await repository.insertList(trx, {
          file_name: cleanFileName(file.filename),
          sha256,
          size_bytes: file.bytes.length,
          list_updated_on: list.updatedOn,
          row_count: list.counts.rows,
          designation_count: list.counts.designations,
          individual_count: list.counts.individuals,
          entity_count: list.counts.entities,
          ship_count: list.counts.ships,
          imported_by_staff_id: staffId,
        });
        await repository.insertEntries(trx, id, list.entries);
        const facts = (row: { sha256: string; list_updated_on: string; rows: number }) => ({
          sha256: row.sha256,
          list_updated_on: row.list_updated_on,
          rows: row.rows,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'sanctions.list_imported',
          targetType: 'sanctions_list',
          targetId: id,
          before: before ? { id: before.id, ...facts({ ...before, rows: before.row_count }) } : null,
          after: {
            id,
            file_name: cleanFileName(file.filename),
            designations: list.counts.designations,
            ...facts({ sha256, list_updated_on: list.updatedOn, rows: list.counts.rows }),
          },
        });
        return id;
      });
      const screening = await rescreenEveryone(listId);
      const row = await repository.findList(listId);
      if (!row) throw new Error(`sanctions list ${listId} is gone after its import`);
      return { data: { list: toList(row), screening }, message: SANCTIONS_TEXTS.imported };
    },

    screenCustomer,

    /**
     * The onboarding screening, when none has happened since the customer finished verification: the
     * wizard screens after its own commit, so a failure there (the database gone for a moment, the
     * process stopped) left a customer unscreened, and making them live must not.
     */
    async screenIfMissedSince(userId: number, completedAt: Date): Promise<void> {
      if (await repository.hasScreeningSince(userId, completedAt)) return;
      await screenCustomer(userId, 'onboarding');
    },

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
      if (await hold(hit.user_id, actor))
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

    /** The customer's screenings, newest first: evidence of when they were screened, against which list. */
    async listScreenings(userId: number): Promise<Screening[]> {
      if (!(await repository.customerExists(userId))) throw new AppError('NOT_FOUND');
      const rows = await repository.listScreenings(userId);
      return rows.map((row) => ({
        id: Number(row.id), // a row id, far below 2^53
        user_id: row.user_id,
        list_id: row.list_id,
        list_updated_on: row.list_updated_on,
        list_sha256: row.list_sha256,
        trigger: row.trigger,
        outcome: row.outcome,
        subjects: row.subjects,
        matches: row.matches,
        screened_at: row.screened_at.toISOString(),
      }));
    },
  };
}

export type SanctionsService = ReturnType<typeof createSanctionsService>;
