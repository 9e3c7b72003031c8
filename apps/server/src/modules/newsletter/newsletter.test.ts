import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEWSLETTER_TEXTS,
  type ErrorBody,
  type NewsletterCounts,
  type NewsletterSubscriber,
} from '@florin/contracts';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, mailTo, type Browser } from '../../test/browser.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';
import { parseCsv } from '../../http/csv.js';
import { newCustomer } from '../kyc/kyc.test-kit.js';

let t: TestApp;
let support: SignedInStaff;
let superadmin: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  support = await signedInStaff(t.app, t.database.db, 'support');
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

let addresses = 0;
function newEmail(label = 'reader'): string {
  addresses += 1;
  return `${label}${addresses}.${Date.now()}@florin.test`;
}

const errorOf = (response: { json: <T>() => T }) => response.json<ErrorBody>();

const subscribe = (browser: Browser, email: string) => browser.post('/api/v1/newsletter', { email });

async function subscriberRow(email: string) {
  return t.database.db
    .selectFrom('newsletter_subscribers')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** The newest newsletter mail to `email`, with the confirmation and unsubscribe links its text carries. */
async function newsletterMail(email: string) {
  const mail = (await mailTo(t.database.db, email)).find((message) => /newsletter/i.test(message.subject));
  if (!mail) throw new Error(`no newsletter mail to ${email}`);
  const confirm = /Confirm subscription: (\S+)/.exec(mail.text)?.[1];
  const unsubscribe = /Unsubscribe: (\S+)/.exec(mail.text)?.[1];
  return { mail, confirm, unsubscribe };
}

/** The token at the end of a mailed link: what the web page posts to the API. */
const tokenOf = (link: string | undefined) =>
  new URL(link ?? 'http://missing/').pathname.split('/').at(-1) ?? '';

const confirm = (browser: Browser, link: string | undefined) =>
  browser.post(`/api/v1/newsletter/confirm/${tokenOf(link)}`);

describe('signing up to the newsletter', () => {
  it('mails a link to the web page that confirms the address once; the pending address becomes confirmed', async () => {
    const visitor = createBrowser(t.app);
    const email = newEmail();
    const answer = await subscribe(visitor, email);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: NEWSLETTER_TEXTS.signedUp });

    const pending = await subscriberRow(email);
    expect(pending).toMatchObject({
      status: 'pending',
      confirmed_at: null,
      consent_text: NEWSLETTER_TEXTS.consent,
      consent_ip: visitor.ip,
    });

    const { mail, confirm: link, unsubscribe } = await newsletterMail(email);
    expect(mail.subject).toBe('Please confirm your newsletter subscription — Florin');
    expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/newsletter/confirm/[A-Za-z0-9_-]{43}$`));
    // Even the confirmation mail lets the reader say no, before they have said yes.
    expect(unsubscribe).toMatch(
      new RegExp(`^${t.config.publicUrl}/newsletter/unsubscribe/[A-Za-z0-9_-]{43}$`),
    );
    expect(mail.html).toContain(`href="${unsubscribe}"`);
    // Only the link's hash is kept: the table alone confirms nobody.
    const token = tokenOf(link);
    expect(pending?.confirm_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(pending)).not.toContain(token);

    const confirmed = await confirm(createBrowser(t.app), link);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: NEWSLETTER_TEXTS.confirmed });
    const row = await subscriberRow(email);
    expect(row?.status).toBe('confirmed');
    expect(row?.confirmed_at).toBeInstanceOf(Date);

    // The same link again: refused, and the address stays confirmed.
    const reused = await confirm(createBrowser(t.app), link);
    expect(reused.statusCode).toBe(404);
    expect(errorOf(reused)).toMatchObject({
      code: 'NOT_FOUND',
      message: NEWSLETTER_TEXTS.confirmLinkInvalid,
    });
    expect(await subscriberRow(email)).toMatchObject({
      status: 'confirmed',
      confirmed_at: row?.confirmed_at,
    });
  });

  it('refuses a link past its 7 days, and a link a newer sign-up replaced; the newest one works', async () => {
    const visitor = createBrowser(t.app);
    const email = newEmail();
    await subscribe(visitor, email);
    const pending = await subscriberRow(email);
    const lapse = pending?.confirm_expires_at?.getTime() ?? 0;
    expect(lapse - pending!.consent_at.getTime()).toBeGreaterThanOrEqual(7 * 86_400_000 - 1_000);
    expect(lapse - pending!.consent_at.getTime()).toBeLessThanOrEqual(7 * 86_400_000 + 1_000);
    const first = (await newsletterMail(email)).confirm;

    await t.database.db
      .updateTable('newsletter_subscribers')
      .set({ confirm_expires_at: new Date(Date.now() - 1_000) })
      .where('email', '=', email)
      .execute();
    const expired = await confirm(visitor, first);
    expect(expired.statusCode).toBe(409);
    expect(errorOf(expired)).toMatchObject({
      code: 'CONFLICT',
      message: NEWSLETTER_TEXTS.confirmLinkExpired,
    });
    expect((await subscriberRow(email))?.status).toBe('pending');

    await subscribe(visitor, email);
    const second = (await newsletterMail(email)).confirm;
    expect(second).not.toBe(first);
    expect((await confirm(visitor, first)).statusCode).toBe(404);
    expect((await confirm(visitor, second)).statusCode).toBe(200);
    expect((await subscriberRow(email))?.status).toBe('confirmed');
  });

  it('answers the same for a new, a pending and a confirmed address; a confirmed one stays as it was', async () => {
    const visitor = createBrowser(t.app);
    const fresh = newEmail();
    const pending = newEmail();
    const confirmed = newEmail();
    await subscribe(visitor, pending);
    await subscribe(visitor, confirmed);
    await confirm(visitor, (await newsletterMail(confirmed)).confirm);
    const before = await subscriberRow(confirmed);

    const answers = await Promise.all(
      [fresh, pending, confirmed.toUpperCase()].map((email) => subscribe(visitor, email)),
    );
    const seen = answers.map((answer) => ({ status: answer.statusCode, body: answer.body }));
    expect(seen).toEqual([seen[0], seen[0], seen[0]]);
    expect(seen[0]).toEqual({ status: 200, body: JSON.stringify({ message: NEWSLETTER_TEXTS.signedUp }) });

    // One row per address, whatever its case; the confirmed one unchanged (consent and all).
    expect(await subscriberRow(confirmed)).toEqual(before);
    const count = await t.database.db
      .selectFrom('newsletter_subscribers')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('email', 'in', [fresh, pending, confirmed])
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(3);
    // The confirmed address is told, in its own mailbox, that nothing changed, with a way out.
    const told = await newsletterMail(confirmed);
    expect(told.mail.subject).toBe('You are already subscribed to the Florin newsletter — Florin');
    expect(told.confirm).toBeUndefined();
    expect(told.unsubscribe).toMatch(/\/newsletter\/unsubscribe\//);
  });

  it('refuses an address that is not one with a field error, storing and mailing nothing', async () => {
    const visitor = createBrowser(t.app);
    for (const email of ['not-an-email', '', 'a@b', `${'x'.repeat(250)}@florin.test`]) {
      const response = await subscribe(visitor, email);
      expect(response.statusCode, email).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(errorOf(response).errors?.email, email).toBeDefined();
    }
    expect(errorOf(await subscribe(visitor, 'not-an-email')).errors?.email).toEqual([
      NEWSLETTER_TEXTS.emailInvalid,
    ]);
    const extra = await visitor.post('/api/v1/newsletter', { email: newEmail(), consent: 'yes' });
    expect(extra.statusCode).toBe(422);
    expect(errorOf(extra).errors?.consent).toEqual(['This field is not allowed.']);

    const rows = await t.database.db
      .selectFrom('newsletter_subscribers')
      .select('email')
      .where('consent_ip', '=', visitor.ip)
      .execute();
    expect(rows).toEqual([]);
    expect(await mailTo(t.database.db, 'not-an-email')).toEqual([]);
  });

  it('refuses a malformed or unknown confirmation link without changing anything', async () => {
    const visitor = createBrowser(t.app);
    const malformed = await visitor.post('/api/v1/newsletter/confirm/short');
    expect(malformed.statusCode).toBe(422);
    expect(errorOf(malformed).errors?.token).toEqual([NEWSLETTER_TEXTS.confirmLinkInvalid]);
    const unknown = await visitor.post(`/api/v1/newsletter/confirm/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe(NEWSLETTER_TEXTS.confirmLinkInvalid);
  });

  it('takes 10 sign-ups an hour from one address, then 429; other visitors are not held up', async () => {
    const crowd = createBrowser(t.app);
    for (let i = 0; i < 10; i += 1) expect((await subscribe(crowd, newEmail('crowd'))).statusCode).toBe(200);
    const email = newEmail('crowd');
    const limited = await subscribe(crowd, email);
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(TOO_MANY_ATTEMPTS) as string,
    });
    expect(await subscriberRow(email)).toBeUndefined();
    expect((await subscribe(createBrowser(t.app), newEmail())).statusCode).toBe(200);
  });

  it('mails one address at most 3 times an hour, answering the same after that', async () => {
    const email = newEmail('flooded');
    for (let i = 0; i < 5; i += 1) {
      const answer = await subscribe(createBrowser(t.app), email);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ message: NEWSLETTER_TEXTS.signedUp });
    }
    expect(await mailTo(t.database.db, email)).toHaveLength(3);
  });
});

