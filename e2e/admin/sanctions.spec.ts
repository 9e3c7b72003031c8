import { randomBytes } from 'node:crypto';
import { COMPLIANCE_TEXTS, SANCTIONS_TEXTS } from '@florin/contracts';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders, type NewDevice, type SignIn, type SignUp } from '../fixtures.js';
import {
  currentUser,
  finishIndividualVerification,
  INDIVIDUAL_DETAILS,
  submitIndividualDocuments,
} from '../kyc/customer-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';

/** The columns of OFSI's ConList.csv, as published since 2022. */
const CON_LIST_HEADER =
  'Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,Name Non-Latin Script,Non-Latin Script Type,' +
  'Non-Latin Script Language,DOB,Town of Birth,Country of Birth,Nationality,Passport Number,' +
  'Passport Details,National Identification Number,National Identification Details,Position,' +
  'Address 1,Address 2,Address 3,Address 4,Address 5,Address 6,Post/Zip Code,Country,' +
  'Other Information,Group Type,Alias Type,Alias Quality,Regime,Listed On,' +
  'UK Sanctions List Date Designated,Last Updated,Group ID';

type Listed = { surname: string; given: string; dob: string; groupType: string; groupId: string };

/** A consolidated list file: each row's cells in the header's order, quoted where RFC 4180 asks. */
function conList(rows: readonly Listed[]): string {
  const columns = CON_LIST_HEADER.split(',');
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const line = (row: Listed) => {
    const cells: Record<string, string> = {
      'Name 6': row.surname,
      'Name 1': row.given,
      DOB: row.dob,
      'Other Information': 'Listed for the e2e story, with "quotes", commas',
      'Group Type': row.groupType,
      'Alias Type': 'Primary name',
      Regime: 'Russia',
      'Listed On': '15/03/2022',
      'Group ID': row.groupId,
    };
    return columns.map((column) => quote(cells[column] ?? '')).join(',');
  };
  return ['\uFEFFLast Updated,03/06/2026', CON_LIST_HEADER, ...rows.map(line)].join('\r\n') + '\r\n';
}

