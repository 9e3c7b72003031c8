import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_TEXTS, CATEGORY_STATEMENTS, ERROR_CODES, INVESTOR_TEXTS } from '@florin/contracts';
import { QUESTION_BANK } from '@florin/domain/appropriateness';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { fund } from '../dashboard/dashboard-actions.js';
import {
  currentUser,
  finishIndividualVerification,
  submitIndividualDocuments,
} from '../kyc/customer-actions.js';
import { approveAllDocuments, makeLive } from '../kyc/staff-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';
import { passInvestorWaits } from './journey-actions.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Answers every question on the screen: the bank's right answer, or a wrong one; 'One to five times' for experience. */
async function answerQuestions(page: Page, right: boolean): Promise<void> {
  const form = page.getByRole('form', { name: INVESTOR_TEXTS.assessmentHeading });
  const groups = form.getByRole('radiogroup');
  await expect(groups).toHaveCount(9);
  for (let index = 0; index < 9; index += 1) {
    const group = groups.nth(index);
    // The group's accessible name is its question, numbered: "3. Who sets the price of bitcoin?".
    const label = await group.evaluate(
      (element) => document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
    );
    const text = label.replace(/^\d+\.\s*/, '');
    const question = QUESTION_BANK.find((entry) => entry.text === text);
    if (!question) {
      await group.getByRole('radio', { name: 'One to five times' }).check();
      continue;
    }
    const option = right
      ? question.options.find((entry) => entry.id === question.correct)!
      : question.options.find((entry) => entry.id !== question.correct)!;
    await group.getByRole('radio', { name: option.text, exact: true }).check();
  }
}

