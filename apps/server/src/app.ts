import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AppError, placeInstantOrder } from '@florin/contracts';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { registerErrorHandling } from './http/errors.js';
import { registerSpa } from './http/spa.js';
import type { CheckResult, DomainCheck, Ledger } from './ledger/index.js';
import type { Mailer } from './adapters/mail/mailer.js';
import { registerAuth, registerStaffAuth } from './http/auth.js';
import { isApiRoute, isPrivateByDefault } from './http/matched-route.js';
import { registerInputGuards, trackRoutes } from './http/route.js';
import { createAdminAuthService } from './modules/admin/auth-service.js';
import { createStaffMailer } from './modules/admin/mail.js';
import { createAdminRepository } from './modules/admin/repository.js';
import { registerAdminRoutes } from './modules/admin/routes.js';
import { createStaffSessionStore } from './modules/admin/sessions.js';
import { createStaffService } from './modules/admin/staff-service.js';
import { registerAuditRoutes } from './modules/audit/routes.js';
import { createCustomerAdminService } from './modules/compliance/customer-service.js';
import { createComplianceRepository } from './modules/compliance/repository.js';
import { registerComplianceRoutes } from './modules/compliance/routes.js';
import { createComplianceService } from './modules/compliance/service.js';
import { createSanctionsRepository } from './modules/sanctions/repository.js';
import { registerSanctionsRoutes } from './modules/sanctions/routes.js';
import { createSanctionsService } from './modules/sanctions/service.js';
import { createAuditService } from './modules/audit/service.js';
import { createAuthRepository } from './modules/auth/repository.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { createAuthService } from './modules/auth/service.js';
import { createSessionStore } from './modules/auth/sessions.js';
import { registerDevRoutes } from './modules/dev/routes.js';
import {
  API_TOKEN_GUIDE,
  API_TOKEN_SECURITY_SCHEME,
  documentTokenRule,
} from './modules/api-tokens/openapi.js';
import { createApiTokenRepository } from './modules/api-tokens/repository.js';
import { registerApiTokenRoutes } from './modules/api-tokens/routes.js';
import { createApiTokenService, createTokenRateLimiter } from './modules/api-tokens/service.js';
import { registerApiTokenAuth, withoutTokenInUrl } from './modules/api-tokens/token-auth.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { createMetrics, registerMetrics } from './modules/metrics/metrics.js';
import { createNotifier } from './modules/notifications/service.js';
import { createEnquiryMailer, enquiryMailboxesFrom } from './modules/enquiries/mail.js';
import { createEnquiryRepository } from './modules/enquiries/repository.js';
import { registerEnquiryRoutes } from './modules/enquiries/routes.js';
import { createEnquiryService } from './modules/enquiries/service.js';
import { registerSiteRoutes } from './modules/site/routes.js';
import { createNewsletterRepository } from './modules/newsletter/repository.js';
import { registerNewsletterRoutes } from './modules/newsletter/routes.js';
import { createNewsletterService } from './modules/newsletter/service.js';
import { createCaptcha } from './security/captcha.js';
import { createRateLimiter } from './security/rate-limits.js';
import type { SecretBox } from './security/secret-box.js';
import { createHealthService } from './modules/health/service.js';
import { createStorageFromConfig, type FileStorage } from './adapters/storage/index.js';
import { createKycRepository } from './modules/kyc/repository.js';
import { MULTIPART_LIMITS, registerKycRoutes } from './modules/kyc/routes.js';
import { createKycService } from './modules/kyc/service.js';
import { createVerificationGate } from './modules/kyc/verification.js';
import { createMarketRepository } from './modules/market/repository.js';
import { registerMarketRoutes } from './modules/market/routes.js';
import { createFiatRepository } from './modules/fiat/repository.js';
import { registerFiatRoutes } from './modules/fiat/routes.js';
import { createFiatService } from './modules/fiat/service.js';
import { createPromoRepository } from './modules/promo/repository.js';
import { registerPromoRoutes } from './modules/promo/routes.js';
import { createPromoService } from './modules/promo/service.js';
import { createReferralRepository } from './modules/referrals/repository.js';
import { registerReferralRoutes } from './modules/referrals/routes.js';
import { COMMISSION_ACCRUAL_INTERVAL_MS, createReferralService } from './modules/referrals/service.js';
import { createWhitelistRepository } from './modules/whitelists/repository.js';
import { registerWhitelistRoutes } from './modules/whitelists/routes.js';
import { createWhitelistService } from './modules/whitelists/service.js';
import { createEmailedCodes } from './security/emailed-codes.js';
import { createSecondFactor } from './security/second-factor.js';
import {
  registerCryptoDevRoutes,
  registerCryptoRoutes,
  registerSimulatedChainAdminRoutes,
} from './modules/crypto/routes.js';
import { registerFeesRoutes } from './modules/fees/routes.js';
import { createFeesService } from './modules/fees/service.js';
import { createCryptoFromConfig } from './modules/crypto/setup.js';
import { createTradingRepository } from './modules/trading/repository.js';
import { registerTradingDevRoutes, registerTradingRoutes } from './modules/trading/routes.js';
import { createAutoTradeRepository } from './modules/auto-trade/repository.js';
import { registerAutoTradeDevRoutes, registerAutoTradeRoutes } from './modules/auto-trade/routes.js';
import { AUTO_TRADE_INTERVAL_MS, createAutoTradeService } from './modules/auto-trade/service.js';
import { createTradingService, type TradingService } from './modules/trading/service.js';
import { createTradingAdminRepository, createTradingAdminService } from './modules/trading/admin.js';
import { createFeeScheduleStore } from './modules/fees/schedule.js';
import { registerTradingAdminRoutes } from './modules/trading/admin-routes.js';
import { createMarketService, type MarketService } from './modules/market/service.js';
import { startLeaderJobs, type LeaderJob } from './modules/realtime/leader-jobs.js';
import { createIdleSource } from './adapters/prices/source.js';
import { registerMotdRoutes } from './modules/motd/routes.js';
import { createAlertsRepository } from './modules/alerts/repository.js';
import { registerAlertsRoutes } from './modules/alerts/routes.js';
import { createAlertsService, DAILY_SUMMARY_INTERVAL_MS } from './modules/alerts/service.js';
import { createUpgradeRepository } from './modules/upgrades/repository.js';
import { registerUpgradeRoutes } from './modules/upgrades/routes.js';
import { createUpgradeService } from './modules/upgrades/service.js';
import { createPortfolioRepository } from './modules/portfolio/repository.js';
import { createTermDepositRepository } from './modules/term-deposits/repository.js';
import { registerTermDepositDevRoutes, registerTermDepositRoutes } from './modules/term-deposits/routes.js';
import { createTermDepositService, MATURITY_SCAN_INTERVAL_MS } from './modules/term-deposits/service.js';
import { registerPortfolioRoutes } from './modules/portfolio/routes.js';
import { createPortfolioService } from './modules/portfolio/service.js';
import { createTaxRepository } from './modules/tax/repository.js';
import { registerTaxRoutes } from './modules/tax/routes.js';
import { createTaxService } from './modules/tax/service.js';
import { createCarfRepository } from './modules/carf/repository.js';
import { registerCarfRoutes } from './modules/carf/routes.js';
import { createCarfService } from './modules/carf/service.js';
import { createClosureRepository } from './modules/closure/repository.js';
import { registerClosureRoutes } from './modules/closure/routes.js';
import { createClosureService } from './modules/closure/service.js';
import { createInvestorRepository } from './modules/investor/repository.js';
import { registerInvestorRoutes } from './modules/investor/routes.js';
import { createInvestorService } from './modules/investor/service.js';
import {
  createUserEvents,
  openRelay,
  registerRealtime,
  type PriceFeed,
  type PriceRelay,
} from './modules/realtime/index.js';
import { MAX_UPLOAD_BYTES } from './security/uploads.js';
import packageJson from '../package.json' with { type: 'json' };

