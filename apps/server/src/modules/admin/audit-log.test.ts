import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntrySchema, pageSchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { recordAudit } from '../audit/service.js';

let t: TestApp;
let superadmin: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

const AuditPageSchema = pageSchema(AuditEntrySchema);

describe('recordAudit', () => {
  it("writes inside the caller's transaction: a change that rolls back leaves no record", async () => {
    const targetId = `rollback-${Date.now()}`;
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          staffId: superadmin.id,
          ip: '10.9.9.9',
          action: 'test.changed',
          targetType: 'test',
          targetId,
          before: { amount: 1n },
          after: { amount: 2n },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('target_id', '=', targetId)
      .execute();
    expect(rows).toEqual([]);

    await recordAudit(t.database.db, {
      staffId: null,
      ip: null,
      action: 'test.changed',
      targetType: 'test',
      targetId,
      before: { amount: 1n, at: new Date('2026-11-23T10:00:00Z') },
      after: { amount: 123_456_789_012_345_678_901n },
    });
    const row = await t.database.db
      .selectFrom('audit_log')
      .select(['staff_id', 'before', 'after'])
      .where('target_id', '=', targetId)
      .executeTakeFirstOrThrow();
    // bigint amounts as strings: JSON numbers could not carry them.
    expect(row).toEqual({
      staff_id: null,
      before: { amount: '1', at: '2026-11-23T10:00:00.000Z' },
      after: { amount: '123456789012345678901' },
    });
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await recordAudit(t.database.db, {
      staffId: superadmin.id,
      ip: '10.9.9.9',
      action: 'test.kept',
      targetType: 'test',
      targetId: 'append-only',
    });
    await expect(sql`UPDATE audit_log SET action = 'test.rewritten'`.execute(t.database.db)).rejects.toThrow(
      /audit_log is append-only: UPDATE refused/,
    );
    await expect(sql`DELETE FROM audit_log`.execute(t.database.db)).rejects.toThrow(
      /audit_log is append-only: DELETE refused/,
    );
    await expect(sql`TRUNCATE audit_log`.execute(t.database.db)).rejects.toThrow(
      /audit_log is append-only: TRUNCATE refused/,
    );
    const kept = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', 'append-only')
      .execute();
    expect(kept).toEqual([{ action: 'test.kept' }]);
  });
});

describe('GET /api/admin/audit-log', () => {
  it('lists newest first, 50 a page, with who did it, filtered by target', async () => {
    const targetId = `paged-${Date.now()}`;
    for (let index = 1; index <= 53; index += 1) {
      await recordAudit(t.database.db, {
        staffId: superadmin.id,
        ip: '10.9.9.9',
        action: 'test.counted',
        targetType: 'test',
        targetId,
        after: { index },
      });
    }
    const query = `target_type=test&target_id=${targetId}`;
    const first = await superadmin.browser.get(`/api/admin/audit-log?${query}`);
    expect(first.statusCode).toBe(200);
    const page1 = AuditPageSchema.parse(first.json());
    expect(page1).toMatchObject({
      current_page: 1,
      last_page: 2,
      per_page: 50,
      total: 53,
      prev_page_url: null,
      next_page_url: `/api/admin/audit-log?page=2&${query}`,
    });
    expect(page1.data).toHaveLength(50);
    expect(page1.data[0]).toEqual({
      id: expect.any(String) as string,
      staff_id: superadmin.id,
      staff_email: superadmin.email,
      action: 'test.counted',
      target_type: 'test',
      target_id: targetId,
      before: null,
      after: { index: 53 },
      ip: '10.9.9.9',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });

    const page2 = AuditPageSchema.parse(
      (await superadmin.browser.get(`/api/admin/audit-log?page=2&${query}`)).json(),
    );
    expect(page2.data.map((entry) => entry.after?.index)).toEqual([3, 2, 1]);
    expect(page2).toMatchObject({
      next_page_url: null,
      prev_page_url: `/api/admin/audit-log?page=1&${query}`,
    });
  });

  it("shows the back office's own actions, filtered by the staff member who acted", async () => {
    const compliance = await signedInStaff(t.app, t.database.db, 'compliance');
    const page = AuditPageSchema.parse(
      (await compliance.browser.get(`/api/admin/audit-log?staff_id=${compliance.id}`)).json(),
    );
    expect(page.data.map((entry) => entry.action)).toEqual(['staff.signed_in', 'staff.two_factor_enrolled']);
    expect(page.data.every((entry) => entry.staff_email === compliance.email)).toBe(true);
  });

  it('refuses a filter it cannot read', async () => {
    const response = await superadmin.browser.get('/api/admin/audit-log?page=0');
    expect(response.statusCode).toBe(422);
  });
});
