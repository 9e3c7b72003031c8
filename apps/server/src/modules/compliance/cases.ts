import { listComplianceQueue, type ComplianceCase, type Page, type QueueItem } from '@florin/contracts';
import { isEveryStepSubmitted } from '../kyc/service.js';
import { readPage } from '../../http/pages.js';
import { requireCustomer, type ComplianceServiceDeps } from './shared.js';
import {
  checkGoLive,
  currentDocuments,
  toAdminDocument,
  toCustomerDetails,
  toVerificationSteps,
} from './views.js';

/** The queue of customers waiting for review and the case page of one of them. */
export function createCases(deps: ComplianceServiceDeps) {
  const { db, repository } = deps;
  return {
    async listQueue(page: number): Promise<Page<QueueItem>> {
      return readPage({
        page,
        path: listComplianceQueue.path,
        count: () => repository.countQueue(),
        list: (limit, offset) => repository.listQueue(limit, offset),
        toItem: (row): QueueItem => ({
          id: row.id,
          user_identification: row.user_identification,
          first_name: row.first_name,
          last_name: row.last_name,
          email: row.email,
          account_type: row.account_type,
          status: row.status,
          block_status: row.block_status,
          created_at: row.created_at.toISOString(),
          stage: row.pending_documents > 0 ? 'documents' : 'ready',
          waiting_since: row.waiting_since.toISOString(),
          pending_documents: row.pending_documents,
          approved_documents: row.approved_documents,
          declined_documents: row.declined_documents,
          verification_completed: row.verification_completed_at !== null,
        }),
      });
    },

    async getCase(userId: number): Promise<ComplianceCase> {
      const customer = await requireCustomer(deps, userId);
      const [documents, kyc, company, state, sanctionsMatch] = await Promise.all([
        repository.listDocuments(userId),
        repository.findKycAnswers(userId),
        repository.findCompany(userId),
        deps.kyc.getVerificationState(userId),
        deps.sanctions.findHoldingHit(userId, db),
      ]);
      const directors = company ? await repository.listDirectors(company.id) : [];
      return {
        customer: toCustomerDetails(customer),
        sanctions_match: sanctionsMatch,
        steps: toVerificationSteps(state),
        kyc: kyc
          ? {
              ...kyc,
              trades_over_threshold: kyc.trades_over_threshold === 1 ? 1 : 0,
              aware_of_risk: kyc.aware_of_risk === 1 ? 1 : 0,
              offense: yesNo(kyc.offense),
              criminal: yesNo(kyc.criminal),
              caution: yesNo(kyc.caution),
              ccj: yesNo(kyc.ccj),
            }
          : null,
        company: company
          ? {
              name: company.name,
              company_number: company.company_number,
              address: company.address,
              city: company.city,
              country: company.country,
              zip: company.zip,
              directors: directors.map((director) => ({
                id: director.id,
                first_name: director.first_name,
                last_name: director.last_name,
                share_holding: director.share_holding,
                // status 1 owner only, 2 director only, 3 both (spec 000 §9)
                owner: director.status !== 2,
                director: director.status !== 1,
                address: director.address,
                city: director.city,
                zip: director.zip,
                country: director.country,
                phone: director.phone,
                birthdate: director.birthdate,
              })),
            }
          : null,
        documents: currentDocuments(documents).map(toAdminDocument),
        replaced_documents: documents
          .filter((row) => row.status === 'superseded')
          .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
          .map(toAdminDocument),
        go_live: checkGoLive(customer, documents, isEveryStepSubmitted(state), sanctionsMatch),
      };
    },
  };
}

function yesNo(value: number | null): 0 | 1 | null {
  return value === null ? null : value === 1 ? 1 : 0;
}
