import fs from 'node:fs';
import { NEWSLETTER_CSV_COLUMNS, NEWSLETTER_TEXTS } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { parseCsv } from '../dashboard/dashboard-actions.js';
import { csrfHeaders, linkIn, uniqueEmail, type Mail } from '../fixtures.js';

const CONFIRM_SUBJECT = 'Please confirm your newsletter subscription';
/** After a navigation or a call: chunks and answers come slowly when the machine is busy. */
const SETTLED = { timeout: 20_000 };

/** The unsubscribe link every newsletter mail carries, after the action link. */
function unsubscribeLinkIn(mail: Mail): string {
  const url = /Unsubscribe: (https?:\/\/\S+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`No unsubscribe link in the mail "${mail.subject}" to ${mail.to}`);
  return url;
}

test.describe('the newsletter', () => {
  test('a visitor signs up on the landing page and confirms by the mailed link; staff see and export the address', async ({
    page,
    mailbox,
    consoleErrors,
    saveScreenshots,
    staffMember,
    signInStaff,
  }) => {
    // A visitor, a mailbox and a new staff member (invited, password set, 2FA enrolled): more than 30 s on a busy machine.
    test.setTimeout(120_000);
    const email = uniqueEmail('newsletter');
    await page.goto('/home');
    const signUp = page.getByRole('form', { name: NEWSLETTER_TEXTS.formLabel });
    await expect(signUp).toBeVisible(SETTLED);
    await expect(signUp).toContainText(NEWSLETTER_TEXTS.consent);
    await expect(signUp.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');

    // Nothing typed: the field says what is wrong, and nothing is sent.
    const subscribe = signUp.getByRole('button', { name: 'Subscribe' });
    await subscribe.click();
    const field = signUp.getByRole('textbox', { name: 'Email address' });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(signUp.getByText(NEWSLETTER_TEXTS.emailInvalid)).toBeVisible();

    await field.fill(email);
    const since = new Date(Date.now() - 1_000);
    await subscribe.click();
    await expect(page.getByRole('status').filter({ hasText: NEWSLETTER_TEXTS.signedUp })).toBeVisible(
      SETTLED,
    );
    await expect(field).toHaveValue('');
    await signUp.scrollIntoViewIfNeeded();
    await saveScreenshots('newsletter-signed-up');

    const mail = await mailbox.waitForMail(email, CONFIRM_SUBJECT, { since });
    const link = linkIn(mail);
    expect(new URL(link).pathname).toMatch(/^\/newsletter\/confirm\/[\w-]{43}$/);
    expect(new URL(unsubscribeLinkIn(mail)).pathname).toMatch(/^\/newsletter\/unsubscribe\/[\w-]{43}$/);

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: NEWSLETTER_TEXTS.confirmedTitle })).toBeVisible(
      SETTLED,
    );
    await expect(page.getByText(NEWSLETTER_TEXTS.confirmed)).toBeVisible();
    await expect(page).toHaveTitle('Newsletter · Florin');
    await saveScreenshots('newsletter-confirmed');

    // The link works once.
    await page.goto(link);
    await expect(
      page.getByRole('heading', { level: 1, name: NEWSLETTER_TEXTS.confirmFailedTitle }),
    ).toBeVisible(SETTLED);
    await expect(page.getByText(NEWSLETTER_TEXTS.confirmLinkInvalid)).toBeVisible();
    await expect(page.getByRole('link', { name: NEWSLETTER_TEXTS.backHome })).toHaveAttribute(
      'href',
      '/home',
    );
    await saveScreenshots('newsletter-link-used');

    await signInStaff(page, await staffMember('support'));
    // /admin first takes support to the customer search; the navigation is used once it has.
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible(SETTLED);
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Newsletter' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible(SETTLED);
    await expect(page.getByRole('definition').first()).toHaveText(/^\d+$/);
    await page.getByRole('textbox', { name: 'Find an address' }).fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page
      .getByRole('table', { name: 'Subscribers' })
      .getByRole('row', { name: new RegExp(email) });
    await expect(row).toContainText('Confirmed');
    await expect(page.getByRole('table', { name: 'Subscribers' }).getByRole('row')).toHaveCount(2);
    await saveScreenshots('admin-newsletter');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...records] = parseCsv(fs.readFileSync(await file.path(), 'utf8')).filter(
      (record) => record.join('') !== '',
    );
    expect(header).toEqual([...NEWSLETTER_CSV_COLUMNS]);
    const exported = records.find((record) => record[0] === email);
    expect(exported?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(exported?.[2]).toBe(NEWSLETTER_TEXTS.consent);

    expect(consoleErrors).toEqual([]);
  });

  test('a subscriber leaves the list with the link in the mail', async ({
    page,
    api,
    mailbox,
    consoleErrors,
    saveScreenshots,
  }) => {
    const email = uniqueEmail('leaving');
    const since = new Date(Date.now() - 1_000);
    const answer = await api.post('/api/v1/newsletter', {
      data: { email },
      headers: await csrfHeaders(api),
    });
    expect(answer.status()).toBe(200);
    const mail = await mailbox.waitForMail(email, CONFIRM_SUBJECT, { since });

    await page.goto(unsubscribeLinkIn(mail));
    await expect(
      page.getByRole('heading', { level: 1, name: NEWSLETTER_TEXTS.unsubscribeTitle }),
    ).toBeVisible(SETTLED);
    await saveScreenshots('newsletter-unsubscribe');
    await page.getByRole('button', { name: NEWSLETTER_TEXTS.unsubscribe }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: NEWSLETTER_TEXTS.unsubscribedTitle }),
    ).toBeVisible(SETTLED);
    await expect(page.getByText(NEWSLETTER_TEXTS.unsubscribed)).toBeVisible();

    // Its confirmation link died with it.
    await page.goto(linkIn(mail));
    await expect(page.getByText(NEWSLETTER_TEXTS.confirmLinkInvalid)).toBeVisible(SETTLED);
    expect(consoleErrors).toEqual([]);
  });
});
