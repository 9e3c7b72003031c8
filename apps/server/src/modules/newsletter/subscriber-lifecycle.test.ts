import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_TEXTS, NEWSLETTER_TRANSITIONS } from '@florin/contracts';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, mailTo } from '../../test/browser.js';
import { createNewsletterRepository } from './repository.js';

/**
 * The subscriber lifecycle (NEWSLETTER_TRANSITIONS) is what the repository's writes go by: the
 * sign-up, confirm and unsubscribe flows cannot move an address the map does not let move.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const REFUSED = { code: 'CONFLICT', status: 409 };

async function subscriberRow(email: string) {
  return db()
    .selectFrom('newsletter_subscribers')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
}

/** Signed up and confirmed through the public routes, with the links the mail carried. */
async function confirmedReader(email: string) {
  const visitor = createBrowser(t.app);
  expect((await visitor.post('/api/v1/newsletter', { email })).statusCode).toBe(200);
  const mail = (await mailTo(db(), email)).find((message) => /newsletter/i.test(message.subject));
  const tokenOf = (label: string) =>
    new RegExp(`${label}: \\S+/([A-Za-z0-9_-]+)`).exec(mail?.text ?? '')?.[1] ?? '';
  const confirmed = await visitor.post(`/api/v1/newsletter/confirm/${tokenOf('Confirm subscription')}`);
  expect(confirmed.json()).toEqual({ message: NEWSLETTER_TEXTS.confirmed });
  return { visitor, unsubscribeToken: tokenOf('Unsubscribe') };
}

describe('the newsletter subscriber lifecycle', () => {
  it('lets an unsubscribed address only sign up again, and a confirmed one only unsubscribe', () => {
    expect(statesThatMayBecome(NEWSLETTER_TRANSITIONS, 'pending')).toEqual(['unsubscribed']);
    expect(statesThatMayBecome(NEWSLETTER_TRANSITIONS, 'unsubscribed')).toEqual(['pending', 'confirmed']);
    expect(() => transition(NEWSLETTER_TRANSITIONS, 'confirmed', 'pending')).toThrow(
      expect.objectContaining(REFUSED),
    );
    expect(() => transition(NEWSLETTER_TRANSITIONS, 'unsubscribed', 'confirmed')).toThrow(
      expect.objectContaining(REFUSED),
    );
  });

  it('refuses to make a confirmed address pending, or to confirm an unsubscribed one, and changes nothing', async () => {
    const repository = createNewsletterRepository(db());
    const email = `lifecycle.${Date.now()}@florin.test`;
    const { visitor, unsubscribeToken } = await confirmedReader(email);
    const confirmed = await subscriberRow(email);
    const link = { hash: 'a'.repeat(64), expiresAt: new Date(Date.now() + 86_400_000) };
    const consent = { text: NEWSLETTER_TEXTS.consent, at: new Date(), ip: '192.0.2.1' };
    await expect(
      db()
        .transaction()
        .execute((trx) => repository.renewPending(trx, confirmed, link, consent)),
    ).rejects.toMatchObject(REFUSED);
    expect(await subscriberRow(email)).toEqual(confirmed);

    const unsubscribed = await visitor.post(`/api/v1/newsletter/unsubscribe/${unsubscribeToken}`);
    expect(unsubscribed.json()).toEqual({ message: NEWSLETTER_TEXTS.unsubscribed });
    const gone = await subscriberRow(email);
    expect(gone.status).toBe('unsubscribed');
    await expect(
      db()
        .transaction()
        .execute((trx) => repository.markConfirmed(trx, gone)),
    ).rejects.toMatchObject(REFUSED);
    expect(await subscriberRow(email)).toEqual(gone);

    // The link clicked again answers the same and moves nothing.
    const again = await visitor.post(`/api/v1/newsletter/unsubscribe/${unsubscribeToken}`);
    expect(again.json()).toEqual({ message: NEWSLETTER_TEXTS.unsubscribed });
    expect(await subscriberRow(email)).toEqual(gone);
  });
});
