import type { FastifyInstance } from 'fastify';
import {
  categoriseInvestor,
  COMPLIANCE_ROLES,
  confirmFirstInvestment,
  getInvestorEvidence,
  getInvestorJourney,
  exportInvestorEvidence,
  recordWarningShown,
  startAssessment,
  submitAssessment,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { InvestorService } from './service.js';

const compliance = { staff: COMPLIANCE_ROLES };

/**
 * The customer's own first-investment journey, and compliance's evidence
 * record of any customer's (read, and exported as one JSON file).
 */
export function registerInvestorRoutes(app: FastifyInstance, deps: { investor: InvestorService }): void {
  const { investor } = deps;

  registerRoute(app, getInvestorJourney, {
    access: 'customer',
    handler: async (request) => investor.journey(requireCustomer(request).userId),
  });

  registerRoute(app, categoriseInvestor, {
    access: 'customer',
    handler: async (request) =>
      investor.categorise(requireCustomer(request).userId, request.body, request.ip),
  });

  registerRoute(app, startAssessment, {
    access: 'customer',
    handler: async (request) => investor.startAssessment(requireCustomer(request).userId, request.ip),
  });

  registerRoute(app, submitAssessment, {
    access: 'customer',
    handler: async (request) =>
      investor.submitAssessment(
        requireCustomer(request).userId,
        request.params.attemptId,
        request.body.answers,
        request.ip,
      ),
  });

  registerRoute(app, recordWarningShown, {
    access: 'customer',
    handler: async (request) => investor.recordWarningShown(requireCustomer(request).userId, request.ip),
  });

  registerRoute(app, confirmFirstInvestment, {
    access: 'customer',
    handler: async (request) => investor.confirm(requireCustomer(request).userId, request.ip),
  });

  registerRoute(app, getInvestorEvidence, {
    access: compliance,
    handler: async (request) => investor.evidence(request.params.userId),
  });

  registerRoute(app, exportInvestorEvidence, {
    access: compliance,
    handler: async (request, reply) => {
      const file = await investor.exportEvidence(request.params.userId, auditActorOf(request));
      reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`);
      return file.json;
    },
  });
}
