import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERTS_TEXTS, ErrorBodySchema, NOTIFICATION_FLAGS, type NotificationFlags } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  awayFromTotpStepEdge,
  createBrowser,
  linkInMail,
  oathtoolCode,
  sendDueMail,
  type Browser,
} from '../../test/browser.js';
import { moneyPaths } from '../../test/money-paths.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { NOTIFICATIONS } from '../notifications/catalogue.js';
import { createNotifier } from '../notifications/service.js';
import { createAlertsRepository } from './repository.js';
import { createAlertsService } from './service.js';
import { testClock } from '../../test/clock.js';

let t: TestApp;
let people = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const PASSWORD = 'correct horse battery staple';
const LOGIN_MAIL = 'New sign-in to your Florin account — Florin';
const LOGOUT_MAIL = 'You signed out of Florin — Florin';
const ALL_OFF: NotificationFlags = {
  login_notifications: false,
  loginout_notifications: false,
  marketing_notifications: false,
  trade_notifications: false,
};

function newEmail(): string {
  people += 1;
  return `alerts${people}.${Date.now()}@example.com`;
}

async function signIn(browser: Browser, email: string) {
  const response = await browser.post('/api/v1/login', {
    username: email,
    password: PASSWORD,
    altcha: await browser.captcha(),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Registered, verified and signed in through the API, as a customer would be. */
async function signedInCustomer() {
  const browser = createBrowser(t.app);
  const email = newEmail();
  const registered = await browser.post('/api/v1/user-register', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_terms_and_privacy: true,
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const link = await linkInMail(db(), email, /Verify your email/);
  await browser.post(`/api/v1/user-verify/${link.split('/verify/')[1]}`);
  await signIn(browser, email);
  const me = (await browser.get('/api/v1/user')).json<{ data: { id: number } & NotificationFlags }>().data;
  return { browser, email, id: me.id, user: me };
}

function saveAlerts(browser: Browser, id: number, body: Record<string, unknown>) {
  return browser.put(`/api/v1/users/${id}/notifications`, body);
}

async function flagsOf(browser: Browser): Promise<NotificationFlags> {
  const data = (await browser.get('/api/v1/user')).json<{ data: NotificationFlags }>().data;
  return {
    login_notifications: data.login_notifications,
    loginout_notifications: data.loginout_notifications,
    marketing_notifications: data.marketing_notifications,
    trade_notifications: data.trade_notifications,
  };
}

function countOf(subjects: string[], subject: string): number {
  return subjects.filter((s) => s === subject).length;
}

describe('PUT /api/v1/users/{id}/notifications', () => {
  it('starts with login alerts on and the rest off, and saves all four switches at once', async () => {
    const { browser, id } = await signedInCustomer();
    expect(await flagsOf(browser)).toEqual({ ...ALL_OFF, login_notifications: true });

    const wanted = {
      login_notifications: false,
      loginout_notifications: true,
      marketing_notifications: true,
      trade_notifications: true,
    };
    const saved = await saveAlerts(browser, id, { ...wanted, settings: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ message: ALERTS_TEXTS.updated, data: wanted });
    expect(await flagsOf(browser)).toEqual(wanted);

    const back = await saveAlerts(browser, id, ALL_OFF);
    expect(back.json()).toEqual({ message: 'Notification successfully updated.', data: ALL_OFF });
    expect(await flagsOf(browser)).toEqual(ALL_OFF);
  });

  it("answers 404 for another customer's id and changes nothing of theirs", async () => {
    const me = await signedInCustomer();
    const other = await signedInCustomer();
    const response = await saveAlerts(me.browser, other.id, ALL_OFF);
    expect(response.statusCode).toBe(404);
    expect(ErrorBodySchema.parse(response.json()).code).toBe('NOT_FOUND');
    expect(await flagsOf(other.browser)).toEqual({ ...ALL_OFF, login_notifications: true });
    expect(await flagsOf(me.browser)).toEqual({ ...ALL_OFF, login_notifications: true });
  });

  it('refuses a body without all four booleans, with an unknown field, or a bad id, with 422', async () => {
    const { browser, id } = await signedInCustomer();
    const missing = await saveAlerts(browser, id, { login_notifications: false });
    expect(missing.statusCode).toBe(422);
    const body = ErrorBodySchema.parse(missing.json());
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.errors ?? {})).toEqual(
      expect.arrayContaining(['loginout_notifications', 'marketing_notifications', 'trade_notifications']),
    );
    expect((await saveAlerts(browser, id, { ...ALL_OFF, login_notifications: 'no' })).statusCode).toBe(422);
    expect((await saveAlerts(browser, id, { ...ALL_OFF, newsletter: true })).statusCode).toBe(422);
    expect((await saveAlerts(browser, id, { ...ALL_OFF, settings: 'yes' })).statusCode).toBe(422);
    expect((await browser.put('/api/v1/users/abc/notifications', ALL_OFF)).statusCode).toBe(422);
    expect(await flagsOf(browser)).toEqual({ ...ALL_OFF, login_notifications: true });
  });

  it('is for signed-in customers only', async () => {
    const response = await createBrowser(t.app).put('/api/v1/users/1/notifications', ALL_OFF);
    expect(response.statusCode).toBe(401);
  });
});

describe('the switches decide which e-mails arrive', () => {
  it('login alerts: no sign-in mail while off, one per sign-in while on', async () => {
    const { browser, email, id } = await signedInCustomer();
    expect(countOf(await mailSubjects(db(), email), LOGIN_MAIL)).toBe(1);

    await saveAlerts(browser, id, ALL_OFF);
    await signIn(createBrowser(t.app), email);
    expect(countOf(await mailSubjects(db(), email), LOGIN_MAIL)).toBe(1);

    await saveAlerts(browser, id, { ...ALL_OFF, login_notifications: true });
    await signIn(createBrowser(t.app), email);
    expect(countOf(await mailSubjects(db(), email), LOGIN_MAIL)).toBe(2);
  });

  it('logout alerts: a sign-out mail only while on', async () => {
    const { browser, email, id } = await signedInCustomer();
    expect((await browser.post('/api/v1/logout')).statusCode).toBe(200);
    expect(countOf(await mailSubjects(db(), email), LOGOUT_MAIL)).toBe(0);

    const second = createBrowser(t.app);
    await signIn(second, email);
    await saveAlerts(second, id, { ...ALL_OFF, loginout_notifications: true });
    expect((await second.post('/api/v1/logout')).statusCode).toBe(200);
    expect(countOf(await mailSubjects(db(), email), LOGOUT_MAIL)).toBe(1);
  });

  it('marketing alerts: product news reaches only customers who switched them on', async () => {
    const notifier = createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log });
    const { browser, email, id } = await signedInCustomer();
    // The newsletter passes the customer as their row left it, without the marketing flag: it is read fresh.
    const recipient = { id, email, login_notifications: true, loginout_notifications: false };
    const news = { firstName: 'Ada', title: 'New coins on Florin', paragraphs: ['Solana is here.'] };

    await notifier.notify(recipient, 'marketing_news', news);
    expect(await mailSubjects(db(), email)).not.toContain('New coins on Florin — Florin');

    await saveAlerts(browser, id, { ...ALL_OFF, marketing_notifications: true });
    await notifier.notify(recipient, 'marketing_news', news);
    expect(countOf(await mailSubjects(db(), email), 'New coins on Florin — Florin')).toBe(1);
  });
});

