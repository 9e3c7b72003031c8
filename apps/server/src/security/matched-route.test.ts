import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, type AppRoute } from '../http/route.js';
import { CSRF, createTestApp, type TestApp } from '../test/app.js';
import { changedTables, databaseFingerprint } from '../test/fingerprint.js';
import { STATE_CHANGING, sweptRoutes } from '../test/route-sweep.js';

/**
 * Issue 40, finding 2: every protection decides on the route the router matched, never on the raw
 * URL. The router decodes percent-escapes, so /%61pi/v1/balance reaches GET /api/v1/balance; it is
 * case-sensitive and takes no doubled slash, trailing dot or slash, `;` parameter or escaped slash
 * (Fastify's defaults, which buildApp keeps), so those reach no route. Every route the authorization
 * matrix knows is called at its plain path and at each variant, and must be answered alike: the same
 * refusal, Cache-Control and CSRF cookie where the variant reaches the route, an unknown path's 404
 * where it does not.
 */

const GLOBAL_LIMIT = 40;
const FOREIGN_ORIGIN = 'https://evil.example';

type Variant = {
  name: string;
  /** Whether the router takes the variant to the same route as the plain path. */
  routed: boolean;
  /** The variant of a path; undefined where it does not apply (a path of one segment has no inner slash). */
  of: (path: string, route: AppRoute) => string | undefined;
};

function escaped(text: string, upper = false): string {
  return [...text]
    .map((character) => {
      const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

/** A path's first segment changed by `change`, the rest kept. */
function firstSegment(path: string, change: (segment: string) => string): string {
  const [, first = '', ...rest] = path.split('/');
  return ['', change(first), ...rest].join('/');
}

/** Whether a route's path ends in a fixed segment (not a parameter or wildcard, which would take a trailing dot). */
function endsFixed(route: AppRoute): boolean {
  const last = route.url.split('/').at(-1) ?? '';
  return last !== '' && !last.startsWith(':') && last !== '*';
}

/**
 * Whether a trailing slash names no route: where a route of the same method takes a parameter after
 * this path (/api/v1/investor/assessment/:attemptId), the slash reaches that one with an empty one.
 */
function slashNamesNoRoute(route: AppRoute): boolean {
  const { method, url } = route;
  return (
    endsFixed(route) &&
    !t.app.hasRoute({ method, url: `${url}/` }) &&
    !listRoutes(t.app).some((other) => other.method === method && other.url.startsWith(`${url}/:`))
  );
}

/**
 * Routes whose handler reads the file's name from the raw URL (@fastify/static's wildcard): a variant
 * reaches them but finds no file, so is answered as an unknown path.
 */
const READS_RAW_URL = new Set(['GET /api/docs/static/*']);

const VARIANTS: readonly Variant[] = [
  {
    name: 'its first letter escaped',
    routed: true,
    of: (path) => firstSegment(path, (segment) => `${escaped(segment.slice(0, 1))}${segment.slice(1)}`),
  },
  {
    name: 'its first segment escaped in upper-case hex',
    routed: true,
    of: (path) => firstSegment(path, (segment) => escaped(segment, true)),
  },
  {
    name: 'every letter escaped',
    routed: true,
    of: (path) => path.replace(/[a-z]/gi, (letter) => escaped(letter)),
  },
  { name: 'a doubled leading slash', routed: false, of: (path) => `/${path}` },
  {
    name: 'a doubled slash after its first segment',
    routed: false,
    of: (path) => (path.indexOf('/', 1) > 0 ? path.replace(/^(\/[^/]+)\//, '$1//') : undefined),
  },
  {
    name: 'its first segment in mixed case',
    routed: false,
    of: (path) => firstSegment(path, (segment) => `${segment.charAt(0).toUpperCase()}${segment.slice(1)}`),
  },
  { name: 'a dot after its first segment', routed: false, of: (path) => firstSegment(path, (s) => `${s}.`) },
  {
    name: 'a ; parameter on its first segment',
    routed: false,
    of: (path) => firstSegment(path, (segment) => `${segment};x=1`),
  },
  {
    name: 'its first inner slash escaped',
    routed: false,
    of: (path) => (path.indexOf('/', 1) > 0 ? path.replace(/^(\/[^/]+)\//, '$1%2F') : undefined),
  },
  { name: 'a trailing dot', routed: false, of: (path, route) => (endsFixed(route) ? `${path}.` : undefined) },
  {
    name: 'a trailing slash',
    routed: false,
    of: (path, route) => (slashNamesNoRoute(route) ? `${path}/` : undefined),
  },
];

const ROUTED = VARIANTS.filter((variant) => variant.routed);

/** The two refusals every route is probed for. */
type Condition = {
  name: string;
  appliesTo: (route: AppRoute) => boolean;
  headers: (method: string) => Record<string, string>;
};

const CONDITIONS: readonly Condition[] = [
  {
    // Changes are refused for want of the CSRF proof; reads are answered as to anyone.
    name: 'no CSRF token, from a foreign Origin, without a session',
    appliesTo: () => true,
    headers: () => ({ origin: FOREIGN_ORIGIN }),
  },
  {
    // A change with the CSRF proof, so what refuses is the missing session (401) or the back office's door (404).
    name: 'with the CSRF proof, without a session',
    appliesTo: (route) => route.access !== 'public' && STATE_CHANGING.has(route.method),
    headers: () => ({ ...CSRF }),
  },
];

let t: TestApp;
let addresses = 0;

/** Each call from an address of its own, so no count of one call's address reaches another's. */
function freshAddress(): string {
  addresses += 1;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
}

function probePath(route: AppRoute): string {
  return route.url.replace(/\*$/, 'swagger-ui.css').replace(/:\w+/g, '0');
}

function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  remoteAddress = freshAddress(),
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: method as InjectOptions['method'], url, headers, remoteAddress });
}

/** What an API client notices of an answer: its status and code, whether it may be cached, and the CSRF cookie. */
function answerOf(response: LightMyRequestResponse): string {
  const code = String(response.headers['content-type']).includes('json')
    ? response.json<{ code?: string }>().code
    : undefined;
  const csrfCookie = response.cookies.some((cookie) => cookie.name === 'csrf_token');
  return `${response.statusCode} ${code} cache-control=${String(response.headers['cache-control'])} csrf-cookie=${csrfCookie}`;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(GLOBAL_LIMIT) } });
});
afterAll(async () => {
  await t.close();
});

