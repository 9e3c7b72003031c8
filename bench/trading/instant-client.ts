/**
 * A customer's side of an instant trade over real HTTP (node:http, the
 * session cookie and the CSRF echo a browser would send): the trading and
 * the scale benchmarks both drive it.
 */
import http from 'node:http';
import type { Customer } from './protocol.js';

export type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders };

export function post(
  agent: http.Agent,
  base: string,
  url: string,
  customer: Customer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${url}`,
      {
        method: 'POST',
        agent,
        headers: {
          cookie: `access_token=${customer.token}; csrf_token=${customer.csrf}`,
          'x-csrf-token': customer.csrf,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: response.headers,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** A request the app answered with an error; `key` ("quote 409") counts it in the report. */
export class Refused extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

/** Each execution buys this much BTC. */
export const INSTANT_QUANTITY = '0.01';

/** One instant execution: a quote for 0.01 BTC, then the order that executes it. Returns both replies. */
export async function executeInstant(
  agent: http.Agent,
  base: string,
  customer: Customer,
): Promise<[quote: Reply, order: Reply]> {
  const quote = await post(agent, base, '/api/v1/quotes', customer, {
    side: 'buy',
    coin_id: 'btc',
    quantity: INSTANT_QUANTITY,
  });
  if (quote.status !== 200) throw new Refused(`quote ${quote.status}`, quote.body.slice(0, 300));
  const { data } = JSON.parse(quote.body) as { data: { id: string } };
  const order = await post(agent, base, '/api/v1/order', customer, { quote_id: data.id });
  if (order.status !== 200) throw new Refused(`order ${order.status}`, order.body.slice(0, 300));
  return [quote, order];
}
