import { expect, type APIRequestContext } from '@playwright/test';
import { findQuestion } from '@florin/domain/appropriateness';
import { csrfHeaders } from '../fixtures.js';
import { currentUser } from '../kyc/customer-actions.js';

/**
 * The first-investment journey through the API, for the stories about what
 * comes after it (DECISIONS.md, "Tests and the UK journey"): the investor
 * type declared, the assessment passed with the right answers, the cooling-
 * off period ended by the dev route (a day cannot pass in a test), and the
 * personalised warning shown and accepted. e2e/investor walks it on screen.
 */
export async function completeFirstInvestmentJourney(request: APIRequestContext): Promise<void> {
  const post = async (url: string, data: unknown) => {
    const response = await request.post(url, { data, headers: await csrfHeaders(request) });
    expect(response.ok(), `POST ${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as { data: unknown };
  };
  const journey = (await (await request.get('/api/v1/investor/journey')).json()) as {
    data: { account_type: 'Individual' | 'Corporate'; step: string };
  };
  if (journey.data.step === 'complete') return;
  await post(
    '/api/v1/investor/categorisation',
    journey.data.account_type === 'Corporate'
      ? {
          category: 'large_undertaking',
          balance_sheet_total: '25000000',
          net_turnover: '45000000',
          own_funds: '2500000',
          confirmed: true,
        }
      : { category: 'restricted', past_percent: '5', intended_percent: '5', confirmed: true },
  );
  const attempt = (await post('/api/v1/investor/assessment', {})).data as {
    id: string;
    questions: { id: string }[];
  };
  const answers = Object.fromEntries(
    attempt.questions.map(({ id }) => [id, findQuestion(id)?.correct ?? 'few']),
  );
  await post(`/api/v1/investor/assessment/${attempt.id}`, { answers });
  await passInvestorWaits(request, (await currentUser(request)).email);
  await post('/api/v1/investor/warnings/shown', { warning: 'personalised' });
  await post('/api/v1/investor/confirm', { accepted: true });
}

/** Moves the journey's waits (a failed assessment's retake, the cooling-off) a day into the past. */
export async function passInvestorWaits(request: APIRequestContext, email: string): Promise<void> {
  const response = await request.post('/dev/investor/pass-waits', {
    data: { email },
    headers: await csrfHeaders(request),
  });
  expect(response.ok(), await response.text()).toBe(true);
}
