import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TRADING_TEXTS } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { auditRows } from '../compliance/customers.test-kit.js';
import { errorOf, liveCustomer } from '../fiat/fiat.test-kit.js';
import { tradingSteps } from './trading.test-kit.js';
import { tradingAdminSteps } from './trading-admin.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let support: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  support = await signedInStaff(t.app, t.database.db, 'support');
});
afterAll(async () => {
  await t.close();
});

const { db, drive } = tradingSteps(() => t);
const { quote, auditCount } = tradingAdminSteps(() => t);

describe('fee plans', () => {
  it('shows the schedule a new database starts with', async () => {
    const response = await finance.browser.get('/api/admin/trading/fee-plans');
    expect(response.json<{ data: { schedule: unknown[] } }>().data.schedule).toEqual([
      {
        tier: 1,
        volume_from: '0.00',
        volume_to: '50000.00',
        instant_percent: '1.39',
        trading_percent: '0.75',
      },
      {
        tier: 2,
        volume_from: '50001.00',
        volume_to: '100000.00',
        instant_percent: '1.15',
        trading_percent: '0.60',
      },
      {
        tier: 3,
        volume_from: '100001.00',
        volume_to: '250000.00',
        instant_percent: '0.90',
        trading_percent: '0.45',
      },
      {
        tier: 4,
        volume_from: '250001.00',
        volume_to: null,
        instant_percent: '0.65',
        trading_percent: '0.35',
      },
    ]);
  });

  const DEFAULT_COLUMNS = {
    instant_percents: ['1.39', '1.15', '0.90', '0.65'],
    trading_percents: ['0.75', '0.60', '0.45', '0.35'],
  };
  /** A schedule save, from the revision the schedule has now unless the body names one. */
  const saveSchedule = async (body: Record<string, unknown>, staff: SignedInStaff = finance) => {
    const plans = await finance.browser.get('/api/admin/trading/fee-plans');
    const revision = plans.json<{ data: { schedule_revision: string } }>().data.schedule_revision;
    return staff.browser.put('/api/admin/trading/fee-schedule', { revision, ...body });
  };
  async function storedSchedule() {
    return db()
      .selectFrom('fee_schedule')
      .select(['platform', 'tier', 'fee_percent'])
      .orderBy('platform')
      .orderBy('tier')
      .execute();
  }

  it('finance changes the schedule with a reason in the audit log; the next quote, the terms, the Tier tab and the fees page use it', async () => {
    const instant = await liveCustomer(t);
    const trader = await liveCustomer(t);
    await db().updateTable('users').set({ platform: 2 }).where('id', '=', trader.id).execute();
    await drive('20000');
    const before = await quote(instant);
    expect(before.fee_percent).toBe('1.39');

    const saved = await saveSchedule({
      instant_percents: ['1.2', '1.10', '0.9', '0.65'],
      trading_percents: ['0.80', '0.60', '0.45', '0.35'],
      reason: 'Board decision of 20 November',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: ADMIN_TRADING_TEXTS.scheduleSaved,
      data: [
        { tier: 1, instant_percent: '1.20', trading_percent: '0.80' },
        { tier: 2, instant_percent: '1.10', trading_percent: '0.60' },
        { tier: 3, instant_percent: '0.90', trading_percent: '0.45' },
        { tier: 4, instant_percent: '0.65', trading_percent: '0.35' },
      ],
    });
    // The very next quote pays the new fee; the spread stays the coin's at Tier 1 (fee ÷ Tier 1 fee = 1).
    const after = await quote(instant);
    expect(after.fee_percent).toBe('1.2');
    expect(after.price).toBe(before.price);
    expect((await quote(trader)).fee_percent).toBe('0.8');
    const terms = await trader.browser.get('/api/v1/trading/terms');
    expect(terms.json<{ data: { tier_fee_percents: string[] } }>().data.tier_fee_percents).toEqual([
      '0.80',
      '0.60',
      '0.45',
      '0.35',
    ]);
    const fees = await t.app.inject({ method: 'GET', url: '/api/v1/fees' });
    expect(
      fees.json<{ trading: { instant_percent: string }[] }>().trading.map((row) => row.instant_percent),
    ).toEqual(['1.20', '1.10', '0.90', '0.65']);
    const rows = await db()
      .selectFrom('audit_log')
      .select(['action', 'staff_id', 'before', 'after'])
      .where('target_type', '=', 'fee_schedule')
      .execute();
    expect(rows).toEqual([
      {
        action: 'trading.fee_schedule_updated',
        staff_id: finance.id,
        before: DEFAULT_COLUMNS,
        after: {
          instant_percents: ['1.20', '1.10', '0.90', '0.65'],
          trading_percents: ['0.80', '0.60', '0.45', '0.35'],
          reason: 'Board decision of 20 November',
        },
      },
    ]);

    const restored = await saveSchedule({ ...DEFAULT_COLUMNS, reason: 'Back to the published schedule' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await quote(instant)).fee_percent).toBe('1.39');
  });

  it('refuses a fee out of range or badly written, a tier dearer than the one below, a missing reason; changes nothing', async () => {
    const stored = await storedSchedule();
    const auditBefore = await db()
      .selectFrom('audit_log')
      .select('id')
      .where('target_type', '=', 'fee_schedule')
      .execute();
    const bad = await saveSchedule({
      instant_percents: ['0', '1.155', 'abc', '0.65'],
      trading_percents: ['0.75', '0.80', '0.45', '10.01'],
      reason: 'Typo test',
    });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).errors).toEqual({
      'instant_percents.0': [ADMIN_TRADING_TEXTS.schedulePercent],
      'instant_percents.1': [ADMIN_TRADING_TEXTS.schedulePercent],
      'instant_percents.2': [ADMIN_TRADING_TEXTS.schedulePercent],
      'trading_percents.1': [ADMIN_TRADING_TEXTS.scheduleAboveLowerTier],
      'trading_percents.3': [ADMIN_TRADING_TEXTS.schedulePercent],
    });
    const noReason = await saveSchedule({ ...DEFAULT_COLUMNS, reason: ' ' });
    expect(errorOf(noReason).errors).toEqual({ reason: [ADMIN_TRADING_TEXTS.reason] });
    const short = await saveSchedule({
      instant_percents: ['1'],
      trading_percents: DEFAULT_COLUMNS.trading_percents,
      reason: 'x',
    });
    expect(short.statusCode).toBe(422);
    const asSupport = await saveSchedule({ ...DEFAULT_COLUMNS, reason: 'x' }, support);
    expect(asSupport.statusCode).toBe(404);
    expect(await storedSchedule()).toEqual(stored);
    expect(
      await db().selectFrom('audit_log').select('id').where('target_type', '=', 'fee_schedule').execute(),
    ).toEqual(auditBefore);
  });

  it('sets a customer’s Custom plan with a reason in the audit log; their next quote pays it; clearing restores the tier', async () => {
    const customer = await liveCustomer(t);
    await drive('20000');
    const set = await finance.browser.put(`/api/admin/trading/fee-plans/${customer.id}`, {
      custom_fee_percent: '0.2',
      reason: 'Agreed with the customer on 1 March',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      message: ADMIN_TRADING_TEXTS.customPlanSet,
      data: { user_id: customer.id, email: customer.email, custom_fee_percent: '0.2' },
    });
    expect((await quote(customer)).fee_percent).toBe('0.2');
    const plans = await finance.browser.get('/api/admin/trading/fee-plans');
    expect(plans.json<{ data: { custom: unknown[] } }>().data.custom).toContainEqual(
      expect.objectContaining({ user_id: customer.id, custom_fee_percent: '0.2' }),
    );
    const audit = await auditRows(db(), 'user', customer.id);
    expect(audit.at(-1)).toMatchObject({ action: 'trading.fee_plan_set', staff_id: finance.id });
    expect(audit.at(-1)!.after).toEqual({
      custom_fee_percent: '0.2',
      reason: 'Agreed with the customer on 1 March',
    });

    const cleared = await finance.browser.put(`/api/admin/trading/fee-plans/${customer.id}`, {
      custom_fee_percent: null,
      reason: 'Agreement ended',
    });
    expect(cleared.json()).toMatchObject({
      message: ADMIN_TRADING_TEXTS.customPlanCleared,
      data: { custom_fee_percent: null },
    });
    expect((await quote(customer)).fee_percent).toBe('1.39');
    expect((await auditRows(db(), 'user', customer.id)).at(-1)).toMatchObject({
      action: 'trading.fee_plan_cleared',
    });
  });

  it('refuses an unknown customer, a missing reason and a bad percent, and changes nothing', async () => {
    const customer = await liveCustomer(t);
    const unknown = await finance.browser.put('/api/admin/trading/fee-plans/99999999', {
      custom_fee_percent: '0.1',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe(ADMIN_TRADING_TEXTS.customerNotFound);
    const noReason = await finance.browser.put(`/api/admin/trading/fee-plans/${customer.id}`, {
      custom_fee_percent: '0.1',
      reason: '  ',
    });
    expect(errorOf(noReason).errors).toEqual({ reason: [ADMIN_TRADING_TEXTS.reason] });
    const badPercent = await finance.browser.put(`/api/admin/trading/fee-plans/${customer.id}`, {
      custom_fee_percent: '150',
      reason: 'x',
    });
    expect(errorOf(badPercent).errors).toEqual({ custom_fee_percent: [ADMIN_TRADING_TEXTS.optionalPercent] });
    const row = await db()
      .selectFrom('users')
      .select('custom_fee_percent')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(row.custom_fee_percent).toBeNull();
    expect(await auditCount('user', customer.id)).toBe(0);
  });

  it('refuses a customer id beyond the id column (422), not with a database error', async () => {
    const response = await finance.browser.put('/api/admin/trading/fee-plans/2147483648', {
      custom_fee_percent: '0.1',
      reason: 'x',
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(errorOf(response).code).toBe('VALIDATION_FAILED');
  });
});
