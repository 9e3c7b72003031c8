import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError, type PriceUpdate } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { matchedRoute } from '../../http/matched-route.js';

/** Where the figures a scrape reports come from, besides the requests this instance served. */
export type MetricsSources = {
  db: Kysely<DB>;
  /** Websocket connections open on this instance. */
  websocketClients: () => number;
  /** The latest price of every symbol this instance knows. */
  prices: () => readonly PriceUpdate[];
  /** Whether this instance produces the ticks and runs the leader's jobs. */
  isLeader: () => boolean;
};

/**
 * Work waiting for someone: staff queues and the leader's jobs. Counted on
 * each scrape from the rows themselves (every status column here is in an
 * index or a small table), so every instance reports the same depths.
 */
const QUEUES = {
  open_limit_orders: sql<string>`SELECT count(*)::text AS depth FROM orders WHERE status = 'open'`,
  fiat_withdrawals_to_pay: sql<string>`SELECT count(*)::text AS depth FROM fiat_withdrawals WHERE status IN ('pending', 'approved')`,
  crypto_withdrawals_to_send: sql<string>`SELECT count(*)::text AS depth FROM crypto_withdrawals WHERE status IN ('pending', 'approved')`,
  crypto_deposits_confirming: sql<string>`SELECT count(*)::text AS depth FROM crypto_deposits WHERE status = 'pending'`,
  kyc_documents_to_review: sql<string>`SELECT count(*)::text AS depth FROM kyc_documents WHERE status = 'pending'`,
  referral_claims_to_pay: sql<string>`SELECT count(*)::text AS depth FROM affiliate_claims WHERE status = 'waiting'`,
  // Deposits past maturity and not yet paid: more than a few means the maturity job has stopped.
  term_deposits_overdue: sql<string>`SELECT count(*)::text AS depth FROM term_deposits WHERE status = 'live' AND matures_at <= now()`,
};

/** Request latencies: from a cached answer to a slow export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The instance's Prometheus metrics (issue 14): requests per route, ledger
 * journals, queue depths, websocket clients, price staleness and the
 * process's own (memory, CPU, event loop). Routes are labelled by their
 * template (`/api/v1/crypto/limit_order/:id/cancel`), never the raw URL, so a
 * scan of random paths cannot grow the label set.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'florin_' });

  const requests = new Counter({
    name: 'florin_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'florin_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent, by method and route template.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  return {
    registry,
    observe(request: FastifyRequest, reply: FastifyReply): void {
      const route = matchedRoute(request) ?? 'unmatched';
      const labels = { method: request.method, route };
      requests.inc({ ...labels, status: String(reply.statusCode) });
      latency.observe(labels, reply.elapsedTime / 1000);
    },

    /** Reports what the sources say on every scrape, once the app has built them. */
    watch(sources: MetricsSources): void {
      // Journals are append-only with increasing ids: the newest committed id is a counter of journals
      // written (refused journals leave gaps, so it counts those too). rate() of it is journals per second.
      let journalsSeen = 0;
      new Counter({
        name: 'florin_ledger_journals_total',
        help: 'Ledger journals written (the newest journal id; refused journals leave gaps and count too).',
        registers: [registry],
        async collect() {
          const row = await sources.db
            .selectFrom('journals')
            .select(sql<string | null>`max(id)::text`.as('newest'))
            .executeTakeFirst();
          // A count, not money: journal ids stay far below 2^53.
          const newest = Number(row?.newest ?? 0);
          if (newest > journalsSeen) {
            this.inc(newest - journalsSeen);
            journalsSeen = newest;
          }
        },
      });

      new Gauge({
        name: 'florin_queue_depth',
        help: 'Items waiting, by queue.',
        labelNames: ['queue'] as const,
        registers: [registry],
        async collect() {
          for (const [queue, query] of Object.entries(QUEUES)) {
            const result = await query.execute(sources.db);
            const depth = (result.rows[0] as { depth?: string } | undefined)?.depth ?? '0';
            this.set({ queue }, Number(depth));
          }
        },
      });

      new Gauge({
        name: 'florin_websocket_clients',
        help: 'Websocket connections open on this instance.',
        registers: [registry],
        collect() {
          this.set(sources.websocketClients());
        },
      });

      new Gauge({
        name: 'florin_price_age_seconds',
        help: 'Seconds since the latest tick of each symbol.',
        labelNames: ['symbol'] as const,
        registers: [registry],
        collect() {
          this.reset();
          const now = Date.now();
          for (const update of sources.prices()) {
            this.set({ symbol: update.symbol }, Math.max(0, (now - Date.parse(update.at)) / 1000));
          }
        },
      });
      new Gauge({
        name: 'florin_price_stale',
        help: '1 while a symbol’s price source has stopped (nothing is quoted or traded at it), else 0.',
        labelNames: ['symbol'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const update of sources.prices()) this.set({ symbol: update.symbol }, update.stale ? 1 : 0);
        },
      });

      new Gauge({
        name: 'florin_leader',
        help: '1 on the instance that produces the ticks and runs the leader’s jobs, else 0.',
        registers: [registry],
        collect() {
          this.set(sources.isLeader() ? 1 : 0);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics for Prometheus, with the scrape token (METRICS_TOKEN) as a
 * bearer credential; with a wrong one it is a 404 like any path that does
 * not exist. Every answered request is counted.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observe(request, reply);
  });
  app.get('/metrics', { config: { access: 'public' } }, async (request, reply) => {
    const sent = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(sent, token)) throw new AppError('NOT_FOUND');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
