import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AppError, placeInstantOrder } from '@florin/contracts';
import type { Config } from '../config.js';
import { registerAuth, registerStaffAuth } from '../http/auth.js';
import { registerErrorHandling } from '../http/errors.js';
import { isApiRoute, isPrivateByDefault, matchedRoute } from '../http/matched-route.js';
import { registerInputGuards, trackRoutes } from '../http/route.js';
import {
  API_TOKEN_GUIDE,
  API_TOKEN_SECURITY_SCHEME,
  documentTokenRule,
} from '../modules/api-tokens/openapi.js';
import { createTokenRateLimiter } from '../modules/api-tokens/service.js';
import { registerApiTokenAuth } from '../modules/api-tokens/token-auth.js';
import { MULTIPART_LIMITS } from '../modules/kyc/routes.js';
import { MAX_UPLOAD_BYTES } from '../security/uploads.js';
import type { AppServices } from './services.js';

/** What every request goes through before its route: parsing, input guards, security headers, limits. */
export async function registerGlobalHooks(app: FastifyInstance, config: Config): Promise<void> {
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
      if (matchedRoute(request) !== placeInstantOrder.path) done(new AppError('BAD_REQUEST'), undefined);
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
}

/** The OpenAPI document and its viewer at /api/docs, listing each route as it is added. */
export async function registerApiDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Florin API', version, description: API_TOKEN_GUIDE },
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
}

/**
 * Who is calling: a customer's session cookie or bearer token, an API token, a staff session.
 * Before any customer route: the API token hook gives each its token rule as it is added.
 */
export function registerCallerHooks(app: FastifyInstance, config: Config, services: AppServices): void {
  registerAuth(app, services.sessions, services.cookies);
  registerApiTokenAuth(app, {
    tokens: services.apiTokens,
    limiter: createTokenRateLimiter(config.API_TOKEN_RATE_LIMIT_PER_MINUTE),
  });
  registerStaffAuth(app, services.staffSessions);
}
