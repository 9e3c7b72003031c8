import { execFileSync } from 'node:child_process';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Kysely } from 'kysely';
import { createDevMailbox } from '../adapters/mail/mailer.js';
import type { DB } from '../db/schema.js';
import { createNotifier } from '../modules/notifications/service.js';
import { testClock } from './clock.js';

let addresses = 0;

/** A cookie jar as the Cookie header a browser would send. */
export function cookieHeader(cookies: ReadonlyMap<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * A browser over app.inject: keeps cookies, sends the CSRF header from its
 * cookie on state-changing requests, and has its own IP address.
 */
export function createBrowser(app: FastifyInstance) {
  const cookies = new Map<string, string>();
  addresses += 1;
  const ip = `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;

  async function request(
    method: InjectOptions['method'],
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    if (method !== 'GET' && options.csrf !== false && !cookies.has('csrf_token')) {
      await request('GET', '/api/v1/csrf');
    }
    const headers: Record<string, string> = { ...options.headers };
    if (cookies.size > 0) headers.cookie = cookieHeader(cookies);
    const csrf = cookies.get('csrf_token');
    if (method !== 'GET' && options.csrf !== false && csrf) headers['x-csrf-token'] = csrf;
    const response = await app.inject({
      method,
      url,
      headers,
      remoteAddress: ip,
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    for (const cookie of response.cookies) {
      if (cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now()))
        cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  return {
    ip,
    cookies,
    get: (url: string, headers?: Record<string, string>) => request('GET', url, { headers }),
    post: (url: string, body?: unknown, options: { headers?: Record<string, string>; csrf?: boolean } = {}) =>
      request('POST', url, { body: body ?? {}, ...options }),
    put: (url: string, body?: unknown) => request('PUT', url, { body: body ?? {} }),
    delete: (url: string) => request('DELETE', url),
    /** Fetches and solves an ALTCHA challenge as the widget would. */
    async captcha(): Promise<string> {
      const challenge = (await request('GET', '/api/v1/captcha/challenge')).json<Challenge>();
      const solution = await solveChallenge({ challenge, deriveKey });
      return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    },
  };
}

export type Browser = ReturnType<typeof createBrowser>;

/** TOTP from Debian's oathtool, an implementation that shares no code with ours; by default at the test clock's time. */
export function oathtoolCode(secret: string, at: Date = testClock.now()): string {
  return execFileSync(
    'oathtool',
    ['--totp', '-b', secret, '--now', at.toISOString().replace('T', ' ').replace(/\..*$/, ' UTC')],
    {
      encoding: 'utf8',
    },
  ).trim();
}

/**
 * Moves the test clock past the last seconds of a 30-second TOTP step, so that
 * a code computed for a step relative to its time is still inside the server's
 * window (one step either side) when the request reaches it.
 */
export function awayFromTotpStepEdge(marginMs = 3_000): void {
  const left = 30_000 - (testClock.now().getTime() % 30_000);
  if (left < marginMs) testClock.advance(left + 50);
}

export async function mailTo(db: Kysely<DB>, to: string) {
  return db.selectFrom('dev_mailbox').selectAll().where('to', '=', to).orderBy('id', 'desc').execute();
}

/**
 * Sends the outbox's due mail as the leader's mail job does every few seconds (jobs/index.ts): a trade's
 * and a fill's mail are the sender's (issue 43, decision 136).
 */
export function sendDueMail(app: FastifyInstance, db: Kysely<DB>): Promise<{ sent: number; failed: number }> {
  const sender = createNotifier({ db, mailer: createDevMailbox(db), log: app.log, clock: testClock });
  return sender.deliverPending();
}

/**
 * The first link in the newest mail to `to` whose subject matches. Waits a little for it: registration
 * and password reset answer before their mail is written (they must not tell by their timing whether
 * an address has an account), and on PostgreSQL the test's next query can overtake the mail.
 */
export async function linkInMail(db: Kysely<DB>, to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const mail = (await mailTo(db, to)).find((message) => subject.test(message.subject));
    const url = mail && /https?:\/\/\S+/.exec(mail.text)?.[0];
    if (url) return url;
    if (attempt >= 50) throw new Error(`no mail to ${to} matching ${String(subject)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
