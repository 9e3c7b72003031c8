import { defineEndpoint, getHealth, UNATTENDED_HEADER, type Health } from '@florin/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiCall } from './api-client';
import { setUnauthenticatedHandler } from './errors';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

const show = vi.mocked(notifications.show);
const fetchMock = vi.fn<typeof fetch>();

const HEALTH: Health = {
  status: 'ok',
  version: '0.1.0',
  database: { reachable: true, engine: 'pglite' },
  ledger: { ok: true, violations: 0, checked_at: '2024-01-01T00:00:00.000Z' },
  sources: {
    market: ['simulated'],
    chains: { BTC: 'simulated' },
    mail: 'dev-mailbox',
    uploads: 'local',
    stand_ins_allowed: [],
  },
  price_feeds: [],
};

const renameWallet = defineEndpoint({
  method: 'PATCH',
  path: '/api/v1/wallets/{id}',
  summary: 'test endpoint',
  params: z.object({ id: z.string() }),
  query: z.object({ tags: z.array(z.string()).optional(), page: z.number().optional() }),
  body: z.strictObject({ name: z.string() }),
  responses: { 200: z.object({ id: z.string(), name: z.string() }) },
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The page's cookies as document.cookie shows them (vitest runs without a DOM). */
const fakeDocument = { cookie: 'theme=dark; csrf_token=token%2Bone' };

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('document', fakeDocument);
  fakeDocument.cookie = 'theme=dark; csrf_token=token%2Bone';
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  fetchMock.mockReset();
  show.mockReset();
});

describe('apiCall sending requests', () => {
  it('parses a 2xx body with the contract and sends same-origin JSON requests', async () => {
    fetchMock.mockResolvedValue(json(200, HEALTH));
    await expect(apiCall(getHealth)).resolves.toEqual(HEALTH);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/health');
    expect(init).toMatchObject({ method: 'GET', credentials: 'same-origin', body: undefined });
    expect(new Headers(init?.headers).get('accept')).toBe('application/json');
  });

  it('accepts the empty body of a 204 whether its contract says null or undefined', async () => {
    for (const schema of [z.null(), z.undefined()]) {
      const remove = defineEndpoint({
        method: 'DELETE',
        path: '/api/v1/things/{id}',
        summary: 'test endpoint',
        params: z.object({ id: z.string() }),
        responses: { 204: schema },
      });
      fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
      await expect(apiCall(remove, { params: { id: '1' } })).resolves.toBeFalsy();
    }
  });

  it('fills path parameters, the query and the JSON body', async () => {
    fetchMock.mockResolvedValue(json(200, { id: 'a b', name: 'Savings' }));
    await apiCall(renameWallet, {
      params: { id: 'a b' },
      query: { tags: ['x', 'y'], page: 2 },
      body: { name: 'Savings' },
    });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/wallets/a%20b?tags=x&tags=y&page=2');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe('{"name":"Savings"}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it('sends the body form-encoded when asked (the instant order), leaving out empty fields', async () => {
    fetchMock.mockResolvedValue(json(200, { id: '1', name: 'a&b=c' }));
    const sendForm = defineEndpoint({
      method: 'POST',
      path: '/api/v1/order',
      summary: 'test endpoint',
      body: z.object({ quote_id: z.string(), order_qty: z.string(), currency: z.string().optional() }),
      responses: { 200: z.object({ id: z.string(), name: z.string() }) },
    });
    await apiCall(
      sendForm,
      { body: { quote_id: 'q 1', order_qty: '0.5&1', currency: undefined } },
      { bodyEncoding: 'form' },
    );
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(new Headers(init?.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(init?.body).toBeInstanceOf(URLSearchParams);
    expect((init?.body as URLSearchParams).toString()).toBe('quote_id=q+1&order_qty=0.5%261');
  });

  it('echoes the CSRF cookie in X-CSRF-Token on state-changing requests only', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, HEALTH)));
    await apiCall(getHealth);
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('x-csrf-token')).toBeNull();

    fetchMock.mockImplementation(() => Promise.resolve(json(200, { id: '1', name: 'x' })));
    await apiCall(renameWallet, { params: { id: '1' }, body: { name: 'x' } });
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get('x-csrf-token')).toBe('token+one');
  });

  it('fetches the CSRF cookie first when the browser has none, once for simultaneous requests', async () => {
    fakeDocument.cookie = 'theme=dark';
    fetchMock.mockImplementation((url) => {
      if (url === '/api/v1/csrf') {
        fakeDocument.cookie = 'theme=dark; csrf_token=fresh';
        return Promise.resolve(json(200, { ok: true }));
      }
      return Promise.resolve(json(200, { id: '1', name: 'x' }));
    });
    await Promise.all([
      apiCall(renameWallet, { params: { id: '1' }, body: { name: 'x' } }),
      apiCall(renameWallet, { params: { id: '2' }, body: { name: 'y' } }),
    ]);
    const urls = fetchMock.mock.calls.map(([url]) => url);
    expect(urls).toEqual(['/api/v1/csrf', '/api/v1/wallets/1', '/api/v1/wallets/2']);
    for (const [, init] of fetchMock.mock.calls.slice(1)) {
      expect(new Headers(init?.headers).get('x-csrf-token')).toBe('fresh');
    }
  });

  it('sends the extra headers a contract asks for (an Idempotency-Key)', async () => {
    fetchMock.mockResolvedValue(json(200, HEALTH));
    await apiCall(getHealth, {}, { headers: { 'idempotency-key': 'key-12345678' } });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(new Headers(init?.headers).get('idempotency-key')).toBe('key-12345678');
  });
});

