import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromoCodeSchema, REFERRALS_ADMIN_TEXTS, REFERRALS_TEXTS } from '@florin/contracts';
import { DEFAULT_FEE_SCHEDULE, feePercent } from '@florin/domain';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser } from '../../test/browser.js';
import { errorOf } from '../fiat/fiat.test-kit.js';
import { createPromoRepository } from '../promo/repository.js';
import { createPromoService } from '../promo/service.js';
import type { ReferralService } from './service.js';
import { createReferralsForTests, referralsKit } from './referrals.test-kit.js';

let t: TestApp;
let superadmin: SignedInStaff;
/** The same services the app runs, on its database and ledger: tests run the accrual job by hand. */
let referrals: ReferralService;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
  referrals = createReferralsForTests(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const { customer, overview } = referralsKit(() => t);

describe('custom referral links', () => {
  it('are for partners staff switch on; slugs are unique and not reserved; the public lookup finds the code', async () => {
    const partner = await customer('corporate');
    const notYet = await partner.browser.post('/api/v1/user/referral_custom', { slug: 'grace-partners' });
    expect(notYet.statusCode).toBe(403);
    expect(errorOf(notYet).message).toBe(REFERRALS_TEXTS.notPartner);

    const switched = await superadmin.browser.put(`/api/admin/referrals/partners/${partner.id}`, {
      has_custom_referral: true,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect((await overview(partner)).has_custom_referral).toBe(true);

    const slug = `gp-${partner.id}`;
    const saved = await partner.browser.post('/api/v1/user/referral_custom', { slug });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ message: REFERRALS_TEXTS.slugSaved, data: { slug } });
    expect((await partner.browser.get('/api/v1/user/referral_custom')).json()).toEqual({
      slug,
      logo_url: null,
    });

    const reserved = await partner.browser.post('/api/v1/user/referral_custom', { slug: 'admin' });
    expect(reserved.statusCode).toBe(422);
    expect(errorOf(reserved).errors?.slug).toEqual([REFERRALS_TEXTS.slugReserved]);
    const badShape = await partner.browser.post('/api/v1/user/referral_custom', { slug: 'No Spaces!' });
    expect(errorOf(badShape).errors?.slug).toEqual([REFERRALS_TEXTS.slugFormat]);

    const other = await customer('corporate');
    await superadmin.browser.put(`/api/admin/referrals/partners/${other.id}`, { has_custom_referral: true });
    const taken = await other.browser.post('/api/v1/user/referral_custom', { slug });
    expect(taken.statusCode).toBe(422);
    expect(errorOf(taken).errors?.slug).toEqual([REFERRALS_TEXTS.slugTaken]);

    const browser = createBrowser(t.app);
    const visitor = await browser.post(`/api/v1/referral_custom/${slug}`);
    expect(visitor.statusCode, visitor.body).toBe(200);
    expect(visitor.json()).toMatchObject({ data: { code: (await overview(partner)).referral_code, slug } });
    const unknown = await browser.post('/api/v1/referral_custom/no-such-slug-here');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('promo codes', () => {
  async function createCode(body: Record<string, unknown>) {
    const response = await superadmin.browser.post('/api/admin/promo-codes', body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { id: string; code: string } }>().data;
  }

  const promo = () =>
    createPromoService({
      db: db(),
      repository: createPromoRepository(db()),
      isEligible: (userId) => referrals.isEligible(userId),
    });

  it('applies once with the spec texts, lists it, and gives a running fee discount', async () => {
    const code = `SPRING${Date.now().toString(36).toUpperCase()}`;
    await createCode({ code, discount_percent: '25', duration_days: 30 });
    const duplicate = await superadmin.browser.post('/api/admin/promo-codes', {
      code: code.toLowerCase(),
      discount_percent: '10',
      duration_days: 5,
    });
    expect(errorOf(duplicate).message).toBe(REFERRALS_ADMIN_TEXTS.promoCodeTaken);

    const who = await customer('corporate');
    const applied = await who.browser.post('/api/v1/affiliate-codes/assign', {
      user_id: who.id,
      affiliate_code: code.toLowerCase(),
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      message: REFERRALS_TEXTS.promoAdded,
      data: { affiliate_code: code },
    });
    const data = PromoCodeSchema.parse(applied.json<{ data: unknown }>().data);
    const days = (Date.parse(data.expires_at) - Date.parse(data.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(30);

    const twice = await who.browser.post('/api/v1/affiliate-codes/assign', { affiliate_code: code });
    expect(twice.statusCode).toBe(422);
    expect(errorOf(twice).message).toBe(REFERRALS_TEXTS.promoInvalid);

    const listed = await who.browser.get('/api/v1/user/affiliate-codes');
    expect(listed.json()).toMatchObject({
      data: { data: [{ affiliate_code: code, discount_percent: '25' }] },
    });
    expect(await promo().feeDiscountFor(who.id)).toBe('25');
    expect(await promo().feeDiscountFor((await customer('corporate')).id)).toBeNull();

    // The fee the screens show (and compute totals and the maximum from) is the fee a quote charges.
    const terms = await who.browser.get('/api/v1/trading/terms');
    const btc = terms
      .json<{ data: { coins: { coin_id: string; fee_percent: string }[] } }>()
      .data.coins.find((coin) => coin.coin_id === 'btc');
    const priced = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(priced.statusCode, priced.body).toBe(200);
    const quoted = await who.browser.post('/api/v1/quotes', {
      side: 'sell',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(btc?.fee_percent).toBe(quoted.json<{ data: { fee_percent: string } }>().data.fee_percent);
    const undiscounted = await (await customer('corporate')).browser.get('/api/v1/trading/terms');
    const undiscountedBtc = undiscounted
      .json<{ data: { coins: { coin_id: string; fee_percent: string }[] } }>()
      .data.coins.find((coin) => coin.coin_id === 'btc');
    // The schedule's instant tier-1 fee, and a quarter off it (compared as the domain's decimal strings).
    expect(undiscountedBtc?.fee_percent).toBe(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1 }),
    );
    expect(btc?.fee_percent).toBe(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: '25' }),
    );
  });

  it('refuses unknown and stopped codes with Invalid Promo Code', async () => {
    const who = await customer('abroad');
    const foreign = await who.browser.post('/api/v1/affiliate-codes/assign', {
      user_id: (await customer('corporate')).id,
      affiliate_code: 'NOPE-NOT-A-CODE',
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await who.browser.post('/api/v1/affiliate-codes/assign', {
      affiliate_code: 'NOPE-NOT-A-CODE',
    });
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(unknown).message).toBe(REFERRALS_TEXTS.promoInvalid);

    const code = `STOP${Date.now().toString(36).toUpperCase()}`;
    const created = await createCode({ code, discount_percent: '10', duration_days: 7 });
    const stopped = await superadmin.browser.put(`/api/admin/promo-codes/${created.id}/active`, {
      is_active: false,
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const refused = await who.browser.post('/api/v1/affiliate-codes/assign', { affiliate_code: code });
    expect(errorOf(refused).message).toBe(REFERRALS_TEXTS.promoInvalid);
  });

  it('gives no promo benefit to a UK individual', async () => {
    const code = `UK${Date.now().toString(36).toUpperCase()}`;
    await createCode({ code, discount_percent: '50', duration_days: 10 });
    const who = await customer('uk-individual');
    const refused = await who.browser.post('/api/v1/affiliate-codes/assign', { affiliate_code: code });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(REFERRALS_TEXTS.promoNotEligible);
    expect(await promo().feeDiscountFor(who.id)).toBeNull();
  });
});
