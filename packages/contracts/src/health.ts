import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ reachable: z.boolean(), engine: z.enum(['pglite', 'postgres']) }),
  ledger: z.object({ ok: z.boolean(), violations: z.number().int(), checked_at: z.string() }),
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
