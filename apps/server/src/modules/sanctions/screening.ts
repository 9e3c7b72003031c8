import {
  SANCTIONS_TEXTS,
  type ScreeningOutcome,
  type ScreeningTrigger,
  type RescreenSummary,
} from '@florin/contracts';
import type { SanctionsScreeningMatch } from '../../db/schema.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/service.js';
import {
  buildIndex,
  normaliseName,
  screenCompany,
  screenPerson,
  type NameMatch,
  type SanctionsIndex,
} from './matching.js';
import type { NewScreening, SubjectRow } from './repository.js';
import { hold, type SanctionsServiceDeps } from './shared.js';

/** What other modules call when a screened detail changes: the customer is screened again. */
export type SanctionsScreener = {
  /** null: no list is imported yet, so nothing was screened. */
  screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<ScreeningOutcome | null>;
};

type SubjectMatch = { subject: SubjectRow; match: NameMatch; key: string };

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
 * Screening customers, companies and their directors and owners against the active list: one customer
 * when a screened detail changes, everyone when a list is imported.
 */
export function createScreening(deps: SanctionsServiceDeps) {
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
          ? await hold(deps, userId, SYSTEM_ACTOR, SANCTIONS_TEXTS.confirmedHoldReason, true)
          : await hold(deps, userId);
    if (held) deps.log.warn({ userId, trigger }, 'sanctions screening put an account on hold');
    return { outcome, held };
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
    rescreenEveryone,
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
  };
}
