/**
 * Pages of a customer's history over HTTP, and where a page's time goes: the portfolio repository's
 * two queries timed on their own.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { HISTORY_PAGE_SIZE } from '@florin/contracts';
import {
  createPortfolioRepository,
  type HistoryScope,
} from '../../apps/server/src/modules/portfolio/repository.js';
import { percentile } from '../ledger/workloads.js';
import { HISTORY_PATH, log } from './settings.js';

/** The one keep-alive connection the page requests share. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Closes the page requests' connection at the end of the run. */
export function closePageConnection(): void {
  agent.destroy();
}

function get(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

export type PageResult = {
  name: string;
  query: string;
  requests: number;
  total: number;
  rows: number;
  firstId: string;
  p50: number;
  p99: number;
  max: number;
  mean: number;
};

export async function measurePage(
  name: string,
  base: string,
  query: string,
  cookie: string,
  requests: number,
) {
  const url = `${base}${HISTORY_PATH}?${query}`;
  const warm = await get(url, cookie);
  if (warm.status !== 200) throw new Error(`${name}: HTTP ${warm.status} ${warm.body.slice(0, 300)}`);
  const times = new Float64Array(requests);
  let last = warm.body;
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now();
    const response = await get(url, cookie);
    times[index] = performance.now() - started;
    if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
    last = response.body;
  }
  const page = JSON.parse(last) as { data: { id: string }[]; total: number };
  times.sort();
  const result: PageResult = {
    name,
    query,
    requests,
    total: page.total,
    rows: page.data.length,
    firstId: page.data[0]?.id ?? '',
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times[times.length - 1] ?? NaN,
    mean: times.reduce((sum, value) => sum + value, 0) / times.length,
  };
  log(
    `page ${name} (?${query}): ${requests} requests, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
      `max ${result.max.toFixed(1)} ms; ${result.rows} rows, total ${result.total}, first id ${result.firstId}`,
  );
  return result;
}

export type QueryTiming = { name: string; countMs: number; legsMs: number };

/** The portfolio repository's two queries for each page, timed in this process. */
export async function timeRepository(
  db: Parameters<typeof createPortfolioRepository>[0],
  userId: number,
  cases: { name: string; page: number; filters: HistoryScope['filters'] }[],
): Promise<QueryTiming[]> {
  const repository = createPortfolioRepository(db);
  const accounts = await repository.listUserAccounts(String(userId));
  const assets = await db.selectFrom('assets').select(['code', 'kind']).execute();
  const assetKinds = new Map(assets.map((asset) => [asset.code, asset.kind]));
  const timings: QueryTiming[] = [];
  const median = async (task: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const started = performance.now();
      await task();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[2] ?? NaN;
  };
  for (const item of cases) {
    const scope: HistoryScope = { accounts, filters: item.filters, assetKinds };
    const window = { limit: HISTORY_PAGE_SIZE, offset: (item.page - 1) * HISTORY_PAGE_SIZE };
    const timing = {
      name: item.name,
      countMs: await median(() => repository.countJournals(scope)),
      legsMs: await median(() => repository.listJournals(String(userId), scope, window)),
    };
    log(
      `repository, ${item.name}: countJournals ${timing.countMs.toFixed(1)} ms, ` +
        `listJournals ${timing.legsMs.toFixed(1)} ms (median of 5, in this process)`,
    );
    timings.push(timing);
  }
  return timings;
}
