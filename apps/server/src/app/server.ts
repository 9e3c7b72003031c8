import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError } from '@florin/contracts';
import type { Config } from '../config.js';
import { withoutTokenInUrl } from '../modules/api-tokens/token-auth.js';

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

/** The bare Fastify instance: logging, request ids, body limit, proxy trust and the router's own refusals. */
export function createServer(config: Config): FastifyInstance {
  return Fastify({
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
}
