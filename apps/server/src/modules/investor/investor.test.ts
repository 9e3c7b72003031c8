import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AssessmentAttemptSchema,
  CATEGORY_STATEMENTS,
  INVESTOR_TEXTS,
  InvestorEvidenceSchema,
  InvestorJourneySchema,
  type AssessmentAttempt,
  type InvestorJourney,
} from '@florin/contracts';
import { ASSESSMENT_RULES, findQuestion } from '@florin/domain/appropriateness';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';

let t: TestApp;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await expectLedgerToHold(t.database.db);
});

const db = () => t.database.db;

/** A live customer who has not started the journey. */
const newInvestor = (options: { accountType?: 'Individual' | 'Corporate'; firstName?: string } = {}) =>
  liveCustomer(t, { journey: false, ...options });

async function journey(customer: Customer): Promise<InvestorJourney> {
  const response = await customer.browser.get('/api/v1/investor/journey');
  expect(response.statusCode, response.body).toBe(200);
  return InvestorJourneySchema.parse(response.json<{ data: unknown }>().data);
}

const RESTRICTED = { category: 'restricted', past_percent: '5', intended_percent: '7.5', confirmed: true };

function categorise(customer: Customer, body: Record<string, unknown>) {
  return customer.browser.post('/api/v1/investor/categorisation', body);
}

async function start(customer: Customer): Promise<AssessmentAttempt> {
  const response = await customer.browser.post('/api/v1/investor/assessment', {});
  expect(response.statusCode, response.body).toBe(200);
  return AssessmentAttemptSchema.parse(response.json<{ data: unknown }>().data);
}

/** The right answer to the first `right` scored questions, a wrong one to the rest; 'few' for experience. */
function answersFor(attempt: AssessmentAttempt, right: number): Record<string, string> {
  let scored = 0;
  return Object.fromEntries(
    attempt.questions.map((question) => {
      const correct = findQuestion(question.id)!.correct;
      if (correct === null) return [question.id, 'few'];
      scored += 1;
      const wrong = question.options.find((option) => option.id !== correct)!.id;
      return [question.id, scored <= right ? correct : wrong];
    }),
  );
}

function submit(customer: Customer, attemptId: string, answers: Record<string, string>) {
  return customer.browser.post(`/api/v1/investor/assessment/${attemptId}`, { answers });
}

async function passWaits(customer: Customer) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/dev/investor/pass-waits',
    payload: { email: customer.email },
  });
  expect(response.statusCode, response.body).toBe(200);
}

function buyQuote(customer: Customer) {
  return customer.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' });
}

async function evidenceSteps(customer: Customer): Promise<string[]> {
  const rows = await db()
    .selectFrom('investor_evidence')
    .select('step')
    .where('user_id', '=', customer.id)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.step);
}

/** Categorised and passed: the customer is in the cooling-off period. */
async function passAssessment(customer: Customer) {
  expect((await categorise(customer, RESTRICTED)).statusCode).toBe(200);
  const attempt = await start(customer);
  const passed = await submit(customer, attempt.id, answersFor(attempt, ASSESSMENT_RULES.questions));
  expect(passed.statusCode, passed.body).toBe(200);
}

