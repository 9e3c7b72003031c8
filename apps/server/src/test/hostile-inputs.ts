import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import { z } from 'zod';
import type { AppRoute } from '../http/route.js';
import { multipart } from '../modules/kyc/kyc.test-kit.js';

/** One request's worth of bad input for a route: its URL (path parameters and query) and its raw body. */
export type HostileInput = {
  kind: string;
  url: string;
  body?: string;
  contentType?: string;
};

/** Values no field of ours should take as they are: wrong types, edge numbers, hostile text. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0.000001,
  1.5,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  [],
  [1, 2],
  {},
  { nested: { deeper: [] } },
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202egnp.exe',
  '\ufeff1',
  '\u00a0',
  'e\u0301\u0301\u0301',
  '🏦💸'.repeat(500),
  '𝟙𝟘𝟘',
  '١٢٣',
  'x'.repeat(100_000),
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%2e%2e%2f',
  '${7*7}',
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  'null',
  'true',
  '-1',
  '-0',
  '0',
  '0.0000000000000000000001',
  '1e3',
  '1E-8',
  '1e400',
  '0x10',
  '0b11',
  '1_000',
  '1,5',
  ' 1',
  '1 ',
  '+1',
  '.5',
  '5.',
  '1.123456789012345678901',
  '99999999999999999999999999999999999999',
  '__proto__',
  'constructor',
];

/** Fields nobody may set through the API: a strict contract refuses them (mass assignment). */
const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'user_id',
  'userId',
  'role',
  'status',
  'balance',
  'is_admin',
  'email_verified_at',
  'platform',
  'kyc_status',
  'fee_plan',
] as const;

/** JSON that is not JSON, or JSON no JSON.stringify would write: each a body of its own. */
const RAW_BODIES: readonly string[] = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[',
  'undefined',
  'NaN',
  '{"__proto__":{"is_admin":true}}',
  '{"constructor":{"prototype":{"is_admin":true}}}',
  '{"amount":"1","amount":"-1"}',
  '{"a":1e400}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `{"a":"${'\\u0000'.repeat(1_000)}"}`,
  '\u0000',
];

const BAD_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=nothing',
  'application/json; charset=utf-7',
] as const;

function shapeOf(schema: unknown): Record<string, z.ZodType> {
  return schema instanceof z.ZodObject ? schema.shape : {};
}

function fails(schema: unknown, value: unknown): boolean {
  return !(schema instanceof z.ZodType) || !schema.safeParse(value).success;
}

const hostileValue = fc.constantFrom(...HOSTILE_VALUES);

/** Already percent-encoded: bytes that are not UTF-8, a lone %, an encoded NUL and slash. */
const RAW_URL_PARTS = ['%ED%A0%80', '%FF%FE', '%', '%zz', '%00', '..%2F..%2F', '%C0%AE%C0%AE%2F'] as const;

/** A value as one URL part: text as UTF-8 bytes, every byte escaped (lone surrogates too), anything else as JSON. */
function urlPart(value: unknown): string {
  // URLs are short: a long value is cut to what a URL could carry (bodies get it whole).
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 600);
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** A hostile value for a URL part, encoded or already raw. */
const hostileUrlPart = fc.oneof(
  { weight: 4, arbitrary: hostileValue.map(urlPart) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PARTS) },
);

/** The route's path with each parameter a harmless '1', or, for the one named, a hostile value. */
function pathOf(route: AppRoute, hostile?: { name: string; value: string }): string {
  return route.url
    .replace(/\*$/, 'anything')
    .replace(/:(\w+)/g, (_all, name: string) => (hostile?.name === name ? hostile.value : '1'));
}

