import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  KYC_TEXTS,
  UPGRADE_TEXTS,
  UserSchema,
  type PlatformUpgrade,
  type UpgradeWebhookPayload,
} from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import {
  auditRows,
  completeVerification,
  insertIndividualDocuments,
  insertKycAnswers,
} from '../compliance/customers.test-kit.js';
import { liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { createUpgradeRepository } from './repository.js';
import { createUpgradeService } from './service.js';

const TRADE = { account_type: 'Trade', platform: 2, account_tiers_class: 4, ico_confirmed: 1 } as const;

let t: TestApp;
let support: SignedInStaff;
let superadmin: SignedInStaff;

/** A loopback chat webhook: it keeps what it was sent and answers `status`. */
type Hook = { url: string; received: UpgradeWebhookPayload[]; close: () => Promise<void> };

async function startHook(status = 200): Promise<Hook> {
  const received: UpgradeWebhookPayload[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(body) as UpgradeWebhookPayload);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/upgrades`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  support = await signedInStaff(t.app, t.database.db, 'support');
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** A live instant customer who finished the wizard. */
async function instantCustomer(): Promise<FiatCustomer> {
  const customer = await liveCustomer(t);
  await completeVerification(db(), customer.id);
  return customer;
}

async function userOf(customer: FiatCustomer) {
  const response = await customer.browser.get('/api/v1/user');
  expect(response.statusCode).toBe(200);
  return UserSchema.parse(response.json<{ data: unknown }>().data);
}

async function upgradesOf(userId: number): Promise<PlatformUpgrade[]> {
  const response = await support.browser.get('/api/admin/upgrades?take=100');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: PlatformUpgrade[] }>().data.filter((row) => row.user.id === userId);
}

/** The webhook is posted after commit: wait until the row says how it went. */
async function settledUpgradeOf(userId: number): Promise<PlatformUpgrade> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [row] = await upgradesOf(userId);
    if (row && row.webhook_status !== 'pending') return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the upgrade of ${userId} was never settled`);
}

async function setWebhook(url: string | null) {
  const response = await superadmin.browser.put('/api/admin/upgrades/webhook', { url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { url: string | null }; message: string }>();
}

describe('upgrade to trade', () => {
  it('moves a live instant customer to trading once, however often they ask', async () => {
    const customer = await instantCustomer();
    expect(await userOf(customer)).toMatchObject({ platform: 1, account_tiers_class: 1, ico_confirmed: 0 });

    const first = await customer.browser.put('/api/v1/users/account_type', TRADE);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: 'Your account type has been saved.' });
    expect(await userOf(customer)).toMatchObject({ platform: 2, account_tiers_class: 4, ico_confirmed: 1 });

    const again = await customer.browser.put('/api/v1/users/account_type', TRADE);
    expect(again.statusCode).toBe(200);
    const rows = await upgradesOf(customer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user: { id: customer.id, email: customer.email, first_name: 'Grace', last_name: 'Hopper' },
      from_platform: 1,
      to_platform: 2,
    });
  });

  it('refuses a customer on hold, and one not yet live, and changes nothing', async () => {
    const onHold = await instantCustomer();
    await db().updateTable('users').set({ block_status: 2 }).where('id', '=', onHold.id).execute();
    const awaitingReview = await instantCustomer();
    await db().updateTable('users').set({ status: 0 }).where('id', '=', awaitingReview.id).execute();

    for (const customer of [onHold, awaitingReview]) {
      const response = await customer.browser.put('/api/v1/users/account_type', TRADE);
      expect(response.statusCode).toBe(403);
      expect(ErrorBodySchema.parse(response.json())).toMatchObject({
        code: 'ACCOUNT_NOT_LIVE',
        message: 'Your account is not live!',
      });
      expect(await userOf(customer)).toMatchObject({ platform: 1, account_tiers_class: 1, ico_confirmed: 0 });
      expect(await upgradesOf(customer.id)).toEqual([]);
    }
  });

  it('refuses going back to Instant', async () => {
    const customer = await instantCustomer();
    expect((await customer.browser.put('/api/v1/users/account_type', TRADE)).statusCode).toBe(200);
    const response = await customer.browser.put('/api/v1/users/account_type', { account_type: 'Instant' });
    expect(response.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(response.json()).message).toBe(KYC_TEXTS.accountTypeLocked);
    expect((await userOf(customer)).platform).toBe(2);
  });

  it("records the wizard's Trade choice as an upgrade, and not its Instant choice", async () => {
    const trader = await liveCustomer(t, { live: false });
    const instant = await liveCustomer(t, { live: false });
    for (const customer of [trader, instant]) {
      await insertIndividualDocuments(db(), customer.id);
      await insertKycAnswers(db(), customer.id);
    }
    const chosen = await trader.browser.put('/api/v1/users/account_type', TRADE);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(await userOf(trader)).toMatchObject({ platform: 2, verification_completed: 1 });
    expect(await upgradesOf(trader.id)).toMatchObject([{ from_platform: 1, to_platform: 2 }]);

    const stayed = await instant.browser.put('/api/v1/users/account_type', { account_type: 'Instant' });
    expect(stayed.statusCode).toBe(200);
    expect(await upgradesOf(instant.id)).toEqual([]);
  });
});

