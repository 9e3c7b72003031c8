import {
  AppError,
  COMPLIANCE_TEXTS,
  DOCUMENT_LABELS,
  DOCUMENT_REVIEW_TRANSITIONS,
  type AdminDocument,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { QueuedMail } from '../notifications/service.js';
import type { CustomerRow, DocumentRow } from './repository.js';
import { lockCustomer, userUrlOf, type ComplianceServiceDeps, type Decision } from './shared.js';
import { toAdminDocument } from './views.js';

export type DocumentFile = { bytes: Buffer; contentType: string; filename: string };

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

/** The label the customer knows the document by, with the director's name when it is theirs. */
function documentName(document: DocumentRow): string {
  const label = DOCUMENT_LABELS[document.key];
  return document.director_name ? `${label} (${document.director_name})` : label;
}

/**
 * Each document's file and decision: approved or declined once, audited, and the customer's mail
 * written with the decision, sent after the commit.
 */
export function createDocumentReview(deps: ComplianceServiceDeps) {
  const { db, repository, notifier } = deps;
  const userUrl = userUrlOf(deps);

  async function decide(
    actor: AuditActor,
    documentId: number,
    decision: { status: 'approved' | 'declined'; note: string | null },
    queueMail: (
      trx: Kysely<DB>,
      document: DocumentRow,
      customer: CustomerRow,
    ) => Promise<QueuedMail | undefined>,
  ): Promise<{ document: DocumentRow; changed: boolean }> {
    const id = String(documentId);
    const result = await db.transaction().execute(async (trx) => {
      // The customer first, then the document: every decision on one account locks in this order.
      const owner = await repository.findDocument(id, trx);
      if (!owner) throw new AppError('NOT_FOUND');
      const customer = await lockCustomer(deps, trx, owner.user_id);
      await repository.lockDocuments(trx, owner.user_id, [id]);
      const before = await repository.findDocument(id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      if (before.status === 'superseded') throw new AppError('CONFLICT', COMPLIANCE_TEXTS.documentSuperseded);
      if (before.status === decision.status) {
        // A second click, a retry: the same decision again changes nothing. Another note would.
        if (decision.status === 'declined' && before.disapprove_note !== decision.note) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.documentAlreadyDeclined);
        }
        return { document: before, changed: false };
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
      return { document: after, changed: true, mail: await queueMail(trx, after, customer) };
    });
    await notifier.deliver(result.mail);
    return result;
  }

  return {
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
      const { document, changed } = await decide(
        actor,
        documentId,
        { status: 'approved', note: null },
        (trx, approved, customer) =>
          notifier.queue(trx, customer, 'kyc_document_approved', {
            firstName: customer.first_name,
            document: documentName(approved),
          }),
      );
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
      const { document } = await decide(
        actor,
        documentId,
        { status: 'declined', note },
        (trx, declined, customer) =>
          notifier.queue(trx, customer, 'kyc_document_declined', {
            firstName: customer.first_name,
            document: documentName(declined),
            note,
            url: userUrl,
          }),
      );
      return { data: toAdminDocument(document), message: COMPLIANCE_TEXTS.documentDeclined };
    },
  };
}
