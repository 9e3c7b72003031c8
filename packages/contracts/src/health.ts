import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * Where each part's data comes from: a real service or the embedded stand-in
 * (issue 44). `stand_ins_allowed` lists the stand-ins production runs on
 * because ALLOW_STAND_INS names them.
 */
export const SourcesSchema = z.object({
  /** `simulated`, or the exchange feeds the prices come from. */
  market: z.array(z.enum(['simulated', 'kraken', 'coinbase'])),
  chains: z.record(z.string(), z.enum(['node', 'simulated'])),
  mail: z.enum(['smtp', 'dev-mailbox']),
  uploads: z.enum(['s3', 'local']),
  stand_ins_allowed: z.array(z.string()),
});
export type Sources = z.infer<typeof SourcesSchema>;

/**
 * An exchange feed behind the market: when it last said anything, and whether
 * its prices are used (`live`), too old (`stale`), or not read on this
 * instance because another one leads (`off`).
 */
export const PriceFeedStateSchema = z.object({
  name: z.string(),
  state: z.enum(['live', 'stale', 'off']),
  last_message_at: z.string().nullable(),
});
export type PriceFeedState = z.infer<typeof PriceFeedStateSchema>;

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ reachable: z.boolean(), engine: z.enum(['pglite', 'postgres']) }),
  ledger: z.object({ ok: z.boolean(), violations: z.number().int(), checked_at: z.string() }),
  sources: SourcesSchema,
  price_feeds: z.array(PriceFeedStateSchema),
});
export type Health = z.infer<typeof HealthSchema>;

export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/api/v1/health',
  summary: 'Whether the database answers and the ledger balances',
  responses: { 200: HealthSchema, 503: HealthSchema },
});

/** Whether this instance should get traffic: its database answers. */
export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.object({ reachable: z.boolean() }),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

export const getReadiness = defineEndpoint({
  method: 'GET',
  path: '/api/v1/ready',
  summary: 'Whether a load balancer should send this instance traffic (cheap: no ledger check)',
  responses: { 200: ReadinessSchema, 503: ReadinessSchema },
});

/** At most this many violations are listed; `violation_count` has them all. */
export const LEDGER_CHECK_LISTED_VIOLATIONS = 200;

/**
 * The ledger check (invariants 1–8, as `npm run ledger:check` runs it) on the
 * server's own database, for staff: a running server's embedded data folder
 * is locked, so the command cannot check it from outside.
 */
export const LedgerCheckReportSchema = z.object({
  ok: z.boolean(),
  engine: z.enum(['pglite', 'postgres']),
  checked_at: z.string(),
  violation_count: z.number().int(),
  violations: z
    .array(z.object({ invariant: z.number().int(), message: z.string() }))
    .max(LEDGER_CHECK_LISTED_VIOLATIONS),
});
export type LedgerCheckReport = z.infer<typeof LedgerCheckReportSchema>;

export const runAdminLedgerCheck = defineEndpoint({
  method: 'GET',
  path: '/api/admin/ledger-check',
  summary:
    'Runs the ledger check with every domain check on this server’s database now, and lists what breaks',
  responses: { 200: z.object({ data: LedgerCheckReportSchema }) },
});
