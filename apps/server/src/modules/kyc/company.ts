import { AppError, KYC_TEXTS, type Company, type CompanyBody } from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CompanyRow } from './repository.js';
import {
  addressOf,
  isHandedIn,
  isUniqueViolation,
  lockUser,
  refuseLockedChanges,
  rescreen,
  toDirector,
  type KycServiceDeps,
} from './shared.js';

async function loadCompany(
  deps: Pick<KycServiceDeps, 'repository'>,
  company: CompanyRow,
  executor: Kysely<DB>,
): Promise<Company> {
  const [directors, documents] = await Promise.all([
    deps.repository.listDirectors(company.id, executor),
    deps.repository.listCurrentDocuments(company.user_id, executor),
  ]);
  return {
    id: company.id,
    name: company.name,
    company_number: company.company_number,
    address: company.address,
    city: company.city,
    country: company.country,
    zip: company.zip,
    directors: directors.map((director) => toDirector(director, documents)),
  };
}

/** The Corporate customer's company. */
export function createCompany(deps: Pick<KycServiceDeps, 'db' | 'repository' | 'sanctions'>) {
  const { db, repository } = deps;

  return {
    /**
     * Creates or changes the Corporate customer's company. A registered
     * number belongs to one customer; a new registered address makes the
     * corporate proof of address superseded. Once the wizard is handed in
     * (staff check the certificate against them) or the account is live, the
     * company's name, number and country change only through support, as the
     * customer's date of birth and the directors' names do.
     */
    async saveCompany(userId: number, body: CompanyBody): Promise<Company> {
      try {
        const saved = await db.transaction().execute(async (trx) => {
          const user = await lockUser(repository, trx, userId);
          if (user.account_type !== 'Corporate') throw new AppError('NOT_FOUND');
          if (await repository.findCompanyWithNumber(body.country, body.company_number, userId, trx)) {
            throw new AppError('COMPANY_NUMBER_TAKEN', KYC_TEXTS.companyNumberTaken);
          }
          const existing = await repository.findCompany(userId, trx, { forUpdate: true });
          if (!existing) {
            const company = await loadCompany(deps, await repository.insertCompany(userId, body, trx), trx);
            return { company, user, isRenamed: false };
          }
          if (isHandedIn(user)) {
            refuseLockedChanges(KYC_TEXTS.companyLocked, {
              name: existing.name !== body.name,
              company_number: existing.company_number !== body.company_number,
              country: existing.country !== body.country,
            });
          }
          const updated = await repository.updateCompany(existing.id, body, trx);
          if (addressOf(existing) !== addressOf(body)) {
            await repository.supersedeDocuments(userId, null, ['cproof_address'], trx);
          }
          return {
            company: await loadCompany(deps, updated, trx),
            user,
            isRenamed: existing.name !== body.name,
          };
        });
        // The company's name is screened: a new one is screened again.
        if (saved.isRenamed) await rescreen(deps, saved.user, 'company_changed');
        return saved.company;
      } catch (error) {
        if (isUniqueViolation(error, 'companies_number')) {
          throw new AppError('COMPANY_NUMBER_TAKEN', KYC_TEXTS.companyNumberTaken);
        }
        throw error;
      }
    },
  };
}
