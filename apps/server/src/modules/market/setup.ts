import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createCoinbaseSource } from '../../adapters/prices/coinbase.js';
import { createFailoverSource } from '../../adapters/prices/failover.js';
import { createKrakenSource } from '../../adapters/prices/kraken.js';
import { createSimulatedMarket } from '../../adapters/prices/simulated.js';
import type { PricePair, PriceSource } from '../../adapters/prices/source.js';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { backfillHistory } from './history.js';
import { createMarketRepository } from './repository.js';
import { createMarketService, type MarketService } from './service.js';

/**
 * The market as configured (PRICE_SOURCE and its feeds' limits, PRICE_SEED), for main.ts: every
 * active coin against every active fiat. A fresh install on the simulated
 * market gets a simulated past first, so the chart is never empty. Not started.
 */
export async function openMarket(options: {
  config: Pick<
    Config,
    'PRICE_SOURCE' | 'PRICE_SEED' | 'PRICE_FEED_STALE_SECONDS' | 'PRICE_MAX_DISAGREEMENT_BPS'
  >;
  db: Kysely<DB>;
  onError: (error: unknown) => void;
}): Promise<{ market: MarketService; backfilled: boolean }> {
  const repository = createMarketRepository(options.db);
  const [coins, fiats] = await Promise.all([repository.listActiveCoins(), repository.listActiveFiats()]);
  const pairs: PricePair[] = coins.flatMap((coin) =>
    fiats.map((fiat) => ({ base: coin.asset, quote: fiat })),
  );
  const seed = options.config.PRICE_SEED ?? randomBytes(8).toString('hex');
  let source: PriceSource;
  let backfilled = false;
  const { PRICE_SOURCE: names } = options.config;
  if (names[0] !== 'simulated') {
    // Real feeds get no invented past: the chart fills from live ticks. Even one feed goes through the
    // failover source, which drops its stale prices and tells staff how it is.
    const exchanges = { kraken: createKrakenSource, coinbase: createCoinbaseSource };
    source = createFailoverSource({
      sources: (names as readonly (keyof typeof exchanges)[]).map((name) =>
        exchanges[name]({ pairs, onError: options.onError }),
      ),
      staleAfterMs: options.config.PRICE_FEED_STALE_SECONDS * 1000,
      maxDisagreementBps: options.config.PRICE_MAX_DISAGREEMENT_BPS,
    });
  } else {
    backfilled = await backfillHistory(repository, { pairs, now: new Date(), seed });
    source = createSimulatedMarket({ pairs, seed, lastPrices: await repository.listLastCloses() });
  }
  return { market: createMarketService({ repository, source, onError: options.onError }), backfilled };
}
