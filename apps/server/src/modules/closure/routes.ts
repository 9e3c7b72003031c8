import type { FastifyInstance } from 'fastify';
import { closeAccount, COMPLIANCE_ROLES, setLegalHold, terminateAccount } from '@florin/contracts';
import { clearSessionCookies, requireCustomer, type CookieSettings } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { ClosureService } from './service.js';

const compliance = { staff: COMPLIANCE_ROLES };

/** The customer closes their own account; compliance terminates one or holds its data. */
export function registerClosureRoutes(
  app: FastifyInstance,
  deps: { closure: ClosureService; cookies: CookieSettings },
): void {
  const { closure } = deps;

  registerRoute(app, closeAccount, {
    access: 'customer',
    // Closing is what a terminated customer does last, once everything is withdrawn.
    allowWhenTerminated: true,
    handler: async (request, reply) => {
      const answer = await closure.close(requireCustomer(request).userId, request.body.password);
      clearSessionCookies(reply, deps.cookies);
      return answer;
    },
  });

  registerRoute(app, terminateAccount, {
    access: compliance,
    handler: async (request) =>
      closure.terminate(request.params.userId, request.body.reason, auditActorOf(request)),
  });

  registerRoute(app, setLegalHold, {
    access: compliance,
    handler: async (request) =>
      closure.setLegalHold(request.params.userId, request.body.reason, auditActorOf(request)),
  });
}
