import type { FastifyInstance } from 'fastify';
import { registerApiTokenRoutes } from '../modules/api-tokens/routes.js';
import { registerAlertsRoutes } from '../modules/alerts/routes.js';
import { registerAuthRoutes } from '../modules/auth/routes.js';
import { registerAutoTradeRoutes } from '../modules/auto-trade/routes.js';
import { createCarfRepository } from '../modules/carf/repository.js';
import { registerCarfRoutes } from '../modules/carf/routes.js';
import { createCarfService } from '../modules/carf/service.js';
import { registerClosureRoutes } from '../modules/closure/routes.js';
import { registerCryptoRoutes } from '../modules/crypto/routes.js';
import { createEnquiryMailer, enquiryMailboxesFrom } from '../modules/enquiries/mail.js';
import { createEnquiryRepository } from '../modules/enquiries/repository.js';
import { registerEnquiryRoutes } from '../modules/enquiries/routes.js';
import { createEnquiryService } from '../modules/enquiries/service.js';
import { registerFeesRoutes } from '../modules/fees/routes.js';
import { createFeesService } from '../modules/fees/service.js';
import { registerFiatRoutes } from '../modules/fiat/routes.js';
import { registerInvestorRoutes } from '../modules/investor/routes.js';
import { registerKycRoutes } from '../modules/kyc/routes.js';
import { registerMarketRoutes } from '../modules/market/routes.js';
import { registerMotdRoutes } from '../modules/motd/routes.js';
import { createNewsletterRepository } from '../modules/newsletter/repository.js';
import { registerNewsletterRoutes } from '../modules/newsletter/routes.js';
import { createNewsletterService } from '../modules/newsletter/service.js';
import { createPortfolioRepository } from '../modules/portfolio/repository.js';
import { registerPortfolioRoutes } from '../modules/portfolio/routes.js';
import { createPortfolioService } from '../modules/portfolio/service.js';
import { registerPromoRoutes } from '../modules/promo/routes.js';
import { registerReferralRoutes } from '../modules/referrals/routes.js';
import { registerSiteRoutes } from '../modules/site/routes.js';
import { createTaxRepository } from '../modules/tax/repository.js';
import { registerTaxRoutes } from '../modules/tax/routes.js';
import { createTaxService } from '../modules/tax/service.js';
import { registerTermDepositRoutes } from '../modules/term-deposits/routes.js';
import { registerTradingRoutes } from '../modules/trading/routes.js';
import { registerUpgradeRoutes } from '../modules/upgrades/routes.js';
import { registerWhitelistRoutes } from '../modules/whitelists/routes.js';
import type { AppDeps } from './deps.js';
import type { AppServices } from './services.js';

/**
 * The customer's API and the public site's: each module's routes, with the services only they use.
 * The modules also register their staff routes under /api/admin/ here, beside the customer's.
 */
export function registerCustomerApi(app: FastifyInstance, deps: AppDeps, services: AppServices): void {
  const { config } = deps;
  const { db, clock, cookies, market, notifier, limits } = services;
  registerApiTokenRoutes(app, { tokens: services.apiTokens });
  registerAuthRoutes(app, { auth: services.auth, captcha: services.captcha, cookies });
  registerKycRoutes(app, { kyc: services.kyc });
  registerMarketRoutes(app, { market });
  registerFiatRoutes(app, { fiat: services.fiat });
  registerReferralRoutes(app, { referrals: services.referrals });
  registerPromoRoutes(app, { promo: services.promo });
  registerWhitelistRoutes(app, { whitelists: services.whitelists });
  registerCryptoRoutes(app, { crypto: services.crypto, withdrawals: services.cryptoWithdrawals });
  registerFeesRoutes(app, {
    fees: createFeesService({
      fiat: services.fiat,
      cryptoWithdrawals: services.cryptoWithdrawals,
      feeSchedule: services.feeSchedule,
    }),
  });
  registerPortfolioRoutes(app, {
    portfolio: createPortfolioService({
      repository: createPortfolioRepository(db),
      market,
      copyCsv: deps.database.copyCsv,
    }),
  });
  registerTaxRoutes(app, { tax: createTaxService({ repository: createTaxRepository(db), clock }) });
  registerCarfRoutes(app, {
    carf: createCarfService({ db, repository: createCarfRepository(db), market, clock }),
  });
  registerInvestorRoutes(app, { investor: services.investor });
  registerTradingRoutes(app, { trading: services.trading });
  registerAutoTradeRoutes(app, { autoTrades: services.autoTrades });
  registerMotdRoutes(app, { db, clock });
  registerUpgradeRoutes(app, { upgrades: services.upgrades });
  registerAlertsRoutes(app, { alerts: services.alerts });
  registerTermDepositRoutes(app, { termDeposits: services.termDeposits });
  registerClosureRoutes(app, { closure: services.closure, cookies });
  registerNewsletterRoutes(app, {
    newsletter: createNewsletterService({
      db,
      repository: createNewsletterRepository(db),
      notifier,
      limits,
      secretBox: deps.secretBox,
      publicUrl: config.publicUrl,
    }),
  });
  registerSiteRoutes(app, { config });
  registerEnquiryRoutes(app, {
    enquiries: createEnquiryService({
      repository: createEnquiryRepository(db),
      limits,
      mail: createEnquiryMailer({
        notifier,
        mailboxes: enquiryMailboxesFrom(config),
        publicUrl: config.publicUrl,
      }),
    }),
  });
}
