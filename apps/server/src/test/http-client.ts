import { randomBytes } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { completeInvestorJourney } from '../modules/investor/investor.test-kit.js';
import type { FileStorage } from '../adapters/storage/index.js';
import { insertApprovedVerification } from '../modules/compliance/customers.test-kit.js';
import { cookieHeader } from './browser.js';
import { UPSTREAM_HEADER } from './nginx.js';

/**
 * Customers over real HTTP, for the tests that run main.ts in processes of
 * its own (several instances, crashes): a cookie jar, the CSRF header, a
 * client address of its own, and the sign-up a customer goes through.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// A browser over real HTTP: a cookie jar, the CSRF header, its own client address (X-Forwarded-For,
// which the instances believe from nginx), and the instance that answered each request.

export type Answer = { status: number; json: unknown; text: string; upstream: string };

/** nginx's $upstream_addr lists every instance it tried ("a, b" after a refused connection); the last one answered. */
export function answeredBy(header: string | string[] | null | undefined): string {
  return (
    String(header ?? '')
      .split(',')
      .at(-1)
      ?.trim() ?? ''
  );
}

export function createClient(baseUrl: string, ip: string, served: Set<string>) {
  const cookies = new Map<string, string>();

  async function request(method: 'GET' | 'POST', url: string, body?: unknown, headers = {}): Promise<Answer> {
    if (method === 'POST' && !cookies.has('csrf_token')) await request('GET', '/api/v1/csrf');
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        accept: 'application/json',
        'x-forwarded-for': ip,
        ...(cookies.size > 0 ? { cookie: cookieHeader(cookies) } : {}),
        ...(method === 'POST'
          ? { 'content-type': 'application/json', 'x-csrf-token': cookies.get('csrf_token') ?? '' }
          : {}),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (/max-age=0\b/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return answerOf(response);
  }

  async function answerOf(response: Response): Promise<Answer> {
    const upstream = answeredBy(response.headers.get(UPSTREAM_HEADER));
    if (upstream) served.add(upstream);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON: the text says what it was.
    }
    return { status: response.status, json, text, upstream };
  }

  /** A multipart form with its fields and one file, as the upload screens send it. */
  async function upload(
    url: string,
    fields: Record<string, string>,
    file: Buffer,
    filename: string,
  ): Promise<Answer> {
    if (!cookies.has('csrf_token')) await request('GET', '/api/v1/csrf');
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([file]), filename);
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'x-forwarded-for': ip,
        cookie: cookieHeader(cookies),
        'x-csrf-token': cookies.get('csrf_token') ?? '',
      },
      body: form,
    });
    return answerOf(response);
  }

  return {
    ip,
    cookies,
    upload,
    get: (url: string) => request('GET', url),
    post: (url: string, body?: unknown, headers?: Record<string, string>) =>
      request('POST', url, body, headers),
  };
}

export type Client = ReturnType<typeof createClient>;

export async function expectOk(answer: Promise<Answer>, what: string): Promise<Answer> {
  const result = await answer;
  if (result.status < 200 || result.status > 299)
    throw new Error(`${what}: HTTP ${result.status} ${result.text.slice(0, 300)}`);
  return result;
}

export const CUSTOMER_PASSWORD = 'Harbour-Lantern-Quiet-42';

/** Registers `email` through the API and follows the verification mail: a customer who may sign in, not live yet. */
export async function signUpCustomer(client: Client, email: string): Promise<void> {
  await expectOk(
    client.post('/api/v1/user-register', {
      first_name: 'Ada',
      last_name: 'Customer',
      email,
      password: CUSTOMER_PASSWORD,
      password_confirmation: CUSTOMER_PASSWORD,
      accept_terms_and_privacy: true,
    }),
    'register',
  );
  // The mail may have been written by another instance; the link works on any.
  const mail = await until('the verification mail', async () => {
    const list = await client.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    return (list.json as { subject: string; text: string }[]).find((item) =>
      item.subject.includes('Verify your email address'),
    );
  });
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '';
  await expectOk(client.post(`/api/v1/user-verify/${link.split('/').at(-1)}`), 'verify');
}

/** Signs the customer in with their password and a solved captcha; the session is in the client's cookies. */
export async function signIn(client: Client, email: string): Promise<void> {
  // With several instances the captcha challenge comes from one and is checked by another half the time.
  const challenge = (await client.get('/api/v1/captcha/challenge')).json as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  await expectOk(
    client.post('/api/v1/login', { username: email, password: CUSTOMER_PASSWORD, altcha }),
    'login',
  );
}

/**
 * Signs up `email` (signUpCustomer), makes the customer live, verified and
 * past the investor journey in the database (identity checks and staff
 * approval are the KYC module's tests; the documents' files go to the
 * server's `storage`), and signs in.
 */
export async function signUpLiveCustomer(
  client: Client,
  db: Kysely<DB>,
  storage: FileStorage,
  email: string,
): Promise<void> {
  await signUpCustomer(client, email);
  const live = await db
    .updateTable('users')
    .set({ status: 1, live_since: new Date(), account_type: 'Individual' })
    .where('email', '=', email)
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertApprovedVerification(db, storage, live.id);
  await completeInvestorJourney(db, live.id);
  await signIn(client, email);
}

/** A key for a request that moves money. */
export const newKey = (label: string) => `${label}-${randomBytes(8).toString('hex')}`;
