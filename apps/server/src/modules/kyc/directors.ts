import {
  AppError,
  KYC_TEXTS,
  isUndeclaredOwner,
  type Director,
  type DirectorBody,
  type DirectorUpdateBody,
} from '@florin/contracts';
import { hasCompanyDirector, isDirectorStatus } from '@florin/domain';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { KycRepository, KycUserRow } from './repository.js';
import {
  addressOf,
  invalid,
  isHandedIn,
  loadDirector,
  lockUser,
  refuseLockedChanges,
  requireCompany,
  requireUser,
  rescreen,
  type KycServiceDeps,
} from './shared.js';

/** "30", "30.5" or "30.25" percent as hundredths (3000, 3050, 3025): exact, no floating point. */
export function percentToHundredths(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

function directorValues(body: DirectorBody) {
  return {
    first_name: body.firstName,
    last_name: body.lastName,
    share_holding: body.shareHolding,
    address: body.address,
    city: body.city,
    zip: body.zip,
    country: body.country,
    phone: body.phone,
    birthdate: body.birthdate,
    status: body.status,
  };
}

/** The total held by every director and owner may not pass 100 %. */
async function checkShareHolding(
  repository: Pick<KycRepository, 'sumShareHoldingHundredths'>,
  trx: Transaction<DB>,
  companyId: number,
  directorId: number | null,
  shareHolding: string,
): Promise<void> {
  const others = await repository.sumShareHoldingHundredths(companyId, directorId, trx);
  if (others + percentToHundredths(shareHolding) > 100_00n) {
    throw invalid('shareHolding', KYC_TEXTS.shareHoldingTotal);
  }
}

/**
 * After hand-in, a change to a company's people may not leave it without a director when it has
 * one (DECISIONS 2026-11-29): the new director is added first. Before it the directors step
 * holds the wizard until there is one again. `status` null: the person is removed.
 */
async function refuseLosingLastDirector(
  repository: Pick<KycRepository, 'listDirectors'>,
  trx: Kysely<DB>,
  user: KycUserRow,
  companyId: number,
  change: { directorId: number; status: number | null },
): Promise<void> {
  if (!isHandedIn(user)) return;
  const people = await repository.listDirectors(companyId, trx);
  const after = people.flatMap((person) => {
    const status = person.id === change.directorId ? change.status : person.status;
    return status === null ? [] : [{ isDirector: isDirectorStatus(status) }];
  });
  const before = people.map((person) => ({ isDirector: isDirectorStatus(person.status) }));
  if (hasCompanyDirector(before) && !hasCompanyDirector(after))
    throw new AppError('CONFLICT', KYC_TEXTS.lastDirector);
}

/** The company's directors and owners. */
export function createDirectors(deps: Pick<KycServiceDeps, 'db' | 'repository' | 'sanctions'>) {
  const { db, repository } = deps;

  return {
    async createDirector(userId: number, body: DirectorBody): Promise<Director> {
      const user = await requireUser(deps, userId);
      const company = await requireCompany(deps, user);
      const directorId = await db.transaction().execute(async (trx) => {
        // One change to the company's directors at a time, so two additions cannot pass 100 % together.
        await repository.findCompany(userId, trx, { forUpdate: true });
        await checkShareHolding(repository, trx, company.id, null, body.shareHolding);
        return repository.insertDirector(company.id, directorValues(body), trx);
      });
      await rescreen(deps, user, 'directors_changed');
      return loadDirector(repository, company, directorId);
    },

    /**
     * Once the wizard is finished (staff check each director's ID against what was declared) or the
     * account is live, a director's name and date of birth change only through support, as the
     * customer's own date of birth does; a new address makes the director's proof of address
     * superseded, so a new one is uploaded and reviewed. Someone else in the role is a new director.
     * The spec's payload has no shareholding: without one the stored share is kept, and still
     * counts for the 25 % owner rule with the status sent.
     */
    async updateDirector(userId: number, directorId: number, body: DirectorUpdateBody): Promise<Director> {
      const company = await requireCompany(deps, await requireUser(deps, userId));
      const user = await db.transaction().execute(async (trx) => {
        // The customer, then the company: the order saveCompany locks them in.
        const user = await lockUser(repository, trx, userId);
        await repository.findCompany(userId, trx, { forUpdate: true });
        const existing = await repository.findDirector(company.id, directorId, trx);
        if (!existing) throw new AppError('NOT_FOUND');
        if (isHandedIn(user)) {
          refuseLockedChanges(KYC_TEXTS.directorLocked, {
            firstName: existing.first_name !== body.firstName,
            lastName: existing.last_name !== body.lastName,
            birthdate: existing.birthdate !== body.birthdate,
          });
        }
        const shareHolding = body.shareHolding ?? existing.share_holding;
        if (isUndeclaredOwner(shareHolding, body.status))
          throw invalid('shareHolding', KYC_TEXTS.ownerRequired);
        await refuseLosingLastDirector(repository, trx, user, company.id, {
          directorId,
          status: body.status,
        });
        await checkShareHolding(repository, trx, company.id, directorId, shareHolding);
        await repository.updateDirector(directorId, directorValues({ ...body, shareHolding }), trx);
        if (addressOf(existing) !== addressOf(body)) {
          await repository.supersedeDocuments(userId, directorId, ['proof_address'], trx);
        }
        return user;
      });
      await rescreen(deps, user, 'directors_changed');
      return loadDirector(repository, company, directorId);
    },

    /** Kept with their documents as a record of what was declared, but no longer counted. */
    async deleteDirector(userId: number, directorId: number): Promise<void> {
      const user = await requireUser(deps, userId);
      const company = await requireCompany(deps, user);
      await db.transaction().execute(async (trx) => {
        const locked = await lockUser(repository, trx, userId);
        // The company's people change one at a time (createDirector and updateDirector lock it too).
        await repository.findCompany(userId, trx, { forUpdate: true });
        if (!(await repository.findDirector(company.id, directorId, trx, { forUpdate: true }))) {
          throw new AppError('NOT_FOUND');
        }
        await refuseLosingLastDirector(repository, trx, locked, company.id, { directorId, status: null });
        await repository.softDeleteDirector(directorId, trx);
        await repository.supersedeDirectorDocuments(directorId, trx);
      });
    },
  };
}