/** A surname nobody else in the run has: an import screens every customer of the e2e server. */
function uniqueSurname(): string {
  const letters = [...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `Zed${letters}`;
}

/** Chooses a file in the import form and sends it. */
async function importFile(page: Page, name: string, text: string): Promise<Locator> {
  const importForm = page.getByRole('form', { name: 'Import the consolidated list' });
  await importForm
    .locator('input[type="file"]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await importForm.getByRole('button', { name: 'Import list' }).click();
  return importForm;
}

/**
 * The officer (on `page`, at /admin/sanctions) imports a list naming one person; a customer of that name
 * signs up and finishes verification through the API on a device of their own, and is held for it.
 */
async function listedCustomer(
  page: Page,
  fixtures: { signUp: SignUp; signIn: SignIn; newDevice: NewDevice },
  given: string,
  groupId: string,
) {
  const surname = uniqueSurname();
  const listed = conList([
    { surname: surname.toUpperCase(), given, dob: '', groupType: 'Individual', groupId },
  ]);
  const importForm = await importFile(page, 'ConList.csv', listed);
  await expect(importForm.getByRole('status').filter({ hasText: 'List imported' })).toBeVisible();
  const customer = await fixtures.signUp({ firstName: given, lastName: surname });
  const { page: customerPage } = await fixtures.newDevice();
  await fixtures.signIn(customerPage.request, customer);
  await submitIndividualDocuments(customerPage.request);
  await finishIndividualVerification(customerPage.request);
  const { id: userId, user_identification: reference } = await currentUser(customerPage.request);
  return { surname, userId, reference, customerPage };
}

/** On the customer's compliance page, asks to lift the hold with this reason; the dialog is returned. */
async function askToLiftHold(page: Page, reason: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Lift hold' }).click();
  const lift = page.getByRole('dialog', { name: 'Lift the hold' });
  await lift.getByLabel('Reason').fill(reason);
  await lift.getByRole('button', { name: 'Lift hold' }).click();
  return lift;
}

/**
 * While a sanctions hit holds the account, the case page's Lift hold is disabled and says why, and so
 * does Make live: the server would refuse both with the same text.
 */
async function expectHoldLocked(page: Page, why: string): Promise<void> {
  const lift = page.getByRole('button', { name: 'Lift hold' });
  await expect(lift).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Make live' })).toBeDisabled();
  // The button keeps its focus (aria-disabled): a keyboard reaches the reason, and pressing it does nothing.
  await lift.focus();
  await expect(page.getByRole('tooltip')).toHaveText(why);
  await expect(lift).toHaveAccessibleDescription(why);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Lift the hold' })).toHaveCount(0);
}

test.describe('the back office: sanctions screening', () => {
  // Staff sign-in waits for fresh 30-second codes; the customer verifies through the API.
  test.describe.configure({ timeout: 120_000 });

  test('a compliance officer imports the consolidated list; a customer it names is put on hold when they submit verification; the officer sees the hit and marks it a false positive', async ({
    page,
    signUp,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const surname = uniqueSurname();
    const birthYear = INDIVIDUAL_DETAILS.birthdate.slice(0, 4);
    const listed = conList([
      {
        surname: surname.toUpperCase(),
        given: 'Olég',
        dob: `00/00/${birthYear}`,
        groupType: 'Individual',
        groupId: '90001',
      },
      {
        surname: `${surname.toUpperCase()} HOLDINGS LTD`,
        given: '',
        dob: '',
        groupType: 'Entity',
        groupId: '90002',
      },
    ]);

    await signInStaff(page, await staffMember('compliance'));
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Sanctions' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sanctions screening' })).toBeVisible();

    // A file in another format is refused, with the reason, and nothing changes.
    const importForm = await importFile(page, 'customers.csv', 'first_name,last_name\nAda,Lovelace\n');
    const refusal = importForm.getByRole('alert').filter({ hasText: 'The file was not imported' });
    await expect(refusal).toContainText(SANCTIONS_TEXTS.notConList);
    await expect(refusal).toContainText('The active list has not changed.');
    await saveScreenshots('admin-sanctions-refused', [375]);

    await importFile(page, 'ConList.csv', listed);
    await expect(importForm.getByRole('status').filter({ hasText: 'List imported' })).toContainText(
      SANCTIONS_TEXTS.imported,
    );
    const active = page.getByRole('region', { name: 'Active list' });
    await expect(active).toContainText('03/06/2026');
    await expect(active).toContainText('ConList.csv');
    await expect(active).toContainText('2 designations: 1 individual, 1 entity, 0 ships');
    await saveScreenshots('admin-sanctions-imported', [1280]);

    // The customer named on the list submits verification and is put on hold at once.
    const customer = await signUp({ firstName: 'Oleg', lastName: surname });
    const { page: customerPage } = await newDevice();
    await signIn(customerPage.request, customer);
    await submitIndividualDocuments(customerPage.request);
    await finishIndividualVerification(customerPage.request);
    const { id: userId, user_identification: reference } = await currentUser(customerPage.request);
    await customerPage.goto('/user');
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Account on hold' })).toContainText(
      'Our compliance team has put your account on hold.',
    );

    // The officer sees the hit, with the way to the customer.
    await page.reload();
    const hits = page.getByRole('table', { name: 'Screening hits' });
    const hit = hits.getByRole('row').filter({ hasText: reference });
    await expect(hit).toContainText(`Oleg ${surname}`);
    await expect(hit).toContainText(`Olég ${surname.toUpperCase()}`);
    await expect(hit).toContainText('group 90001');
    await expect(hit).toContainText('On hold');
    await expect(hit.getByRole('link', { name: `Oleg ${surname}` })).toHaveAttribute(
      'href',
      `/admin/customers/${userId}`,
    );
    await closeToasts(page);
    await saveScreenshots('admin-sanctions');

    // Unreviewed, the match may be the listed person: the hold cannot be lifted yet.
    await page.goto(`/admin/compliance/${userId}`);
    await expectHoldLocked(page, COMPLIANCE_TEXTS.openSanctionsHit);
    await saveScreenshots('admin-lift-hold-open-sanctions-hit', [375]);
    await page.goBack();

    // Not the listed person: recorded with a note; the hold stays for the officer to lift.
    await hit.getByRole('button', { name: `Mark false positive: Oleg ${surname}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark as a false positive' });
    await dialog.getByRole('button', { name: 'Mark false positive' }).click();
    await expect(dialog.getByText(SANCTIONS_TEXTS.noteRequired)).toBeVisible();
    await dialog
      .getByLabel('Why is this not the listed person or entity?')
      .fill('Passport checked: born in Leeds, not the listed person.');
    await saveScreenshots('admin-sanctions-false-positive', [375]);
    await dialog.getByRole('button', { name: 'Mark false positive' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(SANCTIONS_TEXTS.falsePositiveMarked)).toBeVisible();
    await expect(hits.getByRole('row').filter({ hasText: reference })).toHaveCount(0);
    // The segmented control's radio is visually hidden under its label: the label is what people click.
    await page.getByRole('radiogroup', { name: 'Hits to show' }).getByText('False positives').click();
    await expect(page.getByRole('radio', { name: 'False positives' })).toBeChecked();
    await expect(
      page.getByRole('table', { name: 'Screening hits' }).getByRole('row').filter({ hasText: reference }),
    ).toContainText('Passport checked: born in Leeds');
    await customerPage.reload();
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Account on hold' })).toBeVisible();

    // Reviewed, the hold is the officer's to lift.
    await page.goto(`/admin/compliance/${userId}`);
    await askToLiftHold(page, 'Sanctions match reviewed: a false positive.');
    await expect(page.getByRole('button', { name: 'Put on hold' })).toBeVisible();
    await customerPage.reload();
    await expect(customerPage.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Account on hold' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the back office: sanctions screening after a hit', () => {
  // Staff sign-in waits for fresh 30-second codes; the customer verifies through the API.
  test.describe.configure({ timeout: 120_000 });

  test('a compliance officer confirms a match: the account stays on hold, and the hold cannot be lifted', async ({
    page,
    signUp,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signInStaff(page, await staffMember('compliance'));
    await page.goto('/admin/sanctions');
    const { surname, userId, reference, customerPage } = await listedCustomer(
      page,
      { signUp, signIn, newDevice },
      'Vera',
      '90011',
    );

    await page.reload();
    const hit = page
      .getByRole('table', { name: 'Screening hits' })
      .getByRole('row')
      .filter({ hasText: reference });
    await hit.getByRole('button', { name: `Confirm match: Vera ${surname}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the match' });
    await expect(dialog).toContainText(`Vera ${surname} is Vera ${surname.toUpperCase()} (group 90011).`);
    // The officer confirms having reported it before the decision can be sent.
    const confirm = dialog.getByRole('button', { name: 'Confirm match' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('I have reported this match to OFSI, or will do so now.').check();
    await confirm.click();
    await expect(dialog.getByText(SANCTIONS_TEXTS.confirmNoteRequired)).toBeVisible();
    await dialog
      .getByLabel("What shows this is the listed person or entity? Give your OFSI report's reference.")
      .fill('Passport and address match the listing. OFSI report FR-2026-0211.');
    await saveScreenshots('admin-sanctions-confirm-match', [375, 1280]);
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(SANCTIONS_TEXTS.matchConfirmed)).toBeVisible();
    await expect(hit).toHaveCount(0);
    await page.getByRole('radiogroup', { name: 'Hits to show' }).getByText('Confirmed').click();
    await expect(page.getByRole('heading', { level: 2, name: 'Confirmed matches' })).toBeVisible();
    await expect(hit).toContainText('OFSI report FR-2026-0211');
    await expect(hit).toContainText('On hold');
    await closeToasts(page);
    await saveScreenshots('admin-sanctions-confirmed');

    // Confirmed, the hold is for good: the case page says so, and lifting it is refused.
    await page.goto(`/admin/compliance/${userId}`);
    await expect(page.getByRole('alert', { name: 'On hold' })).toContainText(
      SANCTIONS_TEXTS.confirmedHoldReason,
    );
    await expectHoldLocked(page, COMPLIANCE_TEXTS.confirmedSanctionsHit);
    await saveScreenshots('admin-case-confirmed-sanctions-match');
    await customerPage.goto('/user');
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Account on hold' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('once OFSI revokes the designation and the list no longer names it, the officer records the delisting and lifts the hold', async ({
    page,
    signUp,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signInStaff(page, await staffMember('compliance'));
    await page.goto('/admin/sanctions');
    const { surname, userId, reference, customerPage } = await listedCustomer(
      page,
      { signUp, signIn, newDevice },
      'Oleg',
      '90021',
    );

    // Confirmed earlier (the story above shows how): through the API here.
    const hits = await page.request.get('/api/admin/sanctions/hits?status=open');
    const found = ((await hits.json()) as { data: { id: number; user_id: number }[] }).data.find(
      (item) => item.user_id === userId,
    );
    if (!found) throw new Error('no open hit for the customer');
    const confirmed = await page.request.post(`/api/admin/sanctions/hits/${found.id}/confirm`, {
      data: { note: 'Passport matches the listing. OFSI report FR-2026-0302.' },
      headers: await csrfHeaders(page.request),
    });
    expect(confirmed.ok(), await confirmed.text()).toBe(true);

    // Still listed: Record delisting says why it cannot be used yet.
    await page.goto('/admin/sanctions?status=confirmed');
    const hit = page
      .getByRole('table', { name: 'Screening hits' })
      .getByRole('row')
      .filter({ hasText: reference });
    const record = hit.getByRole('button', { name: `Record delisting: Oleg ${surname}` });
    await expect(record).toBeDisabled();
    await record.focus();
    await expect(page.getByRole('tooltip')).toHaveText(SANCTIONS_TEXTS.stillListed);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Record the delisting' })).toHaveCount(0);

    // OFSI's next list no longer names them.
    const importForm = await importFile(
      page,
      'ConList.csv',
      conList([
        { surname: uniqueSurname(), given: 'Other', dob: '', groupType: 'Individual', groupId: '90022' },
      ]),
    );
    await expect(importForm.getByRole('status').filter({ hasText: 'List imported' })).toBeVisible();
    await expect(record).toBeEnabled();
    await record.click();
    const dialog = page.getByRole('dialog', { name: 'Record the delisting' });
    await expect(dialog).toContainText(
      `Oleg ${surname.toUpperCase()} (group 90021) is no longer on the consolidated list.`,
    );
    await dialog.getByRole('button', { name: 'Record delisting' }).click();
    await expect(dialog.getByText(SANCTIONS_TEXTS.delistNoteRequired)).toBeVisible();
    await dialog
      .getByLabel('When was the designation revoked, and where did OFSI publish it?')
      .fill('Revoked 20/11/2026, OFSI financial sanctions notice 2026/117.');
    await saveScreenshots('admin-sanctions-record-delisting');
    await dialog.getByRole('button', { name: 'Record delisting' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(SANCTIONS_TEXTS.delisted)).toBeVisible();
    await expect(hit).toHaveCount(0);
    await page.getByRole('radiogroup', { name: 'Hits to show' }).getByText('Delisted').click();
    await expect(page.getByRole('heading', { level: 2, name: 'Delisted' })).toBeVisible();
    await expect(hit).toContainText(
      'Delisted: Revoked 20/11/2026, OFSI financial sanctions notice 2026/117.',
    );
    await expect(hit).toContainText('Passport matches the listing. OFSI report FR-2026-0302.');
    await closeToasts(page);
    await saveScreenshots('admin-sanctions-delisted');

    // Nothing holds the account now: the case says why it is still held, and the officer lifts the hold.
    await page.goto(`/admin/compliance/${userId}`);
    await expect(page.getByRole('alert', { name: 'On hold' })).toContainText(
      SANCTIONS_TEXTS.delistedHoldReason,
    );
    const lift = await askToLiftHold(page, 'Designation revoked; nothing else holds the account.');
    await expect(lift).toBeHidden();
    await expect(page.getByRole('button', { name: 'Put on hold' })).toBeVisible();
    await customerPage.goto('/user');
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Account on hold' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
