import type { Quote } from '@florin/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';
import {
  currentUser,
  finishIndividualVerification,
  submitIndividualDocuments,
} from '../kyc/customer-actions.js';
import { completeFirstInvestmentJourney } from '../investor/journey-actions.js';
import { approveAllDocuments, makeLive } from '../kyc/staff-actions.js';

/**
 * Setting the scene for the dashboard stories: a live customer, and money in
 * their account. Deposits are not built yet, so money arrives through the dev
 * route that credits a customer from the house's suspense account (an
 * "Adjustment" in their history).
 */

/** The customer signed in on `page` goes through verification (API) and staff make them live. */
export async function makeCustomerLive(page: Page, staff: APIRequestContext): Promise<number> {
  await submitIndividualDocuments(page.request);
  await finishIndividualVerification(page.request);
  const { id } = await currentUser(page.request);
  await approveAllDocuments(staff, id);
  await makeLive(staff, id);
  await completeFirstInvestmentJourney(page.request);
  return id;
}

let fundCount = 0;

/** Credits `amount` of `asset` to the customer with this e-mail, as one ledger journal. */
export async function fund(
  request: APIRequestContext,
  email: string,
  asset: string,
  amount: string,
): Promise<void> {
  fundCount += 1;
  const key = `e2e-${Date.now().toString(36)}-${process.pid}-${fundCount}`;
  const response = await request.post('/dev/ledger/fund', {
    data: { email, asset, amount, key },
    headers: await csrfHeaders(request),
  });
  if (!response.ok()) {
    throw new Error(`POST /dev/ledger/fund answered ${response.status()}: ${await response.text()}`);
  }
}

/** The customer signed in on `page` trades BTC/GBP through the API, as from another tab: a quote, executed at once. */
export async function tradeElsewhere(page: Page, side: 'buy' | 'sell', quantity: string): Promise<void> {
  const headers = await csrfHeaders(page.request);
  const quoted = await page.request.post('/api/v1/quotes', {
    data: { side, coin_id: 'btc', currency: 'gbp', quantity },
    headers,
  });
  if (!quoted.ok())
    throw new Error(`POST /api/v1/quotes answered ${quoted.status()}: ${await quoted.text()}`);
  const { data } = (await quoted.json()) as { data: Quote };
  const executed = await page.request.post('/api/v1/order', { form: { quote_id: data.id }, headers });
  if (!executed.ok())
    throw new Error(`POST /api/v1/order answered ${executed.status()}: ${await executed.text()}`);
}

/** RFC 4180: fields split on commas outside quotes, "" inside quotes is one quote, CRLF or LF ends a record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inQuotes) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') inQuotes = false;
      else field += char;
    } else if (char === '"') inQuotes = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** `1234.567891` cut to `places` with thousands separators, as the screen shows amounts. */
export function screenAmount(value: string, places: number): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cut = places > 0 ? `.${fraction.padEnd(places, '0').slice(0, places)}` : '';
  return `${negative ? '-' : ''}${grouped}${cut}`;
}
