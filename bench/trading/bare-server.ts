/**
 * The HTTP floor of an instant execution (issue 43), in its own process: the least a Node app can do for one
 * on this machine. The client's two requests over node:http, and for each the execution's own statements
 * (execution-script.ts, the script pgbench runs) through pg, named and prepared as the app's are. No
 * framework, session, CSRF check, validation, cache or module around them: the customer is the session
 * cookie looked up in a map, the answer the returned row as JSON.
 *
 *   forked by app-process.ts's startBareServer with [database url, the JSON of { customers, values }]
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { parameterizedStatements } from './execution-script.js';
import type { ChildMessage, Customer } from './protocol.js';

const [url, floor] = process.argv.slice(2);
if (!url || !floor) throw new Error('usage: bare-server.ts <database url> <json of { customers, values }>');
const { customers, values } = JSON.parse(floor) as {
  customers: Customer[];
  values: Record<string, string>;
};
const userOf = new Map(customers.map((customer) => [customer.token, customer.id]));
const statements = parameterizedStatements();
// The script's order: the facts, the quote; begin, the lock, the write, commit; the NOTIFY.
const [FACTS, QUOTE, BEGIN, LOCK, WRITE, COMMIT, NOTIFY] = statements.map((_, index) => index);
// As many connections as the app's pool (DATABASE_POOL_SIZE's default).
const pool = new pg.Pool({ connectionString: url, max: 20 });

type Variables = Record<string, string | null>;

function run(client: pg.Pool | pg.PoolClient, index: number | undefined, variables: Variables) {
  const statement = statements[index ?? -1];
  if (!statement) throw new Error(`no statement ${index}`);
  return client.query({
    name: `floor_${index}`,
    text: statement.text,
    values: statement.names.map((name) => variables[name] ?? null),
  });
}

function variablesFor(userId: number, quoteId: string): Variables {
  return {
    ...values,
    user_id: String(userId),
    qid: quoteId,
    q_id: quoteId,
    minus_total: `-${values.total}`,
    minus_quantity: `-${values.quantity}`,
  };
}

async function quote(userId: number): Promise<unknown> {
  const variables = variablesFor(userId, randomBytes(16).toString('hex'));
  await run(pool, FACTS, variables);
  return (await run(pool, QUOTE, variables)).rows[0];
}

async function order(userId: number, quoteId: string): Promise<unknown> {
  const variables = variablesFor(userId, quoteId);
  const client = await pool.connect();
  let trade: unknown;
  try {
    await run(client, BEGIN, variables);
    await run(client, LOCK, variables);
    trade = (await run(client, WRITE, variables)).rows[0];
    await run(client, COMMIT, variables);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await run(pool, NOTIFY, variables);
  return trade;
}

function bodyOf(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>),
    );
    request.on('error', reject);
  });
}

const server = http.createServer((request, response) => {
  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };
  const token = /access_token=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? '';
  const userId = userOf.get(token);
  if (userId === undefined) return answer(401, { message: 'unknown session' });
  bodyOf(request)
    .then((body) =>
      request.url === '/api/v1/quotes'
        ? quote(userId)
        : request.url === '/api/v1/order'
          ? order(userId, String(body.quote_id))
          : Promise.reject(new Error(`no route ${request.url}`)),
    )
    .then(
      (data) => answer(200, { data }),
      (error: Error) => answer(500, { message: error.message }),
    );
});

const send = (message: ChildMessage) => process.send?.(message);
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  server.close();
  void pool.end().then(() => process.exit(0));
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  send({ type: 'listening', url: `http://127.0.0.1:${port}`, pid: process.pid, engine: 'bare', version: '' });
});