describe('the back office list', () => {
  it('is for support, finance and superadmins: a customer or compliance finds nothing there', async () => {
    const customer = await instantCustomer();
    const compliance = await signedInStaff(t.app, db(), 'compliance');
    const finance = await signedInStaff(t.app, db(), 'finance');
    for (const browser of [customer.browser, compliance.browser]) {
      const response = await browser.get('/api/admin/upgrades');
      expect(response.statusCode).toBe(404);
      expect(ErrorBodySchema.parse(response.json()).code).toBe('NOT_FOUND');
    }
    for (const staff of [support, finance, superadmin]) {
      expect((await staff.browser.get('/api/admin/upgrades')).statusCode).toBe(200);
    }
    // The webhook is a superadmin's alone.
    for (const staff of [support, finance, compliance]) {
      expect((await staff.browser.get('/api/admin/upgrades/webhook')).statusCode).toBe(404);
      expect(
        (await staff.browser.put('/api/admin/upgrades/webhook', { url: 'https://chat.example.com/x' }))
          .statusCode,
      ).toBe(404);
    }
  });

  it('lists the newest first, a page at a time', async () => {
    const older = await instantCustomer();
    const newer = await instantCustomer();
    for (const customer of [older, newer]) {
      expect((await customer.browser.put('/api/v1/users/account_type', TRADE)).statusCode).toBe(200);
    }
    const page = await support.browser.get('/api/admin/upgrades?skip=0&take=2');
    const body = page.json<{ data: PlatformUpgrade[]; total: number; skip: number; take: number }>();
    expect(body.data.map((row) => row.user.id)).toEqual([newer.id, older.id]);
    expect(body).toMatchObject({ skip: 0, take: 2 });
    const next = await support.browser.get('/api/admin/upgrades?skip=1&take=1');
    expect(next.json<{ data: PlatformUpgrade[] }>().data.map((row) => row.user.id)).toEqual([older.id]);
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect((await support.browser.get('/api/admin/upgrades?take=500')).statusCode).toBe(422);
  });
});

describe('the staff chat webhook', () => {
  it('is told of each upgrade; without one the upgrade is only listed', async () => {
    await setWebhook(null);
    const unannounced = await instantCustomer();
    expect((await unannounced.browser.put('/api/v1/users/account_type', TRADE)).statusCode).toBe(200);
    expect(await settledUpgradeOf(unannounced.id)).toMatchObject({
      webhook_status: 'skipped',
      webhook_attempts: 0,
    });

    const hook = await startHook();
    try {
      const saved = await setWebhook(hook.url);
      expect(saved).toEqual({ data: { url: hook.url }, message: UPGRADE_TEXTS.webhookSaved });
      expect((await superadmin.browser.get('/api/admin/upgrades/webhook')).json()).toEqual({
        data: { url: hook.url },
      });
      const customer = await instantCustomer();
      expect((await customer.browser.put('/api/v1/users/account_type', TRADE)).statusCode).toBe(200);
      const row = await settledUpgradeOf(customer.id);
      expect(row).toMatchObject({ webhook_status: 'delivered', webhook_attempts: 1, webhook_error: null });
      expect(hook.received).toEqual([
        {
          text: `Grace Hopper (${customer.email}, customer ${customer.id}) upgraded to a trading account`,
          user_id: customer.id,
          email: customer.email,
          at: row.created_at,
        },
      ]);
    } finally {
      await hook.close();
    }
  });

  it('records a failing webhook as failed and upgrades the customer all the same', async () => {
    const refusing = await startHook(500);
    try {
      await setWebhook(refusing.url);
      const customer = await instantCustomer();
      const response = await customer.browser.put('/api/v1/users/account_type', TRADE);
      expect(response.statusCode).toBe(200);
      expect((await userOf(customer)).platform).toBe(2);
      expect(await settledUpgradeOf(customer.id)).toMatchObject({
        webhook_status: 'failed',
        webhook_attempts: 1,
        webhook_error: 'The webhook answered 500.',
      });
    } finally {
      await refusing.close();
    }

    // Nothing listens there any more.
    const customer = await instantCustomer();
    expect((await customer.browser.put('/api/v1/users/account_type', TRADE)).statusCode).toBe(200);
    expect(await settledUpgradeOf(customer.id)).toMatchObject({
      webhook_status: 'failed',
      webhook_error: 'ECONNREFUSED',
    });
    await setWebhook(null);
  });

  it('is set and removed by a superadmin, audited without its secret path', async () => {
    const set = await setWebhook('https://chat.example.com/hooks/T000/secret-token');
    expect(set.message).toBe(UPGRADE_TEXTS.webhookSaved);
    const cleared = await setWebhook('');
    expect(cleared).toEqual({ data: { url: null }, message: UPGRADE_TEXTS.webhookCleared });
    const rows = await auditRows(db(), 'setting', 'upgrade_webhook_url');
    const last = rows.slice(-2);
    expect(last.map((row) => row.action)).toEqual(['upgrades.webhook_set', 'upgrades.webhook_cleared']);
    expect(last.every((row) => row.staff_id === superadmin.id)).toBe(true);
    expect(JSON.stringify(last)).not.toContain('secret-token');
    expect(JSON.stringify(last)).toContain('chat.example.com');

    const invalid = await superadmin.browser.put('/api/admin/upgrades/webhook', { url: 'chat.example.com' });
    expect(invalid.statusCode).toBe(422);
    expect(ErrorBodySchema.parse(invalid.json()).errors).toEqual({ url: [UPGRADE_TEXTS.webhookInvalid] });
  });

  it('must use https in production', async () => {
    const service = createUpgradeService({
      db: db(),
      repository: createUpgradeRepository(db()),
      isProduction: true,
      log: t.app.log,
    });
    const actor = { staffId: superadmin.id, ip: null };
    await expect(service.setWebhook(actor, 'http://chat.example.com/hooks/x')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { url: [UPGRADE_TEXTS.webhookHttpsOnly] },
    });
    await expect(service.setWebhook(actor, 'https://chat.example.com/hooks/x')).resolves.toMatchObject({
      data: { url: 'https://chat.example.com/hooks/x' },
    });
    await service.setWebhook(actor, null);
  });
});