describe('apiCall failing', () => {
  it('keeps the data an error body carries (the resend button needs user_id)', async () => {
    fetchMock.mockResolvedValue(
      json(403, {
        code: 'EMAIL_NOT_VERIFIED',
        message: 'Please verify your email address.',
        data: { verified: false, user_id: 7 },
      }),
    );
    await expect(apiCall(getHealth, {}, { notify: false })).rejects.toMatchObject({
      code: 'EMAIL_NOT_VERIFIED',
      data: { verified: false, user_id: 7 },
    });
  });

  it('rebuilds the AppError from an error body and shows one toast titled by its code', async () => {
    fetchMock.mockResolvedValue(json(404, { code: 'NOT_FOUND', message: 'Wallet not found.' }));
    await expect(apiCall(renameWallet, { params: { id: '1' }, body: { name: 'x' } })).rejects.toMatchObject({
      name: 'AppError',
      code: 'NOT_FOUND',
      status: 404,
      message: 'Wallet not found.',
    });
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]?.[0]).toMatchObject({
      id: 'error-NOT_FOUND',
      color: 'red',
      title: 'Not Found',
      message: 'Wallet not found.',
      autoClose: 3000,
    });
  });

  it('uses the title the screen gives for a 4xx', async () => {
    fetchMock.mockResolvedValue(json(409, { code: 'CONFLICT', message: 'Already exists.' }));
    await expect(apiCall(getHealth, {}, { errorTitle: 'Failed to add wallet' })).rejects.toThrow();
    expect(show.mock.calls[0]?.[0]).toMatchObject({
      title: 'Failed to add wallet',
      message: 'Already exists.',
    });
  });

  it('shows "Failed!" and the generic text for a 500, whatever the server said', async () => {
    fetchMock.mockResolvedValue(json(500, { code: 'INTERNAL', message: 'stack trace here' }));
    await expect(apiCall(getHealth, {}, { errorTitle: 'ignored for 5xx' })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    expect(show.mock.calls[0]?.[0]).toMatchObject({
      title: 'Failed!',
      message: 'Something went wrong. Please contact the admin.',
    });
  });

  it('lists field errors line by line under "Incorrect Input"', async () => {
    fetchMock.mockResolvedValue(
      json(422, {
        code: 'VALIDATION_FAILED',
        message: 'The given data was invalid.',
        errors: { email: ['The email is invalid.'], password: ['Too short.', 'Needs a digit.'] },
      }),
    );
    await expect(apiCall(getHealth)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { email: ['The email is invalid.'], password: ['Too short.', 'Needs a digit.'] },
    });
    expect(show.mock.calls[0]?.[0]).toMatchObject({
      title: 'Incorrect Input',
      message: 'The email is invalid.\nToo short.\nNeeds a digit.',
    });
  });

  it('stays quiet with notify: false, and still throws', async () => {
    fetchMock.mockResolvedValue(json(403, { code: 'FORBIDDEN', message: 'No.' }));
    await expect(apiCall(getHealth, {}, { notify: false })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(show).not.toHaveBeenCalled();
  });

  it('hands a 401 to the registered handler instead of a toast', async () => {
    const onUnauthenticated = vi.fn();
    const unregister = setUnauthenticatedHandler(onUnauthenticated);
    fetchMock.mockResolvedValue(
      json(401, { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' }),
    );
    await expect(apiCall(getHealth)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(onUnauthenticated).toHaveBeenCalledWith(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(show).not.toHaveBeenCalled();
    unregister();
  });

  it('hands a 401 to the handler with notify: false too: a page refreshing itself meets the idle end', async () => {
    const onUnauthenticated = vi.fn();
    const unregister = setUnauthenticatedHandler(onUnauthenticated);
    fetchMock.mockResolvedValue(
      json(401, { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' }),
    );
    await expect(apiCall(getHealth, {}, { notify: false })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(show).not.toHaveBeenCalled();
    unregister();
  });

  it('marks a request sent a minute after anyone used the screen as unattended', async () => {
    vi.useFakeTimers({ now: Date.now() });
    try {
      fetchMock.mockImplementation(() => Promise.resolve(json(200, HEALTH)));
      await apiCall(getHealth);
      vi.advanceTimersByTime(61_000);
      await apiCall(getHealth);
      const sent = fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get(UNATTENDED_HEADER));
      expect(sent).toEqual([null, '1']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('maps a status without an error body to its code (a proxy page, a degraded health check)', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 503 }));
    await expect(apiCall(getHealth)).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(show.mock.calls[0]?.[0]).toMatchObject({ title: 'Failed!' });
  });

  it('reports an unreachable server as unavailable', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiCall(getHealth)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('treats a 2xx body outside the contract as an internal failure', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(json(200, { status: 'fine' }));
    await expect(apiCall(getHealth)).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]?.[0]).toMatchObject({ title: 'Failed!' });
  });

  it('says nothing when the caller cancelled the request', async () => {
    const controller = new AbortController();
    controller.abort();
    fetchMock.mockRejectedValue(new DOMException('The operation was aborted.', 'AbortError'));
    await expect(apiCall(getHealth, {}, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(show).not.toHaveBeenCalled();
  });

  it('says nothing when the request is cancelled while its body is read (a superseded refetch)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const controller = new AbortController();
    const response = json(200, HEALTH);
    vi.spyOn(response, 'json').mockImplementation(() => {
      controller.abort();
      return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
    });
    fetchMock.mockResolvedValue(response);
    await expect(apiCall(getHealth, {}, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(consoleError).not.toHaveBeenCalled();
    expect(show).not.toHaveBeenCalled();
  });
});
