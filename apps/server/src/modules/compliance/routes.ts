import type { FastifyInstance } from 'fastify';
import {
  approveDocument,
  COMPLIANCE_ROLES,
  CUSTOMER_ACTION_ROLES,
  CUSTOMER_READ_ROLES,
  declineDocument,
  editCustomerIdentity,
  getAdminDocumentFile,
  getComplianceCase,
  getCustomer,
  getCustomerBalances,
  getCustomerLedger,
  getCustomerSessions,
  liftAccountHold,
  listComplianceQueue,
  makeAccountLive,
  putAccountOnHold,
  resetCustomerTwoFactor,
  resetSourceOfWealth,
  searchCustomers,
  setCustomerEmailCodes,
  signOutCustomer,
} from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { CustomerAdminService } from './customer-service.js';
import type { ComplianceService } from './service.js';

/** Types a browser may show in the page; anything else would only ever be downloaded. */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'application/pdf']);

const compliance = { staff: COMPLIANCE_ROLES };
const customerReaders = { staff: CUSTOMER_READ_ROLES };
const customerActors = { staff: CUSTOMER_ACTION_ROLES };

export function registerComplianceRoutes(
  app: FastifyInstance,
  deps: { compliance: ComplianceService; customers: CustomerAdminService },
): void {
  const { customers } = deps;

  // ---- compliance: queue, case, documents, the account's state ----

  registerRoute(app, listComplianceQueue, {
    access: compliance,
    handler: async (request) => deps.compliance.listQueue(request.query.page),
  });

  registerRoute(app, getComplianceCase, {
    access: compliance,
    handler: async (request) => ({ data: await deps.compliance.getCase(request.params.userId) }),
  });

  registerRoute(app, getAdminDocumentFile, {
    access: compliance,
    handler: async (request, reply) => {
      const file = await deps.compliance.readDocumentFile(auditActorOf(request), request.params.id);
      const disposition = INLINE_TYPES.has(file.contentType) ? 'inline' : 'attachment';
      // Viewed in the page, never run: no scripts, no plugins, no same-origin rights, no cached copy.
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', `${disposition}; filename="${file.filename}"`)
        .header('content-security-policy', "sandbox; frame-ancestors 'none'")
        .header('x-content-type-options', 'nosniff');
      return file.bytes;
    },
  });

  registerRoute(app, approveDocument, {
    access: compliance,
    handler: async (request) => deps.compliance.approveDocument(auditActorOf(request), request.params.id),
  });

  registerRoute(app, declineDocument, {
    access: compliance,
    handler: async (request) =>
      deps.compliance.declineDocument(auditActorOf(request), request.params.id, request.body.note),
  });

  registerRoute(app, makeAccountLive, {
    access: compliance,
    handler: async (request) => deps.compliance.makeLive(auditActorOf(request), request.params.userId),
  });

  registerRoute(app, putAccountOnHold, {
    access: compliance,
    handler: async (request) =>
      deps.compliance.putOnHold(auditActorOf(request), request.params.userId, request.body.reason),
  });

  registerRoute(app, liftAccountHold, {
    access: compliance,
    handler: async (request) =>
      deps.compliance.liftHold(auditActorOf(request), request.params.userId, request.body.reason),
  });

  registerRoute(app, resetSourceOfWealth, {
    access: compliance,
    handler: async (request) =>
      deps.compliance.resetSourceOfWealth(auditActorOf(request), request.params.userId, request.body.reason),
  });

  // ---- customer view: everyone reads, finance only reads ----

  registerRoute(app, searchCustomers, {
    access: customerReaders,
    handler: async (request) => customers.search(request.query.q, request.query.page),
  });

  registerRoute(app, getCustomer, {
    access: customerReaders,
    handler: async (request) => ({ data: await customers.getProfile(request.params.userId) }),
  });

  registerRoute(app, getCustomerBalances, {
    access: customerReaders,
    handler: async (request) => ({ data: await customers.balances(request.params.userId) }),
  });

  registerRoute(app, getCustomerLedger, {
    access: customerReaders,
    handler: async (request) => customers.ledgerHistory(request.params.userId, request.query.page),
  });

  registerRoute(app, getCustomerSessions, {
    access: customerReaders,
    handler: async (request) => ({ data: await customers.sessions(request.params.userId) }),
  });

  registerRoute(app, resetCustomerTwoFactor, {
    access: customerActors,
    handler: async (request) =>
      customers.resetTwoFactor(auditActorOf(request), request.params.userId, request.body.reason),
  });

  registerRoute(app, setCustomerEmailCodes, {
    access: customerActors,
    handler: async (request) =>
      customers.setEmailCodes(auditActorOf(request), request.params.userId, request.body),
  });

  registerRoute(app, editCustomerIdentity, {
    access: customerActors,
    handler: async (request) =>
      customers.editIdentity(auditActorOf(request), request.params.userId, request.body),
  });

  registerRoute(app, signOutCustomer, {
    access: customerActors,
    handler: async (request) =>
      customers.signOut(auditActorOf(request), request.params.userId, request.body.reason),
  });
}
