import type { FastifySchema, RouteOptions } from 'fastify';
import { API_TOKEN_PERMISSIONS } from '@florin/contracts';
import { TOKEN_USE_DESCRIPTIONS } from './token-rules.js';

/** The OpenAPI security scheme an API token is sent with. */
export const API_TOKEN_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: 'An API token (flr_…) generated on the Account page, API tab.',
} as const;

/** The top of the OpenAPI page: how a program uses a token. */
export const API_TOKEN_GUIDE = `## API tokens

Generate a token on the Account page (API tab). It is shown once: keep it like a password.
Send it as a bearer credential:

\`\`\`sh
curl -H "Authorization: Bearer flr_…" https://florin.example/api/v1/balance?percentage=true
\`\`\`

The balance also takes the token in the query (\`GET /api/v1/balance?token=flr_…&percentage=true\`).
Each route says what a token may do there (\`x-florin-token\`: read, trade, withdraw or none).
Permissions: ${Object.entries(API_TOKEN_PERMISSIONS)
  .map(([id, name]) => `${id} ${name}`)
  .join(', ')}; every permission reads.
A deleted or unknown token is answered 401; a token without the permission, or used from outside
its IP allowlist, 403; more than the token's requests per minute, 429.`;

/**
 * Adds a customer route's token rule to its OpenAPI operation: a line in the
 * description, the `x-florin-token` extension and, where tokens are
 * admitted, the apiToken security scheme beside the session's.
 */
export function documentTokenRule<T extends { schema: FastifySchema; url: string }>(
  transformed: T,
  route: RouteOptions,
): T {
  if (route.config?.access !== 'customer') return transformed;
  const use = route.config.token ?? 'none';
  // A route without a schema (the CSV export) has none to extend.
  const schema = (transformed.schema ?? {}) as FastifySchema & { description?: string };
  return {
    ...transformed,
    schema: {
      ...schema,
      description: [schema.description, TOKEN_USE_DESCRIPTIONS[use]].filter(Boolean).join('\n\n'),
      'x-florin-token': use,
      security: [{ cookie: [] }, { bearer: [] }, ...(use === 'none' ? [] : [{ apiToken: [] }])],
    },
  };
}