export type AppDeps = {
  config: Config;
  database: Database;
  ledger: Ledger;
  mailer: Mailer;
  secretBox: SecretBox;
  /** Where uploaded documents go; unset: from configuration (DATA_DIR/uploads or the S3 bucket). */
  storage?: FileStorage;
  /** Each domain module's check that its rows match the ledger (invariant 8). */
  domainChecks?: readonly DomainCheck[];
  /** The check run at start, so health does not repeat it at once. */
  initialLedgerCheck?: CheckResult;
  /** Prices, quotes and candles; unset: a market whose source never ticks (main.ts passes the configured one). */
  market?: MarketService;
  /** The ticks the websocket streams; unset: the market's. */
  priceFeed?: PriceFeed;
  /** How ticks reach the other instances; unset: LISTEN/NOTIFY on DATABASE_URL, or in process on PGlite. */
  priceRelay?: PriceRelay;
  /** What one-time codes, sessions and the waits run by; unset: the system clock (tests move their own). */
  clock?: Clock;
};

export const VERSION = packageJson.version;

/** 1 MiB: enough for any JSON this API takes; uploads go through multipart with their own limit. */
const BODY_LIMIT = 1024 * 1024;

/** What helmet and the /api/ default would have set on an answer the router gave before any hook. */
const ROUTERLESS_ANSWER_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

