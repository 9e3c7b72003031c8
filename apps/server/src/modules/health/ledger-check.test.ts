import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LedgerCheckReport } from '@florin/contracts';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createTestUser, fund } from '../../test/ledger.js';

/**
 * GET /api/admin/ledger-check: `npm run ledger:check` for a running server,
 * whose embedded data folder no other process may open. Who may call it is
 * the authorization matrix's (security/authorization-matrix.test.ts).
 */

let t: TestApp;
let finance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
});
afterAll(async () => {
  await t.close();
});

async function check(): Promise<LedgerCheckReport> {
  const response = await finance.browser.get('/api/admin/ledger-check');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: LedgerCheckReport }>().data;
}

it('runs the check on the server’s own database when asked, and lists what breaks', async () => {
  const user = await createTestUser(t.database.db);
  await fund(t.ledger, t.database.db, user, 'GBP', 50_000n);
  const before = await check();
  expect(before).toEqual({
    ok: true,
    engine: t.database.engine,
    checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    violation_count: 0,
    violations: [],
  });

  // A balance changed behind the ledger's back, as a hand-written UPDATE would.
  const account = await t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('owner_user_id', '=', user)
    .where('asset', '=', 'GBP')
    .where('kind', '=', 'available')
    .executeTakeFirstOrThrow();
  await sql`UPDATE accounts SET posted = posted + 1 WHERE id = ${account.id}`.execute(t.database.db);

  const after = await check();
  expect(after.ok).toBe(false);
  expect(new Date(after.checked_at).getTime()).toBeGreaterThanOrEqual(new Date(before.checked_at).getTime());
  expect(after.violations).toEqual([
    { invariant: 2, message: 'balances in GBP sum to 1' },
    { invariant: 3, message: `account ${account.id} holds 50001 but its entries sum to 50000` },
  ]);
  expect(after.violation_count).toBe(2);
});