describe('the first-investment journey', () => {
  it('a customer who is not live yet has no journey to take', async () => {
    const customer = await liveCustomer(t, { live: false });
    const response = await customer.browser.get('/api/v1/investor/journey');
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('ACCOUNT_NOT_LIVE');
  });

  it('walks a retail customer through categorisation, a failed assessment, the wait, a pass, the cooling-off and the warning; buying waits until the end, selling never', async () => {
    const customer = await newInvestor({ firstName: 'Ada' });
    await bankDeposit(t, customer, '10000.00');
    await coinDeposit(t, customer, 'btc', '0.01');
    // Prices go stale after 10 seconds: driven after the deposits.
    const drive = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '50000' },
    });
    expect(drive.statusCode, drive.body).toBe(200);
    expect(await journey(customer)).toMatchObject({
      step: 'categorisation',
      account_type: 'Individual',
      first_name: 'Ada',
      category: null,
      assessment: { questions: 8, pass_mark: 7, last: null, retake_at: null },
    });

    // Before the journey: a buy quote, a term deposit and an auto buy are refused; a sale is quoted.
    const refusedBuy = await buyQuote(customer);
    expect(refusedBuy.statusCode).toBe(403);
    expect(errorOf(refusedBuy)).toMatchObject({
      code: 'INVESTOR_JOURNEY_INCOMPLETE',
      message: 'Before your first investment, please complete the steps under Before you invest.',
    });
    const lock = await customer.browser.post(
      '/api/v1/crypto/term-deposit',
      { coin: 'btc', amount: '0.001', day: 1 },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(errorOf(lock).code).toBe('INVESTOR_JOURNEY_INCOMPLETE');
    const autoBuy = await customer.browser.post(`/api/v1/user/autobuy/${customer.id}`, {
      type: 'buy',
      coin_id: 'btc',
      passcode: '123456',
    });
    expect(errorOf(autoBuy).code).toBe('INVESTOR_JOURNEY_INCOMPLETE');
    const sellQuote = await customer.browser.post('/api/v1/quotes', {
      side: 'sell',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(sellQuote.statusCode, sellQuote.body).toBe(200);

    // Figures that do not fit the category are refused on their field, and nothing is kept.
    const tooMuch = await categorise(customer, { ...RESTRICTED, intended_percent: '15' });
    expect(tooMuch.statusCode).toBe(422);
    expect(errorOf(tooMuch).errors).toEqual({ intended_percent: [INVESTOR_TEXTS.restrictedTooMuch] });
    const poor = await categorise(customer, {
      category: 'high_net_worth',
      annual_income: '99999.99',
      net_assets: '249999',
      confirmed: true,
    });
    expect(errorOf(poor).errors).toEqual({ annual_income: [INVESTOR_TEXTS.highNetWorthBelow] });
    const oldCertificate = await categorise(customer, {
      category: 'sophisticated',
      certifying_firm: 'Example Capital LLP',
      certified_on: '2020-01-01',
      confirmed: true,
    });
    expect(errorOf(oldCertificate).errors).toEqual({ certified_on: [INVESTOR_TEXTS.sophisticatedTooOld] });
    const company = await categorise(customer, {
      category: 'large_undertaking',
      balance_sheet_total: '30000000',
      net_turnover: '50000000',
      own_funds: '3000000',
      confirmed: true,
    });
    expect(errorOf(company).errors).toEqual({ category: ['Choose one of the types listed.'] });
    const unconfirmed = await categorise(customer, { ...RESTRICTED, confirmed: false });
    expect(unconfirmed.statusCode).toBe(422);
    expect(await evidenceSteps(customer)).toEqual([]);
    expect((await journey(customer)).step).toBe('categorisation');

    // No assessment before the category.
    expect((await customer.browser.post('/api/v1/investor/assessment', {})).statusCode).toBe(409);

    const categorised = await categorise(customer, RESTRICTED);
    expect(categorised.statusCode, categorised.body).toBe(200);
    expect(categorised.json<{ message: string }>().message).toBe(INVESTOR_TEXTS.categorised);
    expect(await journey(customer)).toMatchObject({ step: 'assessment', category: 'restricted' });

    // A failed attempt: the score, and a wait of a day before the next.
    const first = await start(customer);
    expect(first.questions).toHaveLength(ASSESSMENT_RULES.questions + 1);
    expect(first.questions.at(-1)!.id).toBe('experience');
    expect(JSON.stringify(first)).not.toContain('correct');
    const failed = await submit(customer, first.id, answersFor(first, ASSESSMENT_RULES.passMark - 1));
    expect(failed.statusCode, failed.body).toBe(200);
    const failedBody = failed.json<{
      result: { passed: boolean; score: number };
      data: InvestorJourney;
      message: string;
    }>();
    // When they may try again, as a UK customer reads it, never an ISO timestamp.
    expect(failedBody.message).toMatch(/try again after \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)\.$/);
    expect(failedBody.result).toMatchObject({
      passed: false,
      score: ASSESSMENT_RULES.passMark - 1,
      total: 8,
    });
    const retakeAt = Date.parse(failedBody.data.assessment.retake_at!);
    expect(retakeAt - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(failedBody.data.step).toBe('assessment');

    // An answered attempt is answered once; a retake waits.
    expect((await submit(customer, first.id, answersFor(first, 8))).statusCode).toBe(409);
    const early = await customer.browser.post('/api/v1/investor/assessment', {});
    expect(early.statusCode).toBe(409);
    // The wait's end as a UK customer reads it, never an ISO timestamp.
    expect(errorOf(early).message).toMatch(
      /^You can take the assessment again after \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)\.$/,
    );

    await passWaits(customer);
    const second = await start(customer);
    // An attempt that is not the newest, or not this customer's, is not found.
    expect((await submit(customer, randomUUID(), answersFor(second, 8))).statusCode).toBe(404);
    // Every drawn question must be answered with one of its options; a refusal changes nothing.
    const { [second.questions[0]!.id]: _skipped, ...partial } = answersFor(second, 8);
    const incomplete = await submit(customer, second.id, partial);
    expect(incomplete.statusCode).toBe(422);
    expect(errorOf(incomplete).errors).toEqual({ answers: [INVESTOR_TEXTS.assessmentUnanswered] });
    const passed = await submit(customer, second.id, answersFor(second, ASSESSMENT_RULES.passMark));
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json<{ message: string }>().message).toBe(INVESTOR_TEXTS.assessmentPassed);

    // Cooling-off: 24 hours; nothing can be confirmed and buying still waits.
    const cooling = await journey(customer);
    expect(cooling.step).toBe('cooling_off');
    expect(Date.parse(cooling.cooling_off_ends_at!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const tooSoon = await customer.browser.post('/api/v1/investor/confirm', { accepted: true });
    expect(tooSoon.statusCode).toBe(409);
    expect(errorOf(tooSoon).message).toMatch(
      /^You can make your first investment after \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)\. /,
    );
    expect(
      (await customer.browser.post('/api/v1/investor/warnings/shown', { warning: 'personalised' }))
        .statusCode,
    ).toBe(409);
    expect(errorOf(await buyQuote(customer)).code).toBe('INVESTOR_JOURNEY_INCOMPLETE');

    // A day later: the personalised warning, shown and accepted; then the first buy.
    await passWaits(customer);
    expect((await journey(customer)).step).toBe('confirm');
    const shown = await customer.browser.post('/api/v1/investor/warnings/shown', { warning: 'personalised' });
    expect(shown.statusCode, shown.body).toBe(200);
    const confirmed = await customer.browser.post('/api/v1/investor/confirm', { accepted: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<{ message: string; data: InvestorJourney }>()).toMatchObject({
      message: INVESTOR_TEXTS.completed,
      data: { step: 'complete' },
    });
    expect((await buyQuote(customer)).statusCode).toBe(200);

    expect(await evidenceSteps(customer)).toEqual([
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

    // Compliance reads the record and exports it as one file; the export is audited.
    const record = await compliance.browser.get(`/api/admin/customers/${customer.id}/investor-evidence`);
    expect(record.statusCode, record.body).toBe(200);
    const evidence = InvestorEvidenceSchema.parse(record.json<{ data: unknown }>().data);
    expect(evidence.journey.step).toBe('complete');
    const categorisedEvent = evidence.events[0]!;
    expect(categorisedEvent.details).toMatchObject({
      category: 'restricted',
      statement: CATEGORY_STATEMENTS.Individual.restricted.statement,
      figures: { past_percent: '5', intended_percent: '7.5' },
      confirmed: true,
    });
    const warning = evidence.events.find((event) => event.step === 'warning_accepted')!;
    expect(warning.details.text).toBe(
      "Ada, this is a high-risk investment. How would you feel if you lost the money you're about to invest? Take 2 mins to learn more.",
    );
    const failedEvent = evidence.events.find((event) => event.step === 'assessment_failed')!;
    expect(failedEvent.details).toMatchObject({ score: 6, total: 8, pass_mark: 7, experience: 'few' });

    const exported = await compliance.browser.get(
      `/api/admin/customers/${customer.id}/investor-evidence/export`,
    );
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toBe(
      `attachment; filename="Florin investor evidence ${customer.reference}.json"`,
    );
    const file = JSON.parse(exported.body) as { events: unknown[]; customer: { reference: string } };
    expect(file.events).toHaveLength(9);
    expect(file.customer.reference).toBe(customer.reference);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'investor_evidence.exported')
      .where('target_id', '=', String(customer.id))
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe('the first-investment journey: attempts, companies and evidence', () => {
  it('draws different questions and answer orders from one attempt to the next', async () => {
    const customer = await newInvestor();
    expect((await categorise(customer, RESTRICTED)).statusCode).toBe(200);
    const orders = new Set<string>();
    for (let index = 0; index < 6; index += 1) {
      const attempt = await start(customer);
      orders.add(
        attempt.questions
          .map((question) => `${question.id}:${question.options.map((o) => o.id).join('')}`)
          .join(),
      );
    }
    expect(orders.size).toBeGreaterThan(1);
    // Only the newest attempt may be answered.
    const last = await start(customer);
    const stale = await start(customer);
    expect((await submit(customer, last.id, answersFor(last, 8))).statusCode).toBe(404);
    expect((await submit(customer, stale.id, answersFor(stale, 8))).statusCode).toBe(200);
  });

  it('scores an attempt once when it is submitted twice at the same moment', async () => {
    const customer = await newInvestor();
    expect((await categorise(customer, RESTRICTED)).statusCode).toBe(200);
    const attempt = await start(customer);
    const answers = answersFor(attempt, 8);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        submit(customer, attempt.id, answers).then((response) => response.statusCode),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect((await evidenceSteps(customer)).filter((step) => step === 'assessment_passed')).toHaveLength(1);
  });

  it("a company declares a company's category: a large company meets two of the three figures", async () => {
    const company = await newInvestor({ accountType: 'Corporate' });
    const small = await categorise(company, {
      category: 'large_undertaking',
      balance_sheet_total: '25000000',
      net_turnover: '1000000',
      own_funds: '100000',
      confirmed: true,
    });
    expect(errorOf(small).errors).toEqual({ balance_sheet_total: [INVESTOR_TEXTS.largeCompanyBelow] });
    const person = await categorise(company, {
      category: 'high_net_worth',
      annual_income: '500000',
      net_assets: '0',
      confirmed: true,
    });
    expect(errorOf(person).errors).toEqual({ category: ['Choose one of the types listed.'] });
    const large = await categorise(company, {
      category: 'large_undertaking',
      balance_sheet_total: '25000000',
      net_turnover: '1000000',
      own_funds: '2000000',
      confirmed: true,
    });
    expect(large.statusCode, large.body).toBe(200);
    const [event] = (
      await db().selectFrom('investor_evidence').select('details').where('user_id', '=', company.id).execute()
    ).map((row) => row.details);
    expect(event).toMatchObject({
      category: 'large_undertaking',
      account_type: 'Corporate',
      statement: CATEGORY_STATEMENTS.Corporate.large_undertaking.statement,
    });
  });

  it('a passed customer cannot change category or take the assessment again', async () => {
    const customer = await newInvestor();
    await passAssessment(customer);
    expect((await categorise(customer, RESTRICTED)).statusCode).toBe(409);
    expect((await customer.browser.post('/api/v1/investor/assessment', {})).statusCode).toBe(409);
  });

  it('only compliance reads or exports the evidence; an unknown customer is a 404', async () => {
    const customer = await newInvestor();
    const support = await signedInStaff(t.app, db(), 'support');
    const url = `/api/admin/customers/${customer.id}/investor-evidence`;
    // The back office's door answers a role that may not call a route as if it did not exist.
    expect((await support.browser.get(url)).statusCode).toBe(404);
    expect((await support.browser.get(`${url}/export`)).statusCode).toBe(404);
    expect((await customer.browser.get(url)).statusCode).toBe(404);
    expect(
      (await compliance.browser.get('/api/admin/customers/2147483647/investor-evidence')).statusCode,
    ).toBe(404);
    const empty = await compliance.browser.get(url);
    expect(empty.json<{ data: { events: unknown[]; journey: { step: string } } }>().data).toMatchObject({
      events: [],
      journey: { step: 'categorisation' },
    });
  });
});