describe('trading notifications and trade confirmations', () => {
  async function buyBtc(customer: FiatCustomer): Promise<void> {
    const quote = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const done = await customer.browser.post('/api/v1/order', {
      quote_id: quote.json<{ data: { id: string } }>().data.id,
    });
    expect(done.statusCode, done.body).toBe(200);
  }

  it('every trade is confirmed whatever the switch; the daily summary goes once, only to those who want it', async () => {
    const drive = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(drive.statusCode, drive.body).toBe(200);
    const wanting = await liveCustomer(t, { firstName: 'Wanda' });
    const silent = await liveCustomer(t, { firstName: 'Silas' });
    const paths = await moneyPaths(t);
    for (const customer of [wanting, silent]) await paths.bankDeposit(customer, '1000.00');
    await saveAlerts(wanting.browser, wanting.id, { ...ALL_OFF, trade_notifications: true });
    await saveAlerts(silent.browser, silent.id, ALL_OFF);

    await buyBtc(wanting);
    await buyBtc(wanting);
    await buyBtc(silent);
    await sendDueMail(t.app, db());
    expect(countOf(await mailSubjects(db(), wanting.email), 'You bought BTC — Florin')).toBe(2);
    expect(countOf(await mailSubjects(db(), silent.email), 'You bought BTC — Florin')).toBe(1);

    // The trades were yesterday's, so the summary run after midnight finds them.
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
    await sql`UPDATE trades SET created_at = created_at - interval '1 day'
      WHERE user_id IN (${wanting.id}, ${silent.id})`.execute(db());
    const alerts = createAlertsService({
      repository: createAlertsRepository(db()),
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
      publicUrl: 'http://localhost:8080',
    });
    await alerts.sendDailyTradingSummaries(yesterday);
    await alerts.sendDailyTradingSummaries(yesterday);

    const day = yesterday.toISOString().slice(0, 10);
    const summary = `Your trading summary for ${day} — Florin`;
    expect(countOf(await mailSubjects(db(), wanting.email), summary)).toBe(1);
    expect(await mailSubjects(db(), silent.email)).not.toContain(summary);
    const mail = await db()
      .selectFrom('dev_mailbox')
      .select('text')
      .where('to', '=', wanting.email)
      .where('subject', '=', summary)
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(`On ${day} you made 2 trades:`);
    expect(mail.text).toMatch(/Bought 0\.02000000 BTC for \d+\.\d{2} GBP, fee included \(2 trades\)\./);
  });
});

describe('compulsory alerts', () => {
  it('the switches can hold back only the login, logout, marketing and daily trading mails', () => {
    const optional = Object.entries(NOTIFICATIONS)
      .filter(([, entry]) => 'optional' in entry && entry.optional)
      .map(([event, entry]) => [event, (entry as { optional: string }).optional]);
    expect(Object.fromEntries(optional)).toEqual({
      login: 'login_notifications',
      logout: 'loginout_notifications',
      marketing_news: 'marketing_notifications',
      trading_daily_summary: 'trade_notifications',
    });
    expect([...NOTIFICATION_FLAGS].sort()).toEqual(optional.map(([, flag]) => flag).sort());
  });

  it('two-factor changes are mailed with every switch off', async () => {
    const { browser, email, id } = await signedInCustomer();
    await saveAlerts(browser, id, ALL_OFF);
    const { secret } = (await browser.get('/api/v1/two-factor-authentication/generate')).json<{
      data: { secret: string };
    }>().data;
    awayFromTotpStepEdge();
    const on = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret, new Date(testClock.now().getTime() - 30_000)),
      disable_2fa: 0,
    });
    expect(on.statusCode, on.body).toBe(200);
    const off = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret),
      disable_2fa: 1,
    });
    expect(off.statusCode, off.body).toBe(200);
    const subjects = await mailSubjects(db(), email);
    expect(subjects).toContain('Two-factor authentication is on — Florin');
    expect(subjects).toContain('Two-factor authentication was turned off — Florin');
  });
});
