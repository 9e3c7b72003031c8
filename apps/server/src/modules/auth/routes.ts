import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUTH_TEXTS,
  changePassword,
  confirmEmailChange,
  forgotPassword,
  generateTwoFactor,
  getCaptchaChallenge,
  getCsrfToken,
  getUser,
  login,
  login2fa,
  logout,
  registerUser,
  requestEmailChange,
  resendVerification,
  resetPassword,
  toggleTwoFactor,
  verifyEmail,
} from '@florin/contracts';
import {
  clearSessionCookies,
  requireCustomer,
  setSessionCookies,
  type CookieSettings,
} from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { Captcha } from '../../security/captcha.js';
import type { AuthService, RequestMeta } from './service.js';

function metaOf(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'], log: request.log };
}

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; captcha: Captcha; cookies: CookieSettings },
): void {
  const { auth, cookies } = deps;

  // The cookie itself is set by the auth layer's onSend hook, as for any API answer.
  registerRoute(app, getCsrfToken, {
    access: 'public',
    handler: () => Promise.resolve({ ok: true as const }),
  });

  registerRoute(app, getCaptchaChallenge, {
    access: 'public',
    handler: async () => {
      return { ...(await deps.captcha.createChallenge()) };
    },
  });

  registerRoute(app, registerUser, {
    access: 'public',
    handler: async (request, reply) => {
      await auth.register(request.body, metaOf(request));
      reply.status(201);
      return { message: AUTH_TEXTS.registered };
    },
  });

  registerRoute(app, verifyEmail, {
    access: 'public',
    handler: async (request) => {
      await auth.verifyEmail(request.params.token);
      return { message: AUTH_TEXTS.verified };
    },
  });

  registerRoute(app, resendVerification, {
    access: 'public',
    handler: async (request) => {
      await auth.resendVerification(request.params.userId, metaOf(request));
      return { message: AUTH_TEXTS.verificationSent };
    },
  });

  registerRoute(app, login, {
    access: 'public',
    handler: async (request, reply) => {
      const { response, session } = await auth.login(request.body, metaOf(request));
      if (session) setSessionCookies(reply, session, cookies);
      return response;
    },
  });

  registerRoute(app, login2fa, {
    access: 'public',
    handler: async (request, reply) => {
      const { response, session } = await auth.loginSecondFactor(request.body, metaOf(request));
      setSessionCookies(reply, session, cookies);
      return response;
    },
  });

  registerRoute(app, logout, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request, reply) => {
      const session = requireCustomer(request);
      await auth.logout(session.id, session.userId);
      clearSessionCookies(reply, cookies);
      return { message: AUTH_TEXTS.loggedOut };
    },
  });

  registerRoute(app, getUser, {
    access: 'customer',
    handler: async (request) => ({ data: await auth.getUser(requireCustomer(request).userId) }),
  });

  registerRoute(app, forgotPassword, {
    access: 'public',
    handler: async (request) => {
      await auth.requestPasswordReset(request.body.email, metaOf(request));
      return { message: AUTH_TEXTS.resetLinkSent };
    },
  });

  registerRoute(app, resetPassword, {
    access: 'public',
    handler: async (request) => {
      await auth.resetPassword(request.body, metaOf(request));
      return { message: AUTH_TEXTS.passwordReset };
    },
  });

  registerRoute(app, changePassword, {
    access: 'customer',
    handler: async (request) => {
      const session = requireCustomer(request);
      await auth.changePassword(session.userId, session.id, request.body);
      return { message: AUTH_TEXTS.passwordChanged };
    },
  });

  registerRoute(app, requestEmailChange, {
    access: 'customer',
    handler: async (request) => {
      await auth.requestEmailChange(requireCustomer(request).userId, request.body);
      return { message: AUTH_TEXTS.emailChangeSent };
    },
  });

  registerRoute(app, confirmEmailChange, {
    access: 'public',
    handler: async (request, reply) => {
      const changed = await auth.confirmEmailChange(request.params.token);
      return reply.redirect(`/login?email_change=${changed ? 'success' : 'error'}`, 302);
    },
  });

  registerRoute(app, generateTwoFactor, {
    access: 'customer',
    handler: async (request) => {
      return { data: await auth.generateTwoFactorSecret(requireCustomer(request).userId) };
    },
  });

  registerRoute(app, toggleTwoFactor, {
    access: 'customer',
    handler: async (request) => {
      const { recoveryCodes } = await auth.toggleTwoFactor(requireCustomer(request).userId, request.body);
      return {
        message: AUTH_TEXTS.twoFactorToggled,
        ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
      };
    },
  });
}
