import {
  AppError,
  type CandleQuery,
  type CandleResolution,
  type CandleRow,
  type PriceFeed,
  type PublicCoins,
} from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import { PriceDecimal } from '../../adapters/prices/decimal.js';
import type { KnownPairs } from './known-pairs.js';
import type { PriceBook } from './price-book.js';
import type { MarketRepository } from './repository.js';

/** How far ahead of the server's clock a client's toTs may be (clocks drift), before it is refused. */
const TO_TS_LEEWAY_SECONDS = 300;
const PRICE_FEED_HOURS = 24;

/** The public market data read from the candles and the coins: charts, the price feed, the coin list. */
export function createMarketCharts(deps: {
  repository: MarketRepository;
  book: PriceBook;
  loadPairs: () => Promise<KnownPairs>;
  now: () => Date;
}) {
  const { repository, book, loadPairs, now } = deps;

  const resolveSymbol = async (query: CandleQuery): Promise<string> => {
    const [fromSymbol, toSymbol] = query.symbol?.split('/') ?? [];
    const base = query.fsym ?? fromSymbol ?? '';
    const quote = query.tsym ?? toSymbol ?? 'GBP';
    const { coins, fiats } = await loadPairs();
    const errors: Record<string, string[]> = {};
    if (!coins.has(base)) errors[query.fsym ? 'fsym' : 'symbol'] = [`${base} is not a listed coin.`];
    if (!fiats.has(quote)) errors[query.tsym ? 'tsym' : 'symbol'] = [`${quote} is not a listed currency.`];
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
    return `${base}/${quote}`;
  };

  return {
    async listCandles(resolution: CandleResolution, query: CandleQuery): Promise<CandleRow[]> {
      const symbol = await resolveSymbol(query);
      const nowSeconds = Math.floor(now().getTime() / 1000);
      if (query.toTs !== undefined && query.toTs > nowSeconds + TO_TS_LEEWAY_SECONDS) {
        throw new AppError('VALIDATION_FAILED', undefined, { toTs: ['Must not be in the future.'] });
      }
      const to = new Date((query.toTs ?? nowSeconds) * 1000);
      const candles = await repository.listCandles({
        symbol,
        resolution,
        to,
        limit: query.limit,
        aggregate: query.aggregate,
      });
      return candles.map((candle) => ({
        time: Math.floor(candle.start_at.getTime() / 1000),
        low: candle.low,
        high: candle.high,
        open: candle.open,
        close: candle.close,
      }));
    },

    async getPriceFeed(): Promise<PriceFeed> {
      const coins = await repository.listActiveCoins();
      const feed: PriceFeed = {};
      for (const coin of coins) {
        const symbol = `${coin.asset}/GBP`;
        const history = await repository.listCandles({
          symbol,
          resolution: 'hour',
          to: now(),
          limit: PRICE_FEED_HOURS,
        });
        const state = book.prices.get(symbol);
        const current =
          state?.mid ?? (history.length > 0 ? new PriceDecimal(history.at(-1)!.close) : undefined);
        const first = history[0];
        feed[coin.coin_id] = {
          coin: { coin_id: coin.coin_id, name: coin.name },
          history: history.map((candle) => ({
            open: candle.open,
            time: Math.floor(candle.start_at.getTime() / 1000),
          })),
          percentage:
            first && current ? current.minus(first.open).div(first.open).times(100).toFixed(2) : null,
          details: { gbp_bid: state && !book.isStale(state) ? book.toUpdate(state).bid : null },
        };
      }
      return feed;
    },

    async listPublicCoins(): Promise<PublicCoins> {
      const coins = await repository.listActiveCoins();
      return Object.fromEntries(
        coins.map((coin) => [
          coin.coin_id,
          {
            coin_id: coin.coin_id,
            platform_fee: coin.platform_fee,
            amount_min: fromMinorUnits(BigInt(coin.amount_min), coin.scale),
            amount_max: coin.amount_max === null ? null : fromMinorUnits(BigInt(coin.amount_max), coin.scale),
          },
        ]),
      );
    },
  };
}