describe('unsubscribing', () => {
  it('takes the address off the list with the link from any mail, also when clicked again', async () => {
    const visitor = createBrowser(t.app);
    const email = newEmail();
    await subscribe(visitor, email);
    const { confirm: link, unsubscribe } = await newsletterMail(email);
    await confirm(visitor, link);

    const first = await visitor.post(`/api/v1/newsletter/unsubscribe/${tokenOf(unsubscribe)}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: NEWSLETTER_TEXTS.unsubscribed });
    const row = await subscriberRow(email);
    expect(row?.status).toBe('unsubscribed');
    expect(row?.unsubscribed_at).toBeInstanceOf(Date);
    const again = await visitor.post(`/api/v1/newsletter/unsubscribe/${tokenOf(unsubscribe)}`);
    expect(again.statusCode).toBe(200);
    expect((await subscriberRow(email))?.unsubscribed_at).toEqual(row?.unsubscribed_at);

    const unknown = await visitor.post(`/api/v1/newsletter/unsubscribe/${'B'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe(NEWSLETTER_TEXTS.unsubscribeLinkInvalid);

    // Signing up again needs a new confirmation; the old unsubscribe link still works.
    await subscribe(visitor, email);
    expect((await subscriberRow(email))?.status).toBe('pending');
    const renewed = await newsletterMail(email);
    expect(renewed.unsubscribe).toBe(unsubscribe);
    expect((await confirm(visitor, renewed.confirm)).statusCode).toBe(200);
    expect((await subscriberRow(email))?.status).toBe('confirmed');
  });

  it('kills a pending confirmation link: an unsubscribed address cannot be confirmed by it', async () => {
    const visitor = createBrowser(t.app);
    const email = newEmail();
    await subscribe(visitor, email);
    const { confirm: link, unsubscribe } = await newsletterMail(email);
    expect((await visitor.post(`/api/v1/newsletter/unsubscribe/${tokenOf(unsubscribe)}`)).statusCode).toBe(
      200,
    );
    expect((await confirm(visitor, link)).statusCode).toBe(404);
    expect((await subscriberRow(email))?.status).toBe('unsubscribed');
  });
});

describe('the back office', () => {
  type ListAnswer = { counts: NewsletterCounts; data: NewsletterSubscriber[]; total: number };

  async function subscribed(email: string, state: 'pending' | 'confirmed' | 'unsubscribed') {
    const visitor = createBrowser(t.app);
    await subscribe(visitor, email);
    const links = await newsletterMail(email);
    if (state !== 'pending') await confirm(visitor, links.confirm);
    if (state === 'unsubscribed')
      await visitor.post(`/api/v1/newsletter/unsubscribe/${tokenOf(links.unsubscribe)}`);
  }

  it('lets support and superadmins export only the confirmed addresses, CSV safe for spreadsheets, and audits it', async () => {
    const formula = `+1+1${Date.now()}@florin.test`;
    const minus = `-2+3${Date.now()}@florin.test`;
    const plain = newEmail('plain');
    const pending = newEmail('pending');
    const gone = newEmail('gone');
    await subscribed(formula, 'confirmed');
    await subscribed(minus, 'confirmed');
    await subscribed(plain, 'confirmed');
    await subscribed(pending, 'pending');
    await subscribed(gone, 'unsubscribed');

    for (const staff of [support, superadmin]) {
      const response = await staff.browser.get('/api/admin/newsletter/subscribers.csv');
      expect(response.statusCode, staff.role).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const [header, ...rows] = parseCsv(response.body);
      expect(header).toEqual(['email', 'confirmed_at', 'consent', 'consent_at']);
      const emails = rows.map((row) => row[0]);
      // A cell a spreadsheet would run as a formula is prefixed with a quote mark.
      expect(emails).toEqual(expect.arrayContaining([`'${formula}`, `'${minus}`, plain]));
      expect(emails).not.toContain(formula);
      expect(emails).not.toContain(pending);
      expect(emails).not.toContain(gone);
      const row = rows.find((cells) => cells[0] === plain);
      expect(row?.[1]).toBe((await subscriberRow(plain))?.confirmed_at?.toISOString());
      expect(row?.[2]).toBe(NEWSLETTER_TEXTS.consent);
      expect(row?.[3]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['staff_id', 'action'])
      .where('action', '=', 'newsletter.exported')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { staff_id: support.id, action: 'newsletter.exported' },
        { staff_id: superadmin.id, action: 'newsletter.exported' },
      ]),
    );
  });

  it('shows support the counts by status and finds a subscriber by part of the address', async () => {
    const before = (await support.browser.get('/api/admin/newsletter/subscribers')).json<ListAnswer>().counts;
    const email = newEmail('findme');
    await subscribed(email, 'confirmed');
    await subscribed(newEmail('waiting'), 'pending');
    await subscribed(newEmail('left'), 'unsubscribed');

    const list = await support.browser.get('/api/admin/newsletter/subscribers');
    expect(list.statusCode).toBe(200);
    const answer = list.json<ListAnswer>();
    expect(answer.counts).toEqual({
      pending: before.pending + 1,
      confirmed: before.confirmed + 1,
      unsubscribed: before.unsubscribed + 1,
    });
    expect(answer.total).toBe(before.pending + before.confirmed + before.unsubscribed + 3);

    const found = await support.browser.get(
      `/api/admin/newsletter/subscribers?q=${encodeURIComponent(email.toUpperCase())}`,
    );
    const match = found.json<ListAnswer>();
    expect(match.total).toBe(1);
    expect(match.data).toHaveLength(1);
    expect(match.data[0]).toMatchObject({ email, status: 'confirmed', unsubscribed_at: null });
    expect(match.data[0]?.confirmed_at).toBe((await subscriberRow(email))?.confirmed_at?.toISOString());
    // % and _ are letters here, not wildcards.
    expect(
      (await support.browser.get('/api/admin/newsletter/subscribers?q=%25')).json<ListAnswer>().total,
    ).toBe(0);
  });

  it('is not there for compliance, finance, customers or anyone else', async () => {
    const compliance = await signedInStaff(t.app, t.database.db, 'compliance');
    const finance = await signedInStaff(t.app, t.database.db, 'finance');
    const customer = await newCustomer(t);
    for (const url of ['/api/admin/newsletter/subscribers', '/api/admin/newsletter/subscribers.csv']) {
      for (const browser of [compliance.browser, finance.browser, createBrowser(t.app)]) {
        const response = await browser.get(url);
        expect(response.statusCode, url).toBe(404);
        expect(errorOf(response).code).toBe('NOT_FOUND');
      }
      expect((await customer.get(url)).statusCode).toBe(404);
    }
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('staff_id')
      .where('action', '=', 'newsletter.exported')
      .where('staff_id', 'in', [compliance.id, finance.id])
      .execute();
    expect(audit).toEqual([]);
  });
});
