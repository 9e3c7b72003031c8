import { sql, type Kysely } from 'kysely';
import type { Health, PriceFeedState, Readiness, Sources } from '@florin/contracts';
import type { Engine } from '../../db/index.js';
import type { DB } from '../../db/schema.js';
import { checkLedger, type CheckResult, type DomainCheck } from '../../ledger/index.js';

/** A full ledger check reads every account; health reuses the last one for this long. */
const LEDGER_CHECK_TTL_MS = 60_000;

export function createHealthService(deps: {
  db: Kysely<DB>;
  engine: Engine;
  version: string;
  domainChecks: readonly DomainCheck[];
  initialCheck?: CheckResult;
  /** Where each part's data comes from (config.sources, the mailer actually built), reported as is. */
  sources: Sources;
  /** The market's exchange feeds now (none on the simulated market). */
  priceFeeds: () => { name: string; state: PriceFeedState['state']; lastMessageAt: Date | undefined }[];
}) {
  let lastCheck = deps.initialCheck;
  let running: Promise<CheckResult> | undefined;

  /** A check run now, or joined if one is already running: one full read of the ledger at a time. */
  async function checkNow(): Promise<CheckResult> {
    running ??= checkLedger(deps.db, deps.domainChecks).finally(() => (running = undefined));
    lastCheck = await running;
    return lastCheck;
  }

  async function ledgerStatus(): Promise<CheckResult> {
    if (lastCheck && Date.now() - lastCheck.checkedAt.getTime() < LEDGER_CHECK_TTL_MS) return lastCheck;
    return checkNow();
  }

  function isReachable(): Promise<boolean> {
    return sql`SELECT 1`
      .execute(deps.db)
      .then(() => true)
      .catch(() => false);
  }

  return {
    engine: deps.engine,
    checkLedgerNow: checkNow,

    /** Cheap, for a load balancer's frequent checks; once close() has begun Fastify answers 503 itself. */
    async getReadiness(): Promise<Readiness> {
      const reachable = await isReachable();
      return { status: reachable ? 'ready' : 'not_ready', database: { reachable } };
    },

    async getHealth(): Promise<Health> {
      const reachable = await isReachable();
      const ledger = reachable ? await ledgerStatus() : undefined;
      const ok = reachable && ledger?.ok === true;
      return {
        status: ok ? 'ok' : 'degraded',
        version: deps.version,
        database: { reachable, engine: deps.engine },
        ledger: {
          ok: ledger?.ok ?? false,
          violations: ledger?.violations.length ?? 0,
          checked_at: (ledger?.checkedAt ?? new Date()).toISOString(),
        },
        // A stand-in does not make the instance unhealthy (production refused it unless told): it is shown.
        sources: deps.sources,
        price_feeds: deps.priceFeeds().map((feed) => ({
          name: feed.name,
          state: feed.state,
          last_message_at: feed.lastMessageAt?.toISOString() ?? null,
        })),
      };
    },
  };
}
