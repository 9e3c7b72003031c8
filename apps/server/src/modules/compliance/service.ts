import {
  AppError,
  COMPLIANCE_TEXTS,
  DOCUMENT_LABELS,
  DOCUMENT_REVIEW_TRANSITIONS,
  listComplianceQueue,
  sanctionsMatchBlocker,
  type AdminDocument,
  type ComplianceCase,
  type CustomerDetails,
  type Page,
  type QueueItem,
  type SanctionsMatch,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import { withTransaction } from '../../db/index.js';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/service.js';
import { isEveryStepSubmitted } from '../kyc/service.js';
import type { Notifier } from '../notifications/service.js';
import type { TradingVolumes } from '../trading-volume/service.js';
import { readPage } from '../../http/pages.js';
import type { ComplianceRepository, CustomerRow, DocumentRow } from './repository.js';
import {
  checkGoLive,
  currentDocuments,
  toAdminDocument,
  toCustomerDetails,
  toVerificationSteps,
  type KycReader,
} from './views.js';
export { cryptoWithdrawalsBlockedUntil, withdrawalsBlockedUntil } from './customer-service.js';

export type DocumentFile = { bytes: Buffer; contentType: string; filename: string };

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

type Decision<T> = { data: T; message: string };

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

/**
 * The compliance team's work: the queue of customers waiting for review, the
 * case page, each document's decision and the account's state (live, on
 * hold, source of wealth asked again). Each change is audited in its own
 * transaction and the customer is told once it has committed.
 */
export function createComplianceService(deps: ComplianceServiceDeps) {
  const { db, repository, notifier } = deps;
  const userUrl = `${deps.publicUrl}/user`;

  async function requireCustomer(userId: number): Promise<CustomerRow> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('NOT_FOUND');
    return customer;
  }

  /** Locks the customer inside `trx`; a customer that does not exist is 404 like any unknown path. */
  async function lockCustomer(trx: Kysely<DB>, userId: number): Promise<CustomerRow> {
    const customer = await repository.lockCustomer(trx, userId);
    if (!customer) throw new AppError('NOT_FOUND');
    return customer;
  }

  async function decide(
    actor: AuditActor,
    documentId: number,
    decision: { status: 'approved' | 'declined'; note: string | null },
  ): Promise<{ document: DocumentRow; customer: CustomerRow; changed: boolean }> {
    const id = String(documentId);
    const result = await db.transaction().execute(async (trx) => {
      // The customer first, then the document: every decision on one account locks in this order.
      const owner = await repository.findDocument(id, trx);
      if (!owner) throw new AppError('NOT_FOUND');
      const customer = await lockCustomer(trx, owner.user_id);
      await repository.lockDocuments(trx, owner.user_id, [id]);
      const before = await repository.findDocument(id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      if (before.status === 'superseded') throw new AppError('CONFLICT', COMPLIANCE_TEXTS.documentSuperseded);
      if (before.status === decision.status) {
        // A second click, a retry: the same decision again changes nothing. Another note would.
        if (decision.status === 'declined' && before.disapprove_note !== decision.note) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.documentAlreadyDeclined);
        }
        return { document: before, customer, changed: false };
      }
      if (!DOCUMENT_REVIEW_TRANSITIONS[before.status].includes(decision.status)) {
        throw new AppError('CONFLICT');
      }
      await repository.reviewDocument(trx, id, {
        status: decision.status,
        disapprove_note: decision.note,
        staffId: actor.staffId,
      });
      const after = await repository.findDocument(id, trx);
      if (!after) throw new AppError('NOT_FOUND');
      await recordAudit(trx, {
        ...actor,
        action: decision.status === 'approved' ? 'kyc.document_approved' : 'kyc.document_declined',
        targetType: 'kyc_document',
        targetId: id,
        before: {
          user_id: before.user_id,
          key: before.key,
          status: before.status,
          disapprove_note: before.disapprove_note,
        },
        after: {
          user_id: after.user_id,
          key: after.key,
          status: after.status,
          disapprove_note: after.disapprove_note,
        },
      });
      return { document: after, customer, changed: true };
    });
    return result;
  }

  /** A sanctions match that is not a false positive keeps the account held and not live. */
  async function refuseWhileMatched(userId: number, trx: Kysely<DB>): Promise<void> {
    const holding = await deps.sanctions.findHoldingHit(userId, trx);
    if (holding) throw new AppError('CONFLICT', sanctionsMatchBlocker(holding));
  }

  /** The label the customer knows the document by, with the director's name when it is theirs. */
  function documentName(document: DocumentRow): string {
    const label = DOCUMENT_LABELS[document.key];
    return document.director_name ? `${label} (${document.director_name})` : label;
  }

  async function changeAccount(
    actor: AuditActor,
    userId: number,
    change: (
      customer: CustomerRow,
      trx: Kysely<DB>,
    ) => Promise<{ action: string; before: Record<string, unknown>; after: Record<string, unknown> } | null>,
    executor: Kysely<DB> = db,
  ): Promise<{ customer: CustomerRow; changed: boolean }> {
    return withTransaction(executor, async (trx) => {
      const customer = await lockCustomer(trx, userId);
      const audit = await change(customer, trx);
      if (!audit) return { customer, changed: false };
      await recordAudit(trx, { ...actor, targetType: 'user', targetId: userId, ...audit });
      const updated = await repository.findCustomer(userId, trx);
      if (!updated) throw new AppError('NOT_FOUND');
      return { customer: updated, changed: true };
    });
  }

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
      const customer = await requireCustomer(userId);
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

    /** A document's file; each viewing is audited, since it shows the customer's identity papers. */
    async readDocumentFile(actor: AuditActor, documentId: number): Promise<DocumentFile> {
      const document = await repository.findDocument(String(documentId));
      if (!document) throw new AppError('NOT_FOUND');
      const extension = EXTENSIONS[document.content_type] ?? 'bin';
      const bytes = await deps.kyc.readStoredBytes(document.storage_key);
      await recordAudit(db, {
        ...actor,
        action: 'kyc.document_viewed',
        targetType: 'user',
        targetId: document.user_id,
        after: { document_id: Number(document.id), key: document.key },
      });
      return {
        bytes,
        contentType: document.content_type,
        filename: `${document.key}-${document.id}.${extension}`,
      };
    },

    async approveDocument(actor: AuditActor, documentId: number): Promise<Decision<AdminDocument>> {
      const { document, customer, changed } = await decide(actor, documentId, {
        status: 'approved',
        note: null,
      });
      if (changed) {
        await notifier.notify(customer, 'kyc_document_approved', {
          firstName: customer.first_name,
          document: documentName(document),
        });
      }
      return {
        data: toAdminDocument(document),
        message: changed ? COMPLIANCE_TEXTS.documentApproved : COMPLIANCE_TEXTS.documentAlreadyApproved,
      };
    },

    async declineDocument(
      actor: AuditActor,
      documentId: number,
      note: string,
    ): Promise<Decision<AdminDocument>> {
      const { document, customer, changed } = await decide(actor, documentId, { status: 'declined', note });
      if (changed) {
        await notifier.notify(customer, 'kyc_document_declined', {
          firstName: customer.first_name,
          document: documentName(document),
          note,
          url: userUrl,
        });
      }
      return { data: toAdminDocument(document), message: COMPLIANCE_TEXTS.documentDeclined };
    },

    async makeLive(actor: AuditActor, userId: number): Promise<Decision<CustomerDetails>> {
      // Nobody goes live unscreened: a missed onboarding screening happens now, before the customer's lock
      // is taken (a match puts the account on hold, which takes it too), and a match keeps them from going live.
      const { status, verification_completed_at: completedAt } = await requireCustomer(userId);
      if (status !== 1 && completedAt) await deps.sanctions.screenIfMissedSince(userId, completedAt);
      const { customer, changed } = await changeAccount(actor, userId, async (before, trx) => {
        if (before.status === 1) return null;
        // A match the screening wrote but failed to hold the account for must not go live unreviewed.
        await refuseWhileMatched(userId, trx);
        // A re-upload supersedes a document with an UPDATE: it waits until this decision commits.
        await repository.lockDocuments(trx, userId);
        // Read under the customer's lock, which a new address and a deleted director take too.
        const check = checkGoLive(
          before,
          await repository.listDocuments(userId, trx),
          await deps.kyc.hasEveryStepSubmitted(userId, trx),
          null, // refused above, with the match's own text
        );
        if (!check.allowed) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.cannotGoLive, undefined, {
            blockers: check.blockers,
          });
        }
        const liveSince = new Date();
        await repository.updateCustomer(trx, userId, { status: 1, live_since: liveSince });
        return {
          action: 'user.made_live',
          before: { status: before.status, live_since: before.live_since },
          after: { status: 1, live_since: liveSince },
        };
      });
      if (changed)
        await notifier.notify(customer, 'account_live', { firstName: customer.first_name, url: userUrl });
      return {
        data: toCustomerDetails(customer),
        message: changed ? COMPLIANCE_TEXTS.madeLive : COMPLIANCE_TEXTS.alreadyLive,
      };
    },

    async putOnHold(actor: AuditActor, userId: number, reason: string): Promise<Decision<CustomerDetails>> {
      const { customer } = await changeAccount(actor, userId, async (before, trx) => {
        if (before.block_status === ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.alreadyOnHold);
        await repository.updateCustomer(trx, userId, { block_status: ON_HOLD, block_reason: reason });
        return {
          action: 'user.put_on_hold',
          before: { block_status: before.block_status, block_reason: before.block_reason },
          after: { block_status: ON_HOLD, block_reason: reason },
        };
      });
      await notifier.notify(customer, 'account_on_hold', { firstName: customer.first_name });
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.putOnHold };
    },

    /**
     * The account stays on hold for a new reason (a possible sanctions match confirmed): staff reading the
     * customer's page see why it is held now; the former reason stays in the audit. Not a new hold, so the
     * customer is not told again. Given the caller's transaction, the new reason commits with the caller's
     * change or not at all.
     */
    async restateHold(
      actor: AuditActor,
      userId: number,
      reason: string,
      executor: Kysely<DB> = db,
    ): Promise<void> {
      await changeAccount(
        actor,
        userId,
        async (before, trx) => {
          if (before.block_status !== ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.notOnHold);
          if (before.block_reason === reason) return null;
          await repository.updateCustomer(trx, userId, { block_reason: reason });
          return {
            action: 'user.hold_reason_changed',
            before: { block_reason: before.block_reason },
            after: { block_reason: reason },
          };
        },
        executor,
      );
    },

    async liftHold(actor: AuditActor, userId: number, reason: string): Promise<Decision<CustomerDetails>> {
      const { customer } = await changeAccount(actor, userId, async (before, trx) => {
        if (before.block_status !== ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.notOnHold);
        // A match nobody has reviewed may be the listed person, whose money must stay frozen (OFSI): the
        // hit is marked a false positive first. Read under the customer's lock, after a screening has
        // committed its hit and before it holds the account, the hit is seen all the same.
        await refuseWhileMatched(userId, trx);
        await repository.updateCustomer(trx, userId, { block_status: 0, block_reason: null });
        return {
          action: 'user.hold_lifted',
          before: { block_status: before.block_status, block_reason: before.block_reason },
          after: { block_status: 0, block_reason: null, reason },
        };
      });
      await notifier.notify(customer, 'account_hold_lifted', { firstName: customer.first_name });
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.holdLifted };
    },

    async resetSourceOfWealth(
      actor: AuditActor,
      userId: number,
      reason: string,
    ): Promise<Decision<CustomerDetails>> {
      const { customer } = await changeAccount(actor, userId, async (before, trx) => {
        if (before.is_sow_reset === 1)
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.sourceOfWealthAlreadyReset);
        if (!(await repository.hasKycAnswers(trx, userId))) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.sourceOfWealthNotAnswered);
        }
        await repository.updateCustomer(trx, userId, { is_sow_reset: 1 });
        return {
          action: 'user.source_of_wealth_reset',
          before: { is_sow_reset: before.is_sow_reset },
          after: { is_sow_reset: 1, reason },
        };
      });
      await notifier.notify(customer, 'source_of_wealth_reset', {
        firstName: customer.first_name,
        url: userUrl,
      });
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.sourceOfWealthReset };
    },

    /**
     * Spec 000 section 9: a customer who said they would not trade more than £15,000 a year and now
     * has, this calendar year, is asked for their source of wealth, as a staff reset asks, by the
     * system. Run after trades commit and, for anyone those missed (the process stopped after a
     * commit, or the check failed), hourly by the leading instance: the state decides, not the
     * crossing. Without `userIds`, every customer who answered No.
     */
    async resetSourceOfWealthOverThreshold(userIds?: readonly number[]): Promise<void> {
      const over = await deps.tradingVolumes.listOverSourceOfWealthThreshold(
        await repository.listAnsweredBelowThreshold(db, userIds),
      );
      for (const userId of over) {
        const { customer, changed } = await changeAccount(SYSTEM_ACTOR, userId, async (before, trx) => {
          // Under the customer's lock: staff may have reset them, or they answered Yes, meanwhile.
          const still = await repository.listAnsweredBelowThreshold(trx, [userId]);
          if (before.is_sow_reset === 1 || still.length === 0) return null;
          await repository.updateCustomer(trx, userId, { is_sow_reset: 1 });
          return {
            action: 'user.source_of_wealth_reset',
            before: { is_sow_reset: before.is_sow_reset },
            after: { is_sow_reset: 1, reason: COMPLIANCE_TEXTS.sourceOfWealthThresholdReason },
          };
        });
        if (changed)
          await notifier.notify(customer, 'source_of_wealth_threshold', {
            firstName: customer.first_name,
            url: userUrl,
          });
      }
    },
  };
}

function yesNo(value: number | null): 0 | 1 | null {
  return value === null ? null : value === 1 ? 1 : 0;
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