/** Bodies that are an object of the contract's own keys (and strangers), every value hostile. */
function objectBodies(route: AppRoute): fc.Arbitrary<HostileInput> {
  const keys = Object.keys(shapeOf(route.schema.body));
  const known = keys.length > 0 ? fc.subarray(keys) : fc.constant<string[]>([]);
  const extra = fc.subarray([...EXTRA_KEYS], { maxLength: 2 });
  return fc
    .tuple(known, extra, fc.array(hostileValue, { minLength: 16, maxLength: 16 }))
    .map(([own, strangers, values]) => {
      const body: Record<string, unknown> = {};
      [...new Set([...own, ...strangers])].forEach((key, index) => {
        Object.defineProperty(body, key, { value: values[index % values.length], enumerable: true });
      });
      return {
        kind: strangers.length > 0 ? 'extra fields' : 'hostile values',
        url: pathOf(route),
        body: JSON.stringify(body),
      };
    })
    .filter((input) => fails(route.schema.body, JSON.parse(input.body ?? 'null')));
}

function nonObjectBodies(route: AppRoute): fc.Arbitrary<HostileInput> {
  return hostileValue
    .filter((value) => fails(route.schema.body, value))
    .map((value) => ({ kind: 'wrong type', url: pathOf(route), body: JSON.stringify(value) }));
}

/** Bodies every route refuses before reading them: broken JSON, foreign types, a body over the limit. */
function unreadableBodies(route: AppRoute): fc.Arbitrary<HostileInput> {
  return fc.oneof(
    fc.constantFrom(...RAW_BODIES).map((body) => ({ kind: 'raw JSON', url: pathOf(route), body })),
    fc
      .tuple(fc.constantFrom(...BAD_CONTENT_TYPES), fc.string({ maxLength: 64 }))
      .map(([contentType, body]) => ({ kind: 'content type', url: pathOf(route), body, contentType })),
    fc.constant({
      kind: 'oversized',
      url: pathOf(route),
      body: JSON.stringify({ a: 'x'.repeat(1_100_000) }),
    }),
  );
}

