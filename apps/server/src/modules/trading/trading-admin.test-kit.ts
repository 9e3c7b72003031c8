import { expect } from 'vitest';
import { QuoteSchema, type Quote } from '@florin/contracts';
import type { TestApp } from '../../test/app.js';
import { auditRows } from '../compliance/customers.test-kit.js';
import type { FiatCustomer } from '../fiat/fiat.test-kit.js';

/**
 * What the trading back-office tests share beyond tradingSteps: a customer's GBP quote for 0.01 BTC
 * unless the body says otherwise, and how many audit rows a target has.
 */
export function tradingAdminSteps(app: () => TestApp) {
  async function quoteResponse(customer: FiatCustomer, body: Record<string, unknown> = {}) {
    return customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      currency: 'gbp',
      quantity: '0.01',
      ...body,
    });
  }

  async function quote(customer: FiatCustomer, body: Record<string, unknown> = {}): Promise<Quote> {
    const response = await quoteResponse(customer, body);
    expect(response.statusCode, response.body).toBe(200);
    return QuoteSchema.parse(response.json<{ data: unknown }>().data);
  }

  async function auditCount(targetType: string, targetId: string | number): Promise<number> {
    return (await auditRows(app().database.db, targetType, targetId)).length;
  }

  return { quoteResponse, quote, auditCount };
}
