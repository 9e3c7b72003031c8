/** The fills beside their floor (issue 43): the markdown section report.ts and fills-run.ts print. */
import type { Fills } from './fills.js';
import { ORDERS } from './settings.js';

/** Issue 43: 10,000 fills committed ÷ the same rows inserted by psql, and the time from the tick to the last commit. */
export const FILLS_FLOOR_GOAL = 0.5;
export const FILLS_WITHIN_MS = 2000;

const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (seconds: number, count: number) => ((seconds * 1000) / Math.max(1, count)).toFixed(3);

/** True when the fills met both of issue 43's goals in this run. */
export function fillsMet(fill: Fills): boolean {
  const r = fill.result;
  return (
    !r.timedOut &&
    r.filled >= ORDERS &&
    r.allCommittedMs <= FILLS_WITHIN_MS &&
    fill.floorRatio !== null &&
    fill.floorRatio >= FILLS_FLOOR_GOAL
  );
}

/**
 * One engine's fills against the floor taken in the same run: the ratio, the tick to the last commit, the
 * CPU a fill, the rows written and the statements sent. `note`: how and when it ran.
 */
export function fillsSection(fill: Fills, note = ''): string {
  const r = fill.result;
  const floor = fill.floor;
  const rows = floor
    ? Object.entries(floor.rows)
        .map(([table, count]) => `${table} ${whole(count)}`)
        .join(', ')
    : '';
  const statements = fill.statements
    ? fill.statements.reduce((sum, [, count]) => sum + count, 0) / Math.max(1, r.filled)
    : null;
  const mail = fill.statements
    ?.filter(([key]) => /mail_outbox|notifications/.test(key))
    .map(([key, count]) => `\`${key}\` ${whole(count)}`)
    .join(', ');
  const waited = fill.waitedMs
    ?.slice(0, 10)
    .map(([key, waitedMs]) => `\`${key}\` ${whole(waitedMs)} ms`)
    .join(', ');
  const ratio = fill.floorRatio === null ? '–' : fill.floorRatio.toFixed(2);
  return `### ${fill.engine}: ${whole(r.filled)} fills against the same rows inserted by psql

- **Fills ÷ floor: ${ratio}** (goal ≥ ${FILLS_FLOOR_GOAL}): ${whole(r.filled)} fills committed ${whole(r.allCommittedMs)} ms after the tick; the rows they wrote,
  inserted again by \`psql\` into the same tables in one transaction (then rolled back) once the app had sent the fills' mails,
  took ${floor ? `${whole(floor.milliseconds)} ms` : '–'} (the fastest of three runs).
- **All fills committed ${whole(r.allCommittedMs)} ms after the tick** (goal within ${whole(FILLS_WITHIN_MS)} ms): **${
    r.allCommittedMs <= FILLS_WITHIN_MS && !r.timedOut && r.filled >= ORDERS ? 'met' : 'NOT met'
  }**; ${whole(r.stillOpen)} still open. The app's \`filled_at\`: first ${whole(r.firstFillMs)} ms, last ${whole(r.lastFillMs)} ms.
- CPU a fill: the app ${ms(r.appCpuSeconds, r.filled)} ms, PostgreSQL ${fill.postgresCpu === null ? '–' : `${ms(fill.postgresCpu, r.filled)} ms`}${
    floor?.postgresCpuSeconds != null
      ? `; the floor ${ms(floor.postgresCpuSeconds, r.filled)} ms of PostgreSQL's a fill's rows (its staging copies included)`
      : ''
  }.
- Rows a table (the fills', and the floor's): ${rows || '–'}. The floor inserts only: the holds, orders and
  accounts the fills also update are not in it.${
    floor?.withUpdatesMilliseconds === undefined
      ? ''
      : ` With them (the ${whole(r.filled)} orders filled, their holds posted and their customers'
  balances changed, each table in one statement, in the fills' order, the rows first put back untimed as they stood
  before the tick), psql took ${whole(floor.withUpdatesMilliseconds)} ms, the fastest of three: the fills ÷ that floor, ${(floor.withUpdatesMilliseconds / r.allCommittedMs).toFixed(2)}.`
  }
- Statements the app sent: ${statements === null ? '–' : `${statements.toFixed(2)} a fill`}${mail ? `; mail and notifications: ${mail}` : ''} (the mails are outbox rows, one statement a table a transaction, sent by the outbox's sender after the pass).
${waited ? `- Time the app waited on each kind of statement (the lanes' waits added up): ${waited}.\n` : ''}${note ? `- ${note}\n` : ''}`;
}
