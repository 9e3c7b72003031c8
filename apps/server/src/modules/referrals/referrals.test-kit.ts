import { expect } from 'vitest';
import { ReferralOverviewSchema } from '@florin/contracts';
import type { TestApp } from '../../test/app.js';
import { liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { createReferralRepository } from './repository.js';
import { createReferralService, type ReferralService } from './service.js';
import { testClock } from '../../test/clock.js';

/** The same service the app runs, on its database and ledger: tests run the accrual job by hand. */
export function createReferralsForTests(t: TestApp): ReferralService {
  const db = t.database.db;
  return createReferralService({
    db,
    repository: createReferralRepository(db),
    ledger: t.ledger,
    // The job never asks for a second factor or a bank account.
    secondFactor: { isRequired: () => false, check: () => Promise.resolve('ok' as const) },
    notifier: { queue: () => Promise.resolve(undefined), deliver: () => Promise.resolve(false) },
    bankAccountOf: () => Promise.resolve(null),
    verification: createVerificationGate({ db, repository: createKycRepository(db) }),
    clock: testClock,
  });
}

export type Kind = 'uk-individual' | 'corporate' | 'abroad';

/** What the referral API tests share, bound to the test app `app()` returns. */
export function referralsKit(app: () => TestApp) {
  const db = () => app().database.db;

  async function customer(kind: Kind, options: { referredBy?: FiatCustomer } = {}): Promise<FiatCustomer> {
    const made = await liveCustomer(app(), {
      accountType: kind === 'corporate' ? 'Corporate' : 'Individual',
    });
    await db()
      .updateTable('users')
      .set({
        country: kind === 'abroad' ? 'FR' : 'GB',
        referred_by_user_id: options.referredBy?.id ?? null,
      })
      .where('id', '=', made.id)
      .execute();
    return made;
  }

  async function overview(who: FiatCustomer) {
    const response = await who.browser.get('/api/v1/user/referrals');
    expect(response.statusCode, response.body).toBe(200);
    return ReferralOverviewSchema.parse(response.json<{ data: unknown }>().data);
  }

  return { customer, overview };
}
