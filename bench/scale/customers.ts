/**
 * Customers: live, on the instant platform, funded by a bank deposit, each with a session as a
 * sign-in leaves it (written straight into the database: signing up is not what is measured).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { createLocalStorage } from '../../apps/server/src/adapters/storage/index.js';
import { systemClock } from '../../apps/server/src/clock.js';
import type { Database } from '../../apps/server/src/db/index.js';
import { createLedger } from '../../apps/server/src/ledger/index.js';
import { createSessionStore } from '../../apps/server/src/modules/auth/sessions.js';
import { insertApprovedVerification } from '../../apps/server/src/modules/compliance/customers.test-kit.js';
import { completeInvestorJourney } from '../../apps/server/src/modules/investor/investor.test-kit.js';
import type { Customer } from '../trading/protocol.js';

/** The funding covers every execution of a run (each buys INSTANT_QUANTITY). */
const FUNDING_PENCE = 1_000_000_000n;

/** `dataDir` is the instances' DATA_DIR: the verification documents go under its uploads folder. */
export async function makeCustomers(database: Database, count: number, dataDir: string): Promise<Customer[]> {
  const ledger = createLedger();
  const sessions = createSessionStore(database.db, systemClock);
  const rows = Array.from({ length: count }, (_, index) => {
    const unique = `S${index + 1}`;
    return {
      user_identification: `FB${unique}`,
      first_name: 'Bench',
      last_name: `Scale ${index + 1}`,
      email: `bench.scale.${index + 1}@example.com`,
      password_hash: 'not-used-by-the-benchmark',
      email_verified_at: new Date(),
      referral_code: `B${unique}`,
      status: 1,
      live_since: new Date(),
      platform: 1,
    };
  });
  const inserted = await database.db.insertInto('users').values(rows).returning('id').execute();
  const customers: Customer[] = [];
  for (const { id } of inserted) {
    const userId = Number(id);
    await insertApprovedVerification(database.db, createLocalStorage(path.join(dataDir, 'uploads')), userId);
    await completeInvestorJourney(database.db, userId);
    await ledger.postJournal(database.db, {
      idempotencyKey: `bench:scale:fund:${userId}`,
      kind: 'fiat_deposit',
      postings: [
        { account: { asset: 'GBP', kind: 'bank' }, amount: -FUNDING_PENCE },
        { account: { asset: 'GBP', kind: 'available', ownerUserId: String(userId) }, amount: FUNDING_PENCE },
      ],
    });
    const session = await sessions.create(userId, { ip: '127.0.0.1', userAgent: 'florin-bench' });
    customers.push({ id: userId, token: session.token, csrf: session.csrfToken });
  }
  await sql`ANALYZE`.execute(database.db);
  return customers;
}
