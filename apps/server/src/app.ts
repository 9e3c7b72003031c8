import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { registerErrorHandling } from './http/errors.js';
import { registerSpa } from './http/spa.js';
import type { CheckResult, DomainCheck, Ledger } from './ledger/index.js';
import type { Mailer } from './adapters/mail/mailer.js';
import { registerAuth } from './http/auth.js';
import { createAuthRepository } from './modules/auth/repository.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { createAuthService } from './modules/auth/service.js';
import { createSessionStore } from './modules/auth/sessions.js';
import { registerDevRoutes } from './modules/dev/routes.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { createNotifier } from './modules/notifications/service.js';
import { createCaptcha } from './security/captcha.js';
import { createRateLimiter } from './security/rate-limits.js';
import type { SecretBox } from './security/secret-box.js';
import { createHealthService } from './modules/health/service.js';
import packageJson from '../package.json' with { type: 'json' };

export type AppDeps = {
  config: Config;
  database: Database;
  ledger: Ledger;
  mailer: Mailer;
  secretBox: SecretBox;
  /** Each domain module's check that its rows match the ledger (invariant 8). */
  domainChecks?: readonly DomainCheck[];
  /** The check run at start, so health does not repeat it at once. */
  initialLedgerCheck?: CheckResult;
};

export const VERSION = packageJson.version;

/** 1 MiB: enough for any JSON this API takes; uploads go through multipart with their own limit. */
const BODY_LIMIT = 1024 * 1024;

/** The whole server as one Fastify instance; tests build it with in-memory dependencies and use inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.TRUST_PROXY ?? false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);

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
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    strictTransportSecurity: config.isProduction,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // Only the API is limited; the web app's files are static and cached.
    allowList: (request) => !request.url.startsWith('/api/'),
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Florin API', version: VERSION },
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const health = createHealthService({
    db: deps.database.db,
    engine: deps.database.engine,
    version: VERSION,
    domainChecks: deps.domainChecks ?? [],
    initialCheck: deps.initialLedgerCheck,
  });
  registerHealthRoutes(app, health);

  const db = deps.database.db;
  const cookies = { secure: config.isProduction };
  const sessions = createSessionStore(db);
  registerAuth(app, sessions, cookies);
  const captcha = createCaptcha(db, {
    signature: deps.secretBox.subkey('captcha-signature'),
    key: deps.secretBox.subkey('captcha-key'),
  });
  const notifier = createNotifier({ db, mailer: deps.mailer, log: app.log });
  const auth = createAuthService({
    repository: createAuthRepository(db),
    sessions,
    notifier,
    captcha,
    limits: createRateLimiter(db),
    secretBox: deps.secretBox,
    publicUrl: config.publicUrl,
  });
  registerAuthRoutes(app, { auth, captcha, cookies });
  if (!config.isProduction) registerDevRoutes(app, db);

  await registerSpa(app, config.WEB_DIST);
  return app;
}
