import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_TEXTS,
  adminLogin,
  adminLogin2fa,
  adminLogout,
  adminSetPassword,
  changeStaffRole,
  createStaff,
  disableStaff,
  enableStaff,
  getAdminMe,
  listStaff,
  resetStaffTwoFactor,
  sendStaffPasswordLink,
} from '@florin/contracts';
import {
  clearStaffSessionCookies,
  requireStaff,
  setStaffSessionCookies,
  ANY_STAFF,
  SUPERADMIN_ONLY,
  type CookieSettings,
} from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { AdminAuthService, RequestMeta } from './auth-service.js';
import type { StaffActor, StaffService } from './staff-service.js';

function metaOf(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

function actorOf(request: FastifyRequest): StaffActor {
  return { staffId: requireStaff(request).staffId, ip: request.ip };
}

export function registerAdminRoutes(
  app: FastifyInstance,
  deps: {
    auth: AdminAuthService;
    staff: StaffService;
    cookies: CookieSettings;
    /** Whether the simulated chain's staff routes are registered (app.ts: never in production). */
    simulatedChain: boolean;
  },
): void {
  const { auth, staff, cookies } = deps;

  registerRoute(app, adminLogin, {
    access: 'public',
    handler: async (request) => {
      return auth.login(request.body, metaOf(request));
    },
  });

  registerRoute(app, adminLogin2fa, {
    access: 'public',
    handler: async (request, reply) => {
      const { staff: me, session } = await auth.loginSecondFactor(request.body, metaOf(request));
      setStaffSessionCookies(reply, session, cookies);
      return { data: { ...me, simulated_chain: deps.simulatedChain }, expires_in: session.expiresIn };
    },
  });

  registerRoute(app, adminSetPassword, {
    access: 'public',
    handler: async (request) => {
      await auth.setPassword(request.body, metaOf(request));
      return { message: ADMIN_TEXTS.passwordSet };
    },
  });

  registerRoute(app, getAdminMe, {
    access: ANY_STAFF,
    handler: async (request) => ({
      data: { ...(await auth.me(requireStaff(request).staffId)), simulated_chain: deps.simulatedChain },
    }),
  });

  registerRoute(app, adminLogout, {
    access: ANY_STAFF,
    handler: async (request, reply) => {
      const session = requireStaff(request);
      await auth.logout(session.sessionId, actorOf(request));
      clearStaffSessionCookies(reply, cookies);
      return { message: ADMIN_TEXTS.signedOut };
    },
  });

  registerRoute(app, listStaff, {
    access: SUPERADMIN_ONLY,
    handler: async () => ({ data: await staff.list() }),
  });

  registerRoute(app, createStaff, {
    access: SUPERADMIN_ONLY,
    handler: async (request, reply) => {
      const created = await staff.create(actorOf(request), request.body);
      reply.status(201);
      return { data: created, message: ADMIN_TEXTS.staffCreated };
    },
  });

  registerRoute(app, changeStaffRole, {
    access: SUPERADMIN_ONLY,
    handler: async (request) => ({
      data: await staff.changeRole(actorOf(request), request.params.staffId, request.body.role),
      message: ADMIN_TEXTS.roleChanged,
    }),
  });

  registerRoute(app, disableStaff, {
    access: SUPERADMIN_ONLY,
    handler: async (request) => ({
      data: await staff.disable(actorOf(request), request.params.staffId),
      message: ADMIN_TEXTS.staffDisabledDone,
    }),
  });

  registerRoute(app, enableStaff, {
    access: SUPERADMIN_ONLY,
    handler: async (request) => ({
      data: await staff.enable(actorOf(request), request.params.staffId),
      message: ADMIN_TEXTS.staffEnabledDone,
    }),
  });

  registerRoute(app, resetStaffTwoFactor, {
    access: SUPERADMIN_ONLY,
    handler: async (request) => ({
      data: await staff.resetTwoFactor(actorOf(request), request.params.staffId),
      message: ADMIN_TEXTS.twoFactorReset,
    }),
  });

  registerRoute(app, sendStaffPasswordLink, {
    access: SUPERADMIN_ONLY,
    handler: async (request) => ({
      data: await staff.sendPasswordLink(actorOf(request), request.params.staffId),
      message: ADMIN_TEXTS.passwordLinkSent,
    }),
  });
}
