import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import type { CryptoServiceDeps } from './deposit-context.js';
import type { DepositWatcher } from './deposit-watcher.js';

/**
 * Scans a coin as soon as its chain streams a final payment (the XRP
 * Ledger's account stream), besides the watcher's interval. One scan of a
 * coin at a time here: news during a scan asks for one more after it, since
 * that scan may have read the ledger before the payment. The stream is opened
 * by a scan, which only the leading instance runs, so it is the leader that
 * follows; a follower left behind after a change of leader scans harmlessly
 * (the watcher is safe on several instances at once).
 */
export function createDepositFollower(deps: CryptoServiceDeps, watcher: DepositWatcher) {
  const runs = new Map<CryptoAsset, { again: boolean; done: Promise<void> }>();
  let stopped = false;

  function scanSoon(asset: CryptoAsset): void {
    const running = runs.get(asset);
    if (running) {
      running.again = true;
      return;
    }
    if (stopped) return;
    const run = { again: false, done: Promise.resolve() };
    run.done = (async () => {
      do {
        run.again = false;
        await watcher.watchOnce([asset]);
      } while (run.again && !stopped);
    })()
      .catch((error: unknown) => deps.log?.error({ err: error, asset }, 'deposit watcher failed'))
      .finally(() => runs.delete(asset));
    runs.set(asset, run);
  }

  for (const asset of CRYPTO_ASSETS) deps.chains[asset].onActivity?.(() => scanSoon(asset));

  /** The scans the stream started, as a promise: what a test awaits. */
  async function settled(): Promise<void> {
    await Promise.all([...runs.values()].map((run) => run.done));
  }

  /** At shutdown: no new scans, the ones in flight finish, and the chains' connections close. */
  async function stop(): Promise<void> {
    stopped = true;
    await settled();
    const clients = new Set(CRYPTO_ASSETS.map((asset) => deps.chains[asset]));
    await Promise.all([...clients].map(async (client) => client.close?.()));
  }

  return { settled, stop };
}
