import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXTS, CUSTOMER_MESSAGES, ErrorBodySchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser } from '../test/browser.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('a refused request’s field map', () => {
  it('says a truncated reset link is invalid, in words a customer understands', async () => {
    const response = await createBrowser(t.app).post('/api/v1/password/reset', {
      email: 'ada@example.com',
      password: 'Analytical-Engine-1843',
      password_confirmation: 'Analytical-Engine-1843',
      token: 'cut-short',
    });
    expect(response.statusCode).toBe(422);
    expect(ErrorBodySchema.parse(response.json()).errors).toEqual({ token: [AUTH_TEXTS.resetTokenInvalid] });
  });

  it('gives the shared customer sentences where a contract has no words of its own', async () => {
    const response = await createBrowser(t.app).post('/api/v1/password/reset', {
      email: 'ada@example.com',
      password: 'Analytical-Engine-1843',
      password_confirmation: 'Analytical-Engine-1843',
    });
    expect(response.statusCode).toBe(422);
    expect(ErrorBodySchema.parse(response.json()).errors).toEqual({ token: [CUSTOMER_MESSAGES.required] });
  });
});
