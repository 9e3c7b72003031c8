import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMotd, Motd } from '@florin/contracts';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { newCustomer } from '../kyc/kyc.test-kit.js';

let t: TestApp;
let support: SignedInStaff;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  support = await signedInStaff(t.app, t.database.db, 'support');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe('the message of the day', () => {
  it('shows customers the message whose window is open now, the newest to start when several are', async () => {
    const customer = await newCustomer(t);
    expect((await customer.get('/api/v1/motd')).json<Motd>()).toEqual({ data: null });

    const post = (message: string, from: number, to: number) =>
      support.browser.post('/api/admin/motd', {
        message,
        starts_at: hoursFromNow(from),
        ends_at: hoursFromNow(to),
      });
    expect((await post('Over already', -3, -1)).statusCode).toBe(201);
    expect((await post('Not yet', 1, 3)).statusCode).toBe(201);
    const older = await post('Maintenance on Sunday 02:00–03:00.', -2, 2);
    expect(older.statusCode).toBe(201);
    const newer = await post('New: EUR deposits.', -1, 2);
    const created = newer.json<AdminMotd>();
    expect(created).toMatchObject({ message: 'New: EUR deposits.', created_by: support.email });

    expect((await customer.get('/api/v1/motd')).json<Motd>()).toEqual({
      data: { id: created.id, message: 'New: EUR deposits.' },
    });
    expect((await support.browser.delete(`/api/admin/motd/${created.id}`)).statusCode).toBe(204);
    expect((await customer.get('/api/v1/motd')).json<Motd>().data?.message).toBe(
      'Maintenance on Sunday 02:00–03:00.',
    );
    expect((await support.browser.delete(`/api/admin/motd/${created.id}`)).statusCode).toBe(404);

    const listed = (await support.browser.get('/api/admin/motd')).json<{ data: AdminMotd[] }>().data;
    expect(listed.map((row) => row.message)).toEqual([
      'Not yet',
      'Maintenance on Sunday 02:00–03:00.',
      'Over already',
    ]);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'motd')
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual([
      'motd.created',
      'motd.created',
      'motd.created',
      'motd.created',
      'motd.deleted',
    ]);
  });

  it('refuses an empty or over-long message and an end before the start, naming the field', async () => {
    const bad = [
      [{ message: ' ', starts_at: hoursFromNow(0), ends_at: hoursFromNow(1) }, 'message'],
      [{ message: 'x'.repeat(281), starts_at: hoursFromNow(0), ends_at: hoursFromNow(1) }, 'message'],
      [{ message: 'Hi', starts_at: hoursFromNow(2), ends_at: hoursFromNow(1) }, 'ends_at'],
      [{ message: 'Hi', starts_at: 'tomorrow', ends_at: hoursFromNow(1) }, 'starts_at'],
      [{ message: 'Hi', starts_at: hoursFromNow(0), ends_at: hoursFromNow(1), html: '<b>' }, 'html'],
    ] as const;
    for (const [body, field] of bad) {
      const response = await support.browser.post('/api/admin/motd', body);
      expect(response.statusCode, field).toBe(422);
      expect(response.body, field).toContain(field);
    }
  });

  it('is written by support and superadmin only: other staff and customers get a 404', async () => {
    const body = { message: 'Hi', starts_at: hoursFromNow(0), ends_at: hoursFromNow(1) };
    expect((await compliance.browser.post('/api/admin/motd', body)).statusCode).toBe(404);
    expect((await compliance.browser.get('/api/admin/motd')).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/motd' });
    expect(anonymous.statusCode).toBe(401);
  });
});