/** What the route's contract makes of one parameter of `url`, or undefined when it refuses it. */
function parsedParam(route: AppRoute, url: string, name: string): unknown {
  const pattern = new RegExp(`^${route.url.replace(/:(\w+)/g, '(?<$1>[^/]*)')}$`);
  const raw = url.match(pattern)?.groups ?? {};
  let decoded: Record<string, string>;
  try {
    decoded = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
  const schema = route.schema.params;
  if (!(schema instanceof z.ZodType)) return decoded[name];
  const parsed = schema.safeParse(decoded);
  return parsed.success ? (parsed.data as Record<string, unknown>)[name] : undefined;
}

/** A hostile value in one path parameter. */
function hostileParams(route: AppRoute): fc.Arbitrary<HostileInput> | null {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  if (names.length === 0) return null;
  return (
    fc
      .tuple(fc.constantFrom(...names), hostileUrlPart)
      .map(([name, value]) => ({ name, url: pathOf(route, { name, value: value || '%20' }) }))
      // A number written another way (" 1", "0x1", "1e0") is still the number: an id, not bad input.
      .filter(({ name, url }) => url.length < 8_000 && typeof parsedParam(route, url, name) !== 'number')
      .map(({ url }) => ({ kind: 'hostile parameter', url }))
  );
}

/** Query strings with hostile values, repeated names and strangers. */
function hostileQueries(route: AppRoute): fc.Arbitrary<HostileInput> {
  const keys = [...Object.keys(shapeOf(route.schema.querystring)), 'skip', 'take', 'token', ...EXTRA_KEYS];
  const pair = fc
    .tuple(fc.constantFrom(...keys), hostileUrlPart)
    .map(([key, value]) => `${urlPart(key)}=${value}`);
  return fc
    .array(pair, { minLength: 1, maxLength: 4 })
    .map((pairs) => ({ kind: 'hostile query', url: `${pathOf(route)}?${[...pairs, ...pairs].join('&')}` }))
    .filter(
      (input) =>
        input.url.length < 8_000 &&
        // A change must be refused: its query then breaks the contract (a GET may ignore strangers).
        (route.method === 'GET' ||
          fails(route.schema.querystring, { ...parseQuery(input.url.split('?')[1] ?? '') })),
    );
}

/** Keys every plain object already has: a map built on `{}` finds Object.prototype's (issue 40). */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf'] as const;
/** More digits than any amount column holds (NUMERIC(40,0) minor units). */
const FORTY_DIGITS = '1234567890123456789012345678901234567890';
/** Values tried, in order, for the other fields of a body, so that only the field under test is wrong. */
const PLAUSIBLE_VALUES: readonly unknown[] = [
  'btc',
  'gbp',
  'GBP',
  'BTC',
  1,
  2,
  '1',
  true,
  'a@example.com',
  'x',
];

function bodyInput(route: AppRoute, kind: string, body: string, contentType?: string): HostileInput {
  return { kind, url: pathOf(route), body, ...(contentType ? { contentType } : {}) };
}

/** A multipart form of text fields, as the upload routes read them. */
function multipartBody(fields: Record<string, string>): { body: string; contentType: string } {
  const form = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  return { body: form.payload.toString(), contentType: form.headers['content-type'] };
}

/** A field takes decimal text: "1" passes its own schema and a word does not (amounts, prices, limits). */
function takesDecimalText(schema: z.ZodType): boolean {
  return schema.safeParse('1').success && !schema.safeParse('a').success;
}

/**
 * The cases every route gets whatever the count (issue 40): keys named after Object.prototype's
 * members in the body (top level and nested), the query and a multipart form, and a 40-digit figure
 * in each field that takes decimal text, the other fields as plausible as their contract allows.
 */
function fixedInputsFor(route: AppRoute): HostileInput[] {
  const inputs: HostileInput[] = [];
  const changes = route.method !== 'GET';
  if (route.schema.querystring || !changes)
    for (const key of PROTOTYPE_KEYS)
      inputs.push({ kind: 'prototype key in query', url: `${pathOf(route)}?${key}=1&${key}=x` });
  if (!changes) return inputs;
  const shape = shapeOf(route.schema.body);
  const keys = Object.keys(shape);
  for (const key of PROTOTYPE_KEYS) {
    inputs.push(bodyInput(route, 'prototype key', `{"${key}":"x"}`));
    if (keys[0]) inputs.push(bodyInput(route, 'nested prototype key', `{"${keys[0]}":{"${key}":"x"}}`));
    if (!route.schema.body) {
      // The upload routes read a multipart form; every other route refuses one before reading it.
      const asField = multipartBody({ [key]: 'x' });
      inputs.push(bodyInput(route, 'prototype key in a form', asField.body, asField.contentType));
      const inParameters = multipartBody({ parameters: `{"user_id":1,"key":"passport","${key}":"x"}` });
      inputs.push(
        bodyInput(route, 'prototype key in parameters', inParameters.body, inParameters.contentType),
      );
    }
  }
  const plausible = Object.fromEntries(
    keys.flatMap((key) => {
      const value = PLAUSIBLE_VALUES.find((candidate) => shape[key]?.safeParse(candidate).success);
      return value === undefined ? [] : [[key, value]];
    }),
  );
  for (const key of keys.filter((name) => shape[name] && takesDecimalText(shape[name]))) {
    inputs.push(bodyInput(route, '40-digit figure', JSON.stringify({ ...plausible, [key]: FORTY_DIGITS })));
  }
  return inputs;
}

/**
 * `count` bad inputs for a route, drawn with fast-check from `seed` (so a
 * failure can be replayed), after the fixed cases every route gets. A route that
 * changes state gets only inputs its contract refuses, so any of them that it
 * accepts is a finding.
 */
export function hostileInputsFor(route: AppRoute, count: number, seed: number): HostileInput[] {
  const changes = route.method !== 'GET';
  const parts: Array<fc.Arbitrary<HostileInput>> = [];
  const params = hostileParams(route);
  if (params) parts.push(params);
  if (!changes || route.schema.querystring) parts.push(hostileQueries(route));
  if (changes) {
    parts.push(unreadableBodies(route));
    if (route.schema.body) parts.push(objectBodies(route), nonObjectBodies(route));
  }
  return [...fixedInputsFor(route), ...fc.sample(fc.oneof(...parts), { numRuns: count, seed })];
}
