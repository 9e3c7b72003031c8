import { ENQUIRY_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders, holdRequests, uniqueEmail, type Mail } from '../fixtures.js';

/** The e2e server's configuration (playwright.config.ts): the default mailboxes and a phone line. */
const CONTACTS = [
  ['Support', 'support@florin.local'],
  ['Business development', 'business@florin.local'],
  ['Press', 'press@florin.local'],
  ['HR', 'careers@florin.local'],
] as const;
const PHONE = '+44 20 7946 0000';
const HOURS = 'UK business hours Mon-Fri 9am-6pm';

/** Counts the enquiries the page posts, so a test can say none left the browser. */
function countEnquiryPosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/v1/inquire/'))
      posts += 1;
  });
  return () => posts;
}

test.describe('the contact page', () => {
  test('a visitor reads whom to contact and when, and sends a product enquiry that reaches the team and themselves', async ({
    page,
    mailbox,
    consoleErrors,
    saveScreenshots,
  }) => {
    // Four screenshots, two mails to wait for.
    test.setTimeout(90_000);
    const enquiryPosts = countEnquiryPosts(page);
    await page.goto('/contact-us');
    await expect(page).toHaveTitle('Contact us · Florin');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^How to reach Florin/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
    await expect(main.getByRole('link', { name: 'Back' })).toBeVisible();

    for (const [team, email] of CONTACTS) {
      const card = main
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: team, exact: true }) });
      await expect(card.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    }
    await expect(main.getByRole('heading', { level: 2, name: 'Call us' })).toBeVisible();
    await expect(main.getByRole('link', { name: PHONE })).toHaveAttribute('href', 'tel:+442079460000');
    await expect(main.getByText(HOURS, { exact: true })).toBeVisible();
    await saveScreenshots('contact');

    await main.getByRole('button', { name: 'Business development enquiry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Product Enquiry' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('First Name')).toBeFocused();

    // Nothing is sent until every field is valid; each says what is wrong under it.
    const enquire = dialog.getByRole('button', { name: 'Enquire' });
    await enquire.click();
    await expect(dialog.getByText(ENQUIRY_TEXTS.firstNameRequired)).toBeVisible();
    await expect(dialog.getByText(ENQUIRY_TEXTS.lastNameRequired)).toBeVisible();
    await expect(dialog.getByText(ENQUIRY_TEXTS.emailRequired)).toBeVisible();
    await expect(dialog.getByText(ENQUIRY_TEXTS.messageRequired)).toBeVisible();
    await expect(dialog.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');
    await saveScreenshots('contact-enquiry-errors');

    const email = uniqueEmail('enquirer');
    await dialog.getByLabel('First Name').fill('Grace');
    await dialog.getByLabel('Last Name').fill('Hopper');
    await dialog.getByLabel('Email').fill('grace@');
    const message = 'We are a charity holding donated BTC.\nCan we open a corporate account?';
    await dialog.getByLabel('Message').fill(message);
    await expect(dialog.getByText(ENQUIRY_TEXTS.firstNameRequired)).toBeHidden();
    await enquire.click();
    await expect(dialog.getByText(ENQUIRY_TEXTS.emailInvalid)).toBeVisible();
    expect(enquiryPosts()).toBe(0);

    // A spinner on the button while the server answers.
    const release = await holdRequests(page, '**/api/v1/inquire/*');
    await dialog.getByLabel('Email').fill(email);
    const since = new Date(Date.now() - 1_000);
    await enquire.click();
    await expect(enquire).toHaveAttribute('data-loading', 'true');
    release();

    const sent = page.getByRole('dialog', { name: 'Enquiry sent' });
    await expect(sent.getByRole('status')).toContainText(ENQUIRY_TEXTS.sent);
    expect(enquiryPosts()).toBe(1);
    await saveScreenshots('contact-enquiry-sent');

    const forwarded = await mailbox.waitForMail(
      'business@florin.local',
      'Business development enquiry from Grace Hopper',
      { since },
    );
    expect(forwarded.text).toContain(`From: Grace Hopper <${email}>`);
    expect(forwarded.text).toContain('We are a charity holding donated BTC.');
    expect(forwarded.text).toContain('Can we open a corporate account?');
    expect((forwarded as Mail & { reply_to: string | null }).reply_to).toBe(email);
    const acknowledgement = await mailbox.waitForMail(email, 'We have received your enquiry', { since });
    expect(acknowledgement.text).toContain(HOURS);

    await sent.getByRole('button', { name: 'OK' }).click();
    await expect(sent).toBeHidden();
    // The next enquiry starts empty.
    await main.getByRole('button', { name: 'Press enquiry' }).click();
    await expect(page.getByRole('dialog', { name: 'Product Enquiry' }).getByLabel('First Name')).toHaveValue(
      '',
    );
    expect(consoleErrors).toEqual([]);
  });

  test('an enquiry the server refuses is shown as an error with what to do, and what was typed is kept', async ({
    page,
    api,
    saveScreenshots,
  }) => {
    // This visitor's address has sent as many enquiries as an hour allows (five): the next is refused (429).
    for (let sent = 0; ; sent += 1) {
      const response = await api.post('/api/v1/inquire/general', {
        data: { first_name: 'Ada', last_name: 'Lovelace', email: uniqueEmail('earlier'), message: 'Hello' },
        headers: await csrfHeaders(api),
      });
      if (response.status() === 429) break;
      expect(response.status()).toBe(200);
      expect(sent).toBeLessThan(5);
    }

    await page.goto('/contact-us');
    await page.getByRole('button', { name: 'Support enquiry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Product Enquiry' });
    await dialog.getByLabel('First Name').fill('Ada');
    await dialog.getByLabel('Last Name').fill('Lovelace');
    await dialog.getByLabel('Email').fill(uniqueEmail('refused'));
    await dialog.getByLabel('Message').fill('My withdrawal has not arrived.');
    await dialog.getByRole('button', { name: 'Enquire' }).click();

    const failed = page.getByRole('dialog', { name: 'Enquiry not sent' });
    const alert = failed.getByRole('alert');
    await expect(alert).toContainText('Your enquiry was not sent');
    // The moment the hour's first enquiry leaves the count, in UK time.
    await expect(alert).toContainText(
      /Too many attempts\. You can try again from \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)\./,
    );
    await expect(alert.getByRole('link', { name: 'support@florin.local' })).toHaveAttribute(
      'href',
      'mailto:support@florin.local',
    );
    await expect(page.getByText(ENQUIRY_TEXTS.sent)).toHaveCount(0);
    await saveScreenshots('contact-enquiry-failed');

    await failed.getByRole('button', { name: 'Back to the form' }).click();
    const form = page.getByRole('dialog', { name: 'Product Enquiry' });
    await expect(form.getByLabel('Message')).toHaveValue('My withdrawal has not arrived.');
    await expect(form.getByLabel('First Name')).toHaveValue('Ada');
  });

  test('the old /ContactUs.html address lands on the contact page', async ({ page }) => {
    await page.goto('/ContactUs.html');
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });

  test('support staff read the enquiries in the back office, newest first and by type', async ({
    page,
    api,
    staffMember,
    signInStaff,
    saveScreenshots,
  }) => {
    // A staff member is invited, sets a password and enrolls 2FA first.
    test.setTimeout(90_000);
    const lastName = `Enquirer${Date.now()}`;
    const send = async (type: string, message: string) => {
      const response = await api.post(`/api/v1/inquire/${type}`, {
        data: { first_name: 'Grace', last_name: lastName, email: uniqueEmail('enquirer'), message },
        headers: await csrfHeaders(api),
      });
      expect(response.status()).toBe(200);
    };
    await send('press', 'Could we interview your founders about crypto in the UK?');
    await send('business', 'We would like to list our token.\nWho should we talk to?');

    await signInStaff(page, await staffMember('support'));
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Enquiries' })
      .click();
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Enquiries' });
    // Other stories send enquiries at the same time: these are the two this one sent, newest first.
    const mine = table.getByRole('row').filter({ hasText: `Grace ${lastName}` });
    await expect(mine).toHaveCount(2);
    await expect(mine.nth(0)).toContainText('Business development');
    await expect(mine.nth(0)).toContainText('Who should we talk to?');
    await expect(mine.nth(1)).toContainText('Press');
    await expect(mine.nth(1)).toContainText('Could we interview your founders');
    await saveScreenshots('admin-enquiries');

    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Press' }).click();
    await expect(page).toHaveURL(/\/admin\/enquiries\?type=press$/);
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('Could we interview your founders');
    await expect(table.getByText('Business development', { exact: true })).toHaveCount(0);
  });
});
