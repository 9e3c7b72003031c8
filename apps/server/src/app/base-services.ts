import type { FastifyBaseLogger } from 'fastify';
import { createIdleSource } from '../adapters/prices/source.js';
import { createStorageFromConfig } from '../adapters/storage/index.js';
import { systemClock } from '../clock.js';
import type { CookieSettings } from '../http/auth.js';
import { createStaffSessionStore } from '../modules/admin/sessions.js';
import { createApiTokenRepository } from '../modules/api-tokens/repository.js';
import { createApiTokenService } from '../modules/api-tokens/service.js';
import { createSessionStore } from '../modules/auth/sessions.js';
import { createFeeScheduleStore } from '../modules/fees/schedule.js';
import { createInvestorRepository } from '../modules/investor/repository.js';
import { createInvestorService } from '../modules/investor/service.js';
import { createMarketRepository } from '../modules/market/repository.js';
import { createMarketService } from '../modules/market/service.js';
import { createNotifier } from '../modules/notifications/service.js';
import { createUserEvents, openRelay } from '../modules/realtime/index.js';
import { createUpgradeRepository } from '../modules/upgrades/repository.js';
import { createUpgradeService } from '../modules/upgrades/service.js';
import { createCaptcha } from '../security/captcha.js';
import { createEmailedCodes } from '../security/emailed-codes.js';
import { createTradingVolumes } from '../modules/trading-volume/service.js';
import { createRateLimiter } from '../security/rate-limits.js';
import type { AppDeps } from './deps.js';

/** What the module services are built on and which need no other module: sessions, mail, limits, prices. */
export async function buildBaseServices(deps: AppDeps, log: FastifyBaseLogger) {
  const { config } = deps;
  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  const limits = createRateLimiter(db, { enabled: config.ABUSE_LIMITS === 'on' });
  const relay = deps.priceRelay ?? (await openRelay({ config, database: deps.database, log }));
  const cookies: CookieSettings = { secure: config.isProduction };
  const market =
    deps.market ??
    createMarketService({
      repository: createMarketRepository(db),
      source: createIdleSource(),
      onError: (error) => log.error({ err: error }, 'market data failed'),
    });
  return {
    db,
    clock,
    cookies,
    limits,
    relay,
    userEvents: createUserEvents(relay, log),
    /** This year's trading volumes: trading's fee tier, KYC's and compliance's £15,000 threshold. */
    tradingVolumes: createTradingVolumes(db),
    sessions: createSessionStore(db, clock, relay.cacheSignals),
    staffSessions: createStaffSessionStore(db, clock),
    apiTokens: createApiTokenService({ db, repository: createApiTokenRepository(db) }),
    captcha: createCaptcha(db, {
      signature: deps.secretBox.subkey('captcha-signature'),
      key: deps.secretBox.subkey('captcha-key'),
    }),
    notifier: createNotifier({ db, mailer: deps.mailer, log, clock }),
    storage: deps.storage ?? createStorageFromConfig(config),
    upgrades: createUpgradeService({
      db,
      repository: createUpgradeRepository(db),
      isProduction: config.isProduction,
      log,
    }),
    emailedCodes: createEmailedCodes({ db, key: deps.secretBox.subkey('withdrawal-codes'), clock }),
    market,
    feeSchedule: createFeeScheduleStore(db, Date.now, relay.cacheSignals),
    investor: createInvestorService({ db, repository: createInvestorRepository(db), clock }),
  };
}

export type BaseServices = Awaited<ReturnType<typeof buildBaseServices>>;
