/**
 * Only issue 43's fills against their floor, on PostgreSQL, for a machine too busy for the whole trading
 * benchmark: a throw-away server, the app in its own process, the resting orders placed and crossed by one
 * tick, the same rows then inserted by psql (fills-floor.ts), the ratio and the tick to the last commit
 * printed, and the ledger checked.
 *
 *   npx tsx bench/trading/fills-run.ts   BENCH_TRADING_ORDERS (10,000), BENCH_TRADING_ORDER_CUSTOMERS (1,000)
 */
import { openDatabase } from '../../apps/server/src/db/index.js';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { loadAverages, log, writeResult } from '../support.js';
import { ask, onBenchApp } from './app-process.js';
import { crossOrders, probesOn } from './fills.js';
import { fillsMet, fillsSection } from './report-fills.js';

await onBenchApp(async ({ postgres, admin, server }) => {
  const postmaster = await findPostmaster(admin.db);
  const monitor = await openDatabase({ engine: 'postgres', url: postgres.url('florin_bench'), poolSize: 1 });
  let fills;
  try {
    fills = await crossOrders(
      server,
      probesOn(monitor, () => serverCpuSeconds(postmaster)),
      {
        url: postgres.url('florin_bench'),
        db: monitor.db,
      },
    );
  } finally {
    await monitor.close();
  }
  const check = await ask(server, { type: 'check' }, 'checked');
  log(`checkLedger ${check.ok ? 'passed' : `FAILED\n${check.violations}`} in ${check.seconds.toFixed(1)} s`);
  const loadAfter = loadAverages();
  const section = `${fillsSection(
    fills,
    `Run on its own on ${new Date().toISOString().slice(0, 10)} (\`npx tsx bench/trading/fills-run.ts\`); load average ${loadAfter} after it, on shared 2 cores.`,
  )}- \`checkLedger\` with the trading and trading-volume checks after it: **${check.ok ? 'passed' : 'FAILED'}** (${check.seconds.toFixed(1)} s; ${JSON.stringify(check.counts)}).
- Both goals of issue 43 for the fills in this run: **${fillsMet(fills) ? 'met' : 'NOT met'}**.
`;
  console.log(section);
  log(
    `wrote ${await writeResult('trading-fills.md', `# Limit fills against their floor (issue 43)\n\n${section}`)}`,
  );
});
