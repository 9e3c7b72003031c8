/**
 * Only issue 43's measurement (tier-volume.ts) on PostgreSQL, for a machine too busy for the whole trading
 * benchmark: a throw-away server, the app in its own process, the quotes timed, the ledger checked, and its
 * section of bench/results/trading.md written in place (the other sections stay as the last full run left them).
 *
 *   npx tsx bench/trading/tier-volume-run.ts   BENCH_TRADING_YEAR_TRADES (100,000)
 */
import fs from 'node:fs/promises';
import { loadAverages, log, resultsPath, writeResult } from '../support.js';
import { ask, onBenchApp } from './app-process.js';
import { measureTierVolume, renderTierVolumeSection } from './tier-volume.js';

const SECTION = "## A quote against the year's trades";

/** `report` with its tier-volume section replaced by `section`, or the section added before "## Ledger". */
export function withTierVolumeSection(report: string, section: string): string {
  const start = report.indexOf(`\n${SECTION}`);
  if (start !== -1) {
    const next = report.indexOf('\n## ', start + 1);
    return `${report.slice(0, start + 1)}${section}${next === -1 ? '' : report.slice(next)}`;
  }
  const ledger = report.indexOf('\n## Ledger');
  if (ledger === -1) return `${report}\n${section}`;
  return `${report.slice(0, ledger + 1)}${section}${report.slice(ledger)}`;
}

await onBenchApp(async ({ server }) => {
  const run = await measureTierVolume(server);
  const check = await ask(server, { type: 'check' }, 'checked');
  log(`checkLedger ${check.ok ? 'passed' : `FAILED\n${check.violations}`} in ${check.seconds.toFixed(1)} s`);
  const loadAfter = loadAverages();
  const section = `${renderTierVolumeSection(run)}- Run on its own on ${new Date().toISOString().slice(0, 10)} (\`npx tsx bench/trading/tier-volume-run.ts\`), the rest of
  this file left as the last full run wrote it; load average ${loadAfter} after it, on the same shared 2 cores.
- \`checkLedger\` with the trading and trading-volume checks after it: **${check.ok ? 'passed' : 'FAILED'}** (${check.seconds.toFixed(1)} s; ${JSON.stringify(check.counts)}).
`;
  console.log(section);
  const report = await fs.readFile(resultsPath('trading.md'), 'utf8');
  log(`wrote ${await writeResult('trading.md', withTierVolumeSection(report, section))}`);
});