/** The whole server as one Fastify instance; tests build it with in-memory dependencies and use inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // GET /api/v1/balance?token=… carries an API token in its URL (spec 002 §7): never logged.
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: withoutTokenInUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.TRUST_PROXY ?? false,
    // A path parameter the router cannot decode, or one too long, is refused before any hook runs
    // (helmet's headers included): the refusal is ours, with the headers every other answer has.
    frameworkErrors: (_error, request, reply) => {
      // The option types its reply for no route in particular, which refuses any status: this one is plain.
      const answer = reply as unknown as FastifyReply;
      void answer
        .status(400)
        .headers(ROUTERLESS_ANSWER_HEADERS)
        .send(new AppError('BAD_REQUEST').toBody(request.id));
    },
  });
  trackRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers are private (balances, secrets being enrolled, documents) unless a route says otherwise;
    // so is any answer no route gave (a 404 may be for an API path).
    if (isPrivateByDefault(request) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });
  registerErrorHandling(app);
  // JSON, and the two exceptions below; Fastify's plain-text parser would let any text through to a route.
  app.removeContentTypeParser('text/plain');
  registerInputGuards(app);
  // The spec sends the instant order form-encoded (002 §7), and only it; its fields then meet the same zod
  // contract. Every other route takes JSON alone.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      if (request.routeOptions.url !== placeInstantOrder.path) done(new AppError('BAD_REQUEST'), undefined);
      else done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into a style element at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // The back office shows a customer's PDF in the browser's viewer (an <object>, which Chromium
        // frames) from a blob: URL, which only the page's own script can make
        // (admin/compliance/components/document-viewer.tsx); nothing else embeds or frames.
        objectSrc: ['blob:'],
        frameSrc: ['blob:'],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    // Always sent: browsers ignore it over plain http (RFC 6797 §8.1), so local runs are unaffected.
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
  });
  await app.register(fastifyCookie);
  // A file over the limit stops the upload with FILE_TOO_LARGE before any of it is kept.
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, ...MULTIPART_LIMITS } });
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // Only the API is limited; the web app's files are static and cached.
    allowList: (request) => config.ABUSE_LIMITS === 'off' || !isApiRoute(request),
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Florin API', version: VERSION, description: API_TOKEN_GUIDE },
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
          bearer: { type: 'http', scheme: 'bearer' },
          apiToken: API_TOKEN_SECURITY_SCHEME,
        },
      },
    },
    transform: (input) => documentTokenRule(jsonSchemaTransform(input), input.route),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // Prometheus scrapes /metrics with METRICS_TOKEN; without one there is no /metrics at all.
  const metrics = config.METRICS_TOKEN ? createMetrics() : null;
  if (metrics && config.METRICS_TOKEN) registerMetrics(app, metrics, config.METRICS_TOKEN);

  const health = createHealthService({
    db: deps.database.db,
    engine: deps.database.engine,
    version: VERSION,
    domainChecks: deps.domainChecks ?? [],
    initialCheck: deps.initialLedgerCheck,
  });
  registerHealthRoutes(app, health);

  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  const limits = createRateLimiter(db, { enabled: config.ABUSE_LIMITS === 'on' });
  const relay = deps.priceRelay ?? (await openRelay({ config, engine: deps.database.engine, log: app.log }));
  const userEvents = createUserEvents(relay, app.log);
  const cookies = { secure: config.isProduction };
  const sessions = createSessionStore(db, clock);
  registerAuth(app, sessions, cookies);
  // Before any customer route: it gives each its API token rule as it is added.
  const apiTokens = createApiTokenService({ db, repository: createApiTokenRepository(db) });
  registerApiTokenAuth(app, {
    tokens: apiTokens,
    limiter: createTokenRateLimiter(config.API_TOKEN_RATE_LIMIT_PER_MINUTE),
  });
  registerApiTokenRoutes(app, { tokens: apiTokens });
  const staffSessions = createStaffSessionStore(db, clock);
  registerStaffAuth(app, staffSessions);
  const captcha = createCaptcha(db, {
    signature: deps.secretBox.subkey('captcha-signature'),
    key: deps.secretBox.subkey('captcha-key'),
  });
  const notifier = createNotifier({ db, mailer: deps.mailer, log: app.log });
  const storage = deps.storage ?? createStorageFromConfig(config);
  const upgrades = createUpgradeService({
    db,
    repository: createUpgradeRepository(db),
    isProduction: config.isProduction,
    log: app.log,
  });
  // Who has traded more than £15,000 this year, for KYC and compliance. Trading is made further down;
  // the threshold is only read once the app is built.
  const tradingVolumes: Pick<TradingService, 'listOverSourceOfWealthThreshold'> = {
    listOverSourceOfWealthThreshold: (userIds, executor) =>
      trading.listOverSourceOfWealthThreshold(userIds, executor),
  };
  const kycRepository = createKycRepository(db);
  const kyc = createKycService({
    db,
    repository: kycRepository,
    storage,
    complianceEmail: config.COMPLIANCE_EMAIL,
    upgrades,
    trading: tradingVolumes,
    // The sanctions service is made further down; screenings only come once the app is built.
    sanctions: { screenCustomer: (userId, trigger) => sanctions.screenCustomer(userId, trigger) },
  });
  const emailedCodes = createEmailedCodes({ db, key: deps.secretBox.subkey('withdrawal-codes'), clock });
  const auth = createAuthService({
    repository: createAuthRepository(db, clock),
    sessions,
    notifier,
    captcha,
    limits,
    secretBox: deps.secretBox,
    publicUrl: config.publicUrl,
    loadVerificationState: (userId) => kyc.getVerificationState(userId),
    // The whitelist service is made further down; sign-ins only come once the app is built.
    isSignInIpAllowed: (userId, ip) => whitelists.isSignInIpAllowed(userId, ip),
    emailedCodes: {
      issue: (userId, purpose) => emailedCodes.issue(db, userId, purpose),
      check: (userId, purpose, code) => emailedCodes.check(userId, purpose, code),
    },
    clock,
  });
  registerAuthRoutes(app, { auth, captcha, cookies });
  registerKycRoutes(app, { kyc });
  const verification = createVerificationGate({ db, repository: kycRepository });
  const adminRepository = createAdminRepository(db, clock);
  registerAdminRoutes(app, {
    auth: createAdminAuthService({
      db,
      repository: adminRepository,
      sessions: staffSessions,
      limits,
      secretBox: deps.secretBox,
      clock,
    }),
    staff: createStaffService({
      db,
      repository: adminRepository,
      sessions: staffSessions,
      mail: createStaffMailer({ mailer: deps.mailer, publicUrl: config.publicUrl, log: app.log }),
    }),
    cookies,
    simulatedChain: !config.isProduction,
  });
  registerAuditRoutes(app, createAuditService(db));
  const complianceRepository = createComplianceRepository(db);
  const sanctionsRepository = createSanctionsRepository(db);
  const compliance = createComplianceService({
    db,
    repository: complianceRepository,
    notifier,
    kyc,
    // The sanctions service is made just below, with this service to hold accounts through.
    sanctions: {
      findHoldingHit: (userId, executor) => sanctionsRepository.findHoldingHit(userId, executor),
      screenIfMissedSince: (userId, completedAt) => sanctions.screenIfMissedSince(userId, completedAt),
    },
    trading: tradingVolumes,
    publicUrl: config.publicUrl,
  });
  const sanctions = createSanctionsService({
    db,
    repository: sanctionsRepository,
    compliance,
    log: app.log,
  });
  registerComplianceRoutes(app, {
    compliance,
    customers: createCustomerAdminService({
      db,
      repository: complianceRepository,
      ledger: deps.ledger,
      notifier,
      kyc,
      sanctions: {
        screenCustomer: (userId, trigger) => sanctions.screenCustomer(userId, trigger),
        findHoldingHit: (userId) => sanctionsRepository.findHoldingHit(userId),
      },
      clock,
    }),
  });
  registerSanctionsRoutes(app, { sanctions });
  const market =
    deps.market ??
    createMarketService({
      repository: createMarketRepository(db),
      source: createIdleSource(),
      onError: (error) => app.log.error({ err: error }, 'market data failed'),
    });
  registerMarketRoutes(app, { market });
  const secondFactor = createSecondFactor({
    emailedCodes,
    limits,
    verifyAuthenticatorCode: (userId, passcode) => auth.verifyAuthenticatorCode(userId, passcode),
  });
  const fiat = createFiatService({
    db,
    repository: createFiatRepository(db),
    ledger: deps.ledger,
    notifier,
    userEvents,
    emailedCodes,
    secondFactor,
    verification,
    clock,
  });
  registerFiatRoutes(app, { fiat });
  const referrals = createReferralService({
    db,
    repository: createReferralRepository(db),
    ledger: deps.ledger,
    secondFactor,
    notifier,
    bankAccountOf: async (userId) => (await fiat.getBankAccounts(userId, 'GBP')).data,
    verification,
    clock,
  });
  registerReferralRoutes(app, { referrals });
  const promo = createPromoService({
    db,
    repository: createPromoRepository(db),
    isEligible: (userId) => referrals.isEligible(userId),
  });
  registerPromoRoutes(app, { promo });
  const whitelists = createWhitelistService({
    db,
    repository: createWhitelistRepository(db, clock),
    notifier,
    emailedCodes,
    // Through the second factor, so a whitelist change's codes count against the customer's limit too.
    verifyAuthenticatorCode: (userId, passcode) => secondFactor.verifyAuthenticatorCode(userId, passcode),
    network: config.CRYPTO_NETWORK,
    // The crypto module is made just below; addresses are only checked once the app is built.
    florinDestinationOf: (userId, asset, address, tag) =>
      cryptoWithdrawals.florinDestinationOf(userId, asset, address, tag),
  });
  registerWhitelistRoutes(app, { whitelists });
  const { deposits: crypto, withdrawals: cryptoWithdrawals } = createCryptoFromConfig({
    config,
    db,
    ledger: deps.ledger,
    notifier,
    userEvents,
    gbpRate: (asset) => market.gbpRate(asset),
    emailedCodes,
    secondFactor,
    limits,
    savedAddresses: whitelists,
    verification,
    log: app.log,
    clock,
  });
  registerCryptoRoutes(app, { crypto, withdrawals: cryptoWithdrawals });
  const feeSchedule = createFeeScheduleStore(db);
  registerFeesRoutes(app, { fees: createFeesService({ fiat, cryptoWithdrawals, feeSchedule }) });
  registerPortfolioRoutes(app, {
    portfolio: createPortfolioService({ repository: createPortfolioRepository(db), market }),
  });
  registerTaxRoutes(app, { tax: createTaxService({ repository: createTaxRepository(db), clock }) });
  registerCarfRoutes(app, {
    carf: createCarfService({ db, repository: createCarfRepository(db), market, clock }),
  });
  const investor = createInvestorService({ db, repository: createInvestorRepository(db), clock });
  registerInvestorRoutes(app, { investor });
  const trading = createTradingService({
    db,
    repository: createTradingRepository(db),
    ledger: deps.ledger,
    market,
    notifier,
    userEvents,
    log: app.log,
    feeDiscountFor: (userId) => promo.feeDiscountFor(userId),
    feeSchedule,
    investor,
    verification,
    sourceOfWealth: compliance,
  });
  registerTradingRoutes(app, { trading });
  const autoTrades = createAutoTradeService({
    db,
    repository: createAutoTradeRepository(db),
    trading,
    secondFactor,
    log: app.log,
    investor,
  });
  registerAutoTradeRoutes(app, { autoTrades });
  registerTradingAdminRoutes(app, {
    admin: createTradingAdminService({
      db,
      repository: createTradingAdminRepository(db),
      ledger: deps.ledger,
      market,
      feeSchedule,
    }),
  });
  registerMotdRoutes(app, { db, clock });
  registerUpgradeRoutes(app, { upgrades });
  const alerts = createAlertsService({
    repository: createAlertsRepository(db),
    notifier,
    publicUrl: config.publicUrl,
  });
  registerAlertsRoutes(app, { alerts });
  const termDeposits = createTermDepositService({
    db,
    repository: createTermDepositRepository(db),
    ledger: deps.ledger,
    notifier,
    publicUrl: config.publicUrl,
    log: app.log,
    investor,
    verification,
  });
  registerTermDepositRoutes(app, { termDeposits });
  const closure = createClosureService({
    db,
    repository: createClosureRepository(db),
    termDeposits,
    notifier,
    storage,
    log: app.log,
  });
  registerClosureRoutes(app, { closure, cookies });
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
        mailer: deps.mailer,
        mailboxes: enquiryMailboxesFrom(config),
        publicUrl: config.publicUrl,
        log: app.log,
      }),
    }),
  });

  if (!config.isProduction) {
    registerDevRoutes(app, { db, ledger: deps.ledger, userEvents });
    registerCryptoDevRoutes(app, { crypto });
    registerSimulatedChainAdminRoutes(app, { crypto });
    registerTradingDevRoutes(app, { db, market, trading });
    registerTermDepositDevRoutes(app, { termDeposits });
    registerAutoTradeDevRoutes(app, { autoTrades });
  }

  const realtime = await registerRealtime(app, {
    config,
    engine: deps.database.engine,
    sessions,
    feed: deps.priceFeed ?? market,
    relay,
  });
  metrics?.watch({
    db,
    websocketClients: realtime.connectionCount,
    prices: () => market.latest(),
    isLeader: () => relay.isLeader(),
  });
  // One instance produces ticks and writes candles; the others quote the prices it relays.
  market.setLeading(relay.isLeader());
  relay.onLeadershipChange((leading) => market.setLeading(leading));
  // The leading instance fills the resting orders each tick crosses.
  market.subscribe((updates) => {
    if (relay.isLeader())
      trading.onPrices(updates).catch((error) => app.log.error({ err: error }, 'order fills failed'));
  });
  // A shutdown stops the ticks, then lets the fills in flight commit before the database closes.
  app.addHook('onClose', async () => {
    await market.stop();
    await trading.stop();
  });
  relay.subscribe((updates) => {
    if (!relay.isLeader())
      market.follow(updates).catch((error) => app.log.error({ err: error }, 'relayed prices failed'));
  });

  // Tests run these jobs by hand; elsewhere the leading instance runs them (modules/realtime/leader-jobs.ts).
  if (config.NODE_ENV !== 'test') {
    const jobs: LeaderJob[] = [
      {
        // Yesterday's summaries shortly after each UTC midnight; customers already sent theirs are skipped.
        name: 'daily trading summaries',
        intervalMs: DAILY_SUMMARY_INTERVAL_MS,
        run: () => alerts.sendDailyTradingSummaries(new Date(Date.now() - 86_400_000)),
      },
      { name: 'auto trades', intervalMs: AUTO_TRADE_INTERVAL_MS, run: () => autoTrades.runOnce() },
      {
        name: 'term deposit maturity',
        intervalMs: MATURITY_SCAN_INTERVAL_MS,
        run: () => termDeposits.payMatured(),
      },
      {
        // Personal data five years after an account's access ended (issue 13); hourly is plenty.
        name: 'retention',
        intervalMs: 3_600_000,
        run: () => closure.eraseExpired(),
      },
      {
        // Customers over the £15,000 who answered No that a trade's own check missed; hourly is plenty.
        name: 'source-of-wealth threshold',
        intervalMs: 3_600_000,
        run: () => compliance.resetSourceOfWealthOverThreshold(),
      },
      {
        name: 'referral commissions',
        intervalMs: COMMISSION_ACCRUAL_INTERVAL_MS,
        run: () => referrals.accrueCommissions(),
      },
    ];
    if (config.CHAIN_WATCH_INTERVAL_MS > 0)
      jobs.push({
        name: 'deposit watcher',
        intervalMs: config.CHAIN_WATCH_INTERVAL_MS,
        run: async () => {
          await crypto.watchOnce();
          await cryptoWithdrawals.expireOverdue();
        },
      });
    let stopJobs: (() => Promise<void>) | undefined;
    app.addHook('onReady', (done) => {
      stopJobs = startLeaderJobs(jobs, { isLeader: () => relay.isLeader(), log: app.log });
      done();
    });
    // A shutdown lets the runs in flight finish before the database closes.
    app.addHook('onClose', async () => {
      await stopJobs?.();
    });
  }

  await registerSpa(app, config.WEB_DIST);
  return app;
}