describe('every protection decides on the matched route', () => {
  it('answers every variant of every route as its plain path, or as an unknown path where no route is reached', async () => {
    const before = await databaseFingerprint(t.database.db);
    const differences: string[] = [];
    const unknown = new Map<string, string>();
    let calls = 0;
    for (const route of sweptRoutes(t.app)) {
      const path = probePath(route);
      for (const condition of CONDITIONS.filter((each) => each.appliesTo(route))) {
        const headers = condition.headers(route.method);
        const unknownKey = `${route.method} ${JSON.stringify(headers)}`;
        if (!unknown.has(unknownKey))
          unknown.set(unknownKey, answerOf(await send(route.method, '/no-such-route', headers)));
        const variants = VARIANTS.flatMap((variant) => {
          const url = variant.of(path, route);
          return url === undefined ? [] : [{ variant, url }];
        });
        // The plain path first, so what it caches (the OpenAPI document) is made once.
        const plain = answerOf(await send(route.method, path, headers));
        const answers = await Promise.all(
          variants.map(async ({ url }) => answerOf(await send(route.method, url, headers))),
        );
        calls += variants.length + 1;
        variants.forEach(({ variant, url }, index) => {
          const reachesRoute = variant.routed && !READS_RAW_URL.has(`${route.method} ${route.url}`);
          const expected = reachesRoute ? plain : unknown.get(unknownKey);
          if (answers[index] !== expected)
            differences.push(
              `${route.method} ${url} (${variant.name}; ${condition.name}): ${answers[index]}, expected ${expected}`,
            );
        });
      }
    }
    expect(differences).toEqual([]);
    // The sweep is no smaller than it looks: every route, most at every variant.
    expect(calls).toBeGreaterThan(sweptRoutes(t.app).length * VARIANTS.length);
    expect(changedTables(before, await databaseFingerprint(t.database.db))).toEqual([]);
  });

  it('counts a variant under the same key as the plain path for the global rate limit', async () => {
    const address = freshAddress();
    const paths = ['/api/v1/site', ...ROUTED.map((variant) => variant.of('/api/v1/site', siteRoute()))];
    const urls = Array.from({ length: GLOBAL_LIMIT }, (_, index) => paths[index % paths.length] ?? '');
    for (const url of urls) expect((await send('GET', url, {}, address)).statusCode, url).toBe(200);
    for (const url of paths) {
      const response = await send('GET', url ?? '', {}, address);
      expect([response.statusCode, response.json<{ code: string }>().code], url).toEqual([
        429,
        'RATE_LIMITED',
      ]);
    }
    // Another address is counted apart.
    expect((await send('GET', '/%61pi/v1/site', {})).statusCode).toBe(200);
  });

  it("counts a variant under the same key as the plain path for a route's own rate limit", async () => {
    // POST /api/v1/referral_custom/:id allows 30 a minute from one address (modules/referrals/routes.ts).
    const route = sweptRoutes(t.app).find((each) => each.url === '/api/v1/referral_custom/:id');
    if (!route) throw new Error('POST /api/v1/referral_custom/:id is not registered');
    const address = freshAddress();
    const plain = '/api/v1/referral_custom/nobody';
    const paths = [plain, ...ROUTED.map((variant) => variant.of(plain, route) ?? '')];
    for (let index = 0; index < 30; index += 1) {
      const url = paths[index % paths.length] ?? '';
      expect((await send('POST', url, { ...CSRF }, address)).statusCode, url).toBe(404);
    }
    for (const url of paths) {
      const response = await send('POST', url, { ...CSRF }, address);
      expect([response.statusCode, response.json<{ code: string }>().code], url).toEqual([
        429,
        'RATE_LIMITED',
      ]);
    }
  });
});

function siteRoute(): AppRoute {
  const route = sweptRoutes(t.app).find((each) => each.method === 'GET' && each.url === '/api/v1/site');
  if (!route) throw new Error('GET /api/v1/site is not registered');
  return route;
}
