import type { FastifyInstance } from 'fastify';
import {
  createWhitelistedWallet,
  destroyWhitelistedWallet,
  fetchIpWhitelist,
  listWhitelistedWallets,
  removeWhitelistedIp,
  sendVerifyWalletRemoval,
  verifyWalletRemoval,
  whitelistIp,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { WhitelistService } from './service.js';

/** Routes that take an authenticator code: few tries a minute, on top of the global limit. */
const PASSCODE_LIMIT = { max: 10, timeWindow: '1 minute' };
/** Each call mails a code. */
const MAIL_LIMIT = { max: 5, timeWindow: '1 minute' };

export function registerWhitelistRoutes(app: FastifyInstance, deps: { whitelists: WhitelistService }): void {
  const { whitelists } = deps;

  // ---- wallet whitelisting ----

  registerRoute(app, listWhitelistedWallets, {
    access: 'customer',
    handler: async (request) => whitelists.listWallets(requireCustomer(request).userId, request.query),
  });

  registerRoute(app, createWhitelistedWallet, {
    access: 'customer',
    rateLimit: PASSCODE_LIMIT,
    handler: async (request) => whitelists.addWallet(requireCustomer(request).userId, request.body),
  });

  registerRoute(app, sendVerifyWalletRemoval, {
    access: 'customer',
    rateLimit: MAIL_LIMIT,
    handler: async (request) =>
      whitelists.sendRemovalCode(requireCustomer(request).userId, String(request.body.id)),
  });

  registerRoute(app, verifyWalletRemoval, {
    access: 'customer',
    handler: async (request) =>
      whitelists.verifyRemoval(
        requireCustomer(request).userId,
        String(request.body.id),
        request.body.verify_code,
      ),
  });

  registerRoute(app, destroyWhitelistedWallet, {
    access: 'customer',
    handler: async (request) =>
      whitelists.removeWallet(requireCustomer(request).userId, String(request.params.id)),
  });

  // ---- IP whitelisting ----

  registerRoute(app, whitelistIp, {
    access: 'customer',
    rateLimit: PASSCODE_LIMIT,
    handler: async (request) =>
      whitelists.addIp(
        requireCustomer(request).userId,
        request.params.userIdentification,
        request.body,
        request.ip,
      ),
  });

  registerRoute(app, fetchIpWhitelist, {
    access: 'customer',
    handler: async (request) =>
      whitelists.listIps(
        requireCustomer(request).userId,
        request.params.userId,
        request.query.limit,
        request.ip,
      ),
  });

  registerRoute(app, removeWhitelistedIp, {
    access: 'customer',
    rateLimit: PASSCODE_LIMIT,
    handler: async (request) =>
      whitelists.removeIp(
        requireCustomer(request).userId,
        request.params.userIdentification,
        String(request.params.id),
        request.body.passcode,
        request.ip,
      ),
  });
}