test.describe('the first investment', () => {
  test('a newly verified customer declares their investor type, fails the assessment, passes it a day later, waits out the cooling-off, reads the warning addressed to them and buys; compliance sees and exports the evidence', async ({
    signedInPage: page,
    customer,
    complianceApi: staff,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    test.setTimeout(240_000);
    await submitIndividualDocuments(page.request);
    await finishIndividualVerification(page.request);
    const {
      id: userId,
      first_name: firstName,
      user_identification: reference,
    } = await currentUser(page.request);
    await approveAllDocuments(staff, userId);
    await makeLive(staff, userId);
    await fund(page.request, customer.email, 'GBP', '10000.00');

    await test.step('term deposits and auto buys wait too, and say why', async () => {
      await page.goto('/user/term-deposit');
      await expect(page.getByRole('region', { name: INVESTOR_TEXTS.gateTitle })).toContainText(
        INVESTOR_TEXTS.gateText,
      );
      await saveScreenshots('investor-gate-term-deposit');
      await page.goto('/user/accounts');
      await page.getByRole('tab', { name: ACCOUNT_TEXTS.autoTradeTab }).click();
      await expect(page.getByRole('region', { name: INVESTOR_TEXTS.gateTitle })).toBeVisible();
      await saveScreenshots('investor-gate-auto-trade', [1280]);
    });

    await test.step('buying waits: the trade page says why and leads to the steps', async () => {
      await page.goto('/user/trade?side=buy&coin=btc');
      const gate = page.getByRole('region', { name: INVESTOR_TEXTS.gateTitle });
      await expect(gate).toContainText(INVESTOR_TEXTS.gateText);
      await saveScreenshots('investor-gate-trade');
      await gate.getByRole('link', { name: INVESTOR_TEXTS.gateAction }).click();
      await expect(page).toHaveURL(/\/user\/invest$/);
      await expect(page.getByRole('heading', { level: 1, name: INVESTOR_TEXTS.title })).toBeVisible();
    });

    await test.step('the investor type: a restricted investor who would invest too much is told so', async () => {
      const form = page.getByRole('form', { name: 'Your investor type' });
      await expect(page.getByText('Step 1 of 4: Your investor type')).toBeVisible();
      await form.getByRole('radio', { name: INVESTOR_TEXTS.noneLabel }).check();
      await expect(form.getByText(INVESTOR_TEXTS.noneText)).toBeVisible();
      await form.getByRole('radio', { name: 'Restricted investor' }).check();
      await expect(form.getByText(CATEGORY_STATEMENTS.Individual.restricted.statement)).toBeVisible();
      await form
        .getByLabel('Percentage of net assets invested in high-risk investments in the past 12 months')
        .fill('5');
      await form.getByLabel('Percentage you intend to invest in the next 12 months').fill('20');
      await form.getByRole('button', { name: INVESTOR_TEXTS.categoriseSubmit }).click();
      await expect(form.getByText('Confirm the statement is true.')).toBeVisible();
      await form.getByRole('checkbox', { name: INVESTOR_TEXTS.confirmStatement }).check();
      await form.getByRole('button', { name: INVESTOR_TEXTS.categoriseSubmit }).click();
      await expect(form.getByText(INVESTOR_TEXTS.restrictedTooMuch)).toBeVisible();
      await saveScreenshots('investor-categorise');
      await form.getByLabel('Percentage you intend to invest in the next 12 months').fill('5');
      await form.getByRole('button', { name: INVESTOR_TEXTS.categoriseSubmit }).click();
      await expect(page.getByRole('alert').filter({ hasText: INVESTOR_TEXTS.categorised })).toBeVisible();
      await expect(page.getByText('Step 2 of 4: Assessment')).toBeVisible();
      await closeToasts(page);
    });

    await test.step('the assessment, failed: the score and the wait before a retake', async () => {
      await page.getByRole('button', { name: INVESTOR_TEXTS.assessmentStart }).click();
      await answerQuestions(page, false);
      await saveScreenshots('investor-assessment');
      await page.getByRole('button', { name: INVESTOR_TEXTS.assessmentSubmit }).click();
      const outcome = page.getByRole('status').filter({ hasText: 'Not passed' });
      await expect(outcome).toContainText('You answered 0 of 8 correctly; 7 are needed.');
      await expect(page.getByText(/^You can take the assessment again after /)).toBeVisible();
      await expect(page.getByRole('button', { name: INVESTOR_TEXTS.assessmentStart })).toHaveCount(0);
      await saveScreenshots('investor-assessment-failed');
    });

    await test.step('a day later: a new draw, passed; the cooling-off begins', async () => {
      await passInvestorWaits(page.request, customer.email);
      await page.reload();
      await page.getByRole('button', { name: INVESTOR_TEXTS.assessmentStart }).click();
      await answerQuestions(page, true);
      await page.getByRole('button', { name: INVESTOR_TEXTS.assessmentSubmit }).click();
      await expect(page.getByRole('heading', { name: INVESTOR_TEXTS.coolingOffHeading })).toBeVisible();
      await expect(page.getByText(/^You can make your first investment after /)).toBeVisible();
      await closeToasts(page);
      await saveScreenshots('investor-cooling-off');
    });

    await test.step('during the cooling-off a buy is refused, and the trade page still says why', async () => {
      const quote = await page.request.post('/api/v1/quotes', {
        data: { side: 'buy', coin_id: 'btc', quantity: '0.02' },
        headers: await csrfHeaders(page.request),
      });
      expect(quote.status()).toBe(403);
      expect(((await quote.json()) as { message: string }).message).toBe(
        ERROR_CODES.INVESTOR_JOURNEY_INCOMPLETE.message,
      );
      await page.goto('/user/trade?side=buy&coin=btc');
      await expect(page.getByRole('region', { name: INVESTOR_TEXTS.gateTitle })).toBeVisible();
    });

    await test.step('24 hours on: the personalised warning, on its own screen; accepting it opens buying', async () => {
      await passInvestorWaits(page.request, customer.email);
      await page.goto('/user/invest');
      const warning = page.getByRole('alert', { name: 'Risk warning for you' });
      await expect(warning).toHaveText(
        `${firstName}, this is a high-risk investment. How would you feel if you lost the money you're about to invest? Take 2 mins to learn more.`,
      );
      await expect(warning.getByRole('link', { name: INVESTOR_TEXTS.learnMore })).toHaveAttribute(
        'href',
        '/risk-summary',
      );
      await saveScreenshots('investor-confirm');
      await page.getByRole('button', { name: INVESTOR_TEXTS.confirmAccept }).click();
      // The toast first: it closes by itself after 3 seconds.
      await expect(page.getByRole('alert').filter({ hasText: INVESTOR_TEXTS.completed })).toBeVisible();
      await expect(page).toHaveURL(/\/user\/trade$/);
      await expect(page.getByRole('region', { name: INVESTOR_TEXTS.gateTitle })).toHaveCount(0);
    });

    await test.step('the first buy', async () => {
      await page.getByLabel('Quantity').fill('0.02');
      await page.getByRole('button', { name: 'Preview Order' }).click();
      const dialog = page.getByRole('dialog', { name: 'Preview Order: Buy BTC/GBP' });
      await dialog.getByRole('button', { name: 'Execute' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Transaction Successful' })).toBeVisible();
    });

    await test.step('compliance reads the evidence record and exports it', async () => {
      const { page: office } = await newDevice();
      await signInStaff(office, await staffMember('compliance'));
      await office.goto(`/admin/customers/${userId}?tab=investor`);
      const table = office.getByRole('table', { name: 'Investor journey evidence' });
      await expect(table.getByRole('row')).toHaveCount(10);
      await expect(table).toContainText('assessment failed');
      await expect(table).toContainText('warning accepted');
      await expect(office.getByText('Complete · restricted')).toBeVisible();
      await office.screenshot({ path: `${SCREENSHOT_DIR}admin-investor-evidence-1280.png`, fullPage: true });
      const download = office.waitForEvent('download');
      await office.getByRole('link', { name: INVESTOR_TEXTS.evidenceExport }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`Florin investor evidence ${reference}.json`);
      const record = JSON.parse(await readFile(await file.path(), 'utf8')) as {
        customer: { reference: string };
        events: { step: string }[];
      };
      expect(record.customer.reference).toBe(reference);
      expect(record.events.map((event) => event.step)).toEqual([
        'categorised',
        'assessment_started',
        'assessment_failed',
        'assessment_started',
        'assessment_passed',
        'cooling_off_started',
        'warning_shown',
        'warning_accepted',
        'journey_completed',
      ]);
    });
    expect(consoleErrors).toEqual([]);
  });
});
