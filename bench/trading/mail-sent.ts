/** Waiting for the app's mail sender between measurements (issue 43). */
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';
import { log } from '../support.js';

// The app's sender mails each trade after its commit; a run ahead of it leaves mail for the next run to pay for.
const MAIL_POLL_MS = 250;
const MAIL_WAIT_MS = 300_000;

/** Waits until the app has sent every trade mail waiting in the outbox, so that no run pays for another's. */
export async function mailSent(db: Kysely<DB>): Promise<void> {
  const started = performance.now();
  let waiting = 0;
  for (;;) {
    const row = await db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    waiting = Math.max(waiting, Number(row.count));
    if (Number(row.count) === 0) break;
    if (performance.now() - started > MAIL_WAIT_MS) throw new Error(`${row.count} mails still unsent`);
    await new Promise((resolve) => setTimeout(resolve, MAIL_POLL_MS));
  }
  if (waiting > 0)
    log(
      `  the app sent ${waiting} trade mails left by the run before in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
}
