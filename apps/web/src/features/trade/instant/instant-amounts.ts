import {
  assetOfCoinId,
  type AssetBalance,
  type CoinId,
  type TradeFiat,
  type Trade,
  type TradeSide,
  type TradingTerms,
} from '@florin/contracts';
import {
  floorQuantity,
  formatAmount,
  instantQuote,
  maxBuyQuantity,
  maxSellQuantity,
  parseAmount,
  priceDecimals,
  quantityDecimalsOf,
  trimZeros,
  type AssetCode,
} from '@florin/domain';

/**
 * The instant trade page's sums and checks (spec 002 sections 2.3, 5 and 9).
 * Everything goes through packages/domain in minor units, so the preview the
 * page shows before a quote agrees with the quote the server then gives at
 * the same price. The page's figures are indicative; the quote decides.
 */

/** Instant trade quantities take up to 8 decimals (spec 002 section 5); xrp takes none. */
export const INSTANT_QUANTITY_PLACES = 8;
/** Cost is money: pennies, as the quote contract accepts it. */
export const COST_PLACES = 2;

export type TradeCoin = TradingTerms['coins'][number];

/** Which field the customer typed; the other is worked out from it. */
export type AmountSource = 'quantity' | 'cost';

export function quantityPlaces(coin: CoinId): number {
  return quantityDecimalsOf(coin, INSTANT_QUANTITY_PLACES);
}

/**
 * What a numeric input keeps of what was typed: digits and one decimal
 * point, at most `places` decimals; no point at all when places is 0.
 */
export function cleanDecimalInput(text: string, places: number): string {
  if (places === 0) return text.replace(/\D/g, '');
  const digits = text.replace(/[^\d.]/g, '');
  const point = digits.indexOf('.');
  if (point < 0) return digits;
  const fraction = digits
    .slice(point + 1)
    .replace(/\./g, '')
    .slice(0, places);
  return `${digits.slice(0, point)}.${fraction}`;
}

/** A typed decimal as the API takes it: '.5' → '0.5', '2.' → '2'; '' stays ''. */
export function normalizeDecimal(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '.') return '';
  const withWhole = trimmed.startsWith('.') ? `0${trimmed}` : trimmed;
  return withWhole.endsWith('.') ? withWhole.slice(0, -1) : withWhole;
}

/** The coins the customer may trade on this side, in the terms' order (DECISIONS.md: disabled ones are left out). */
export function tradableCoins(terms: TradingTerms, side: TradeSide): TradeCoin[] {
  return terms.coins.filter((coin) => (side === 'buy' ? coin.can_buy : coin.can_sell));
}

const FIAT_ORDER: readonly TradeFiat[] = ['gbp', 'eur', 'usd'];

function isPositive(value: string | undefined): boolean {
  return value !== undefined && /^\d*\.?\d*$/.test(value) && /[1-9]/.test(value);
}

/**
 * From Wallet (DECISIONS.md: a customer trades against any fiat they hold):
 * GBP always and first, then EUR and USD when the customer has some.
 */
export function fiatChoices(balances: Readonly<Record<string, AssetBalance>>): TradeFiat[] {
  return FIAT_ORDER.filter((fiat) => fiat === 'gbp' || isPositive(balances[fiat.toUpperCase()]?.amount));
}

/** What the customer can spend now, as the balances give it: fiats keyed by code, coins by coin_id. */
export function availableOf(balances: Readonly<Record<string, AssetBalance>>, key: string): string {
  return balances[key]?.available ?? '0';
}

function fiatAsset(fiat: TradeFiat): AssetCode {
  return fiat.toUpperCase() as AssetCode;
}

/** A decimal string in minor units of the asset, or undefined when it is not one the asset can hold. */
function unitsOf(value: string, asset: AssetCode): bigint | undefined {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  try {
    return parseAmount(value.trim(), asset);
  } catch {
    return undefined;
  }
}

export type EstimateInput = {
  side: TradeSide;
  coin: CoinId;
  fiat: TradeFiat;
  /** The live ask (buy) or bid (sell), fiat per coin. */
  price: string;
  feePercent: string;
  source: AmountSource;
  /** What was typed in the source field. */
  amount: string;
};

/** The page's preview before a quote, as decimal strings of each asset's full scale. */
export type Estimate = {
  quantity: string;
  /** quantity × price. */
  totalWithoutFee: string;
  fee: string;
  /** Paid with the fee (buy) or received after it (sell). */
  total: string;
};

/** The preview for what was typed; undefined while nothing usable is typed. */
export function estimateInstant(input: EstimateInput): Estimate | undefined {
  const coinAsset = assetOfCoinId(input.coin);
  const fiat = fiatAsset(input.fiat);
  const units = unitsOf(normalizeDecimal(input.amount), input.source === 'quantity' ? coinAsset : fiat);
  if (units === undefined || units === 0n) return undefined;
  try {
    const quote = instantQuote({
      side: input.side,
      coin: coinAsset,
      fiat,
      price: input.price,
      feePercent: input.feePercent,
      ...(input.source === 'quantity' ? { quantity: units } : { cost: units }),
    });
    return {
      quantity: formatAmount(quote.quantity, coinAsset),
      totalWithoutFee: formatAmount(quote.notional, fiat),
      fee: formatAmount(quote.fee, fiat),
      total: formatAmount(quote.total, fiat),
    };
  } catch {
    // A price or fee the domain refuses (zero, malformed): no preview rather than a wrong one.
    return undefined;
  }
}

/**
 * Spec 002 section 5: a buy whose cost exceeds the fiat available, or a sell
 * of more coin than is available, exceeds the balance.
 */
export function exceedsBalance(input: {
  side: TradeSide;
  coin: CoinId;
  fiat: TradeFiat;
  estimate: Estimate;
  fiatAvailable: string;
  coinAvailable: string;
}): boolean {
  if (input.side === 'buy') {
    const fiat = fiatAsset(input.fiat);
    return parseAmount(input.estimate.total, fiat) > (unitsOf(input.fiatAvailable, fiat) ?? 0n);
  }
  const coin = assetOfCoinId(input.coin);
  return parseAmount(input.estimate.quantity, coin) > (unitsOf(input.coinAvailable, coin) ?? 0n);
}

/**
 * MAX (spec 002 section 9), through the domain's rules: the most the fiat
 * available buys after the fee, or the coin available, both capped at the
 * coin's amount_max less the margin; whole coins for xrp. Undefined without a
 * price to buy at.
 */
export function maxQuantity(input: {
  side: TradeSide;
  coin: TradeCoin;
  fiat: TradeFiat;
  price: string | undefined;
  fiatAvailable: string;
  coinAvailable: string;
}): string | undefined {
  const coin = assetOfCoinId(input.coin.coin_id);
  const amountMax = input.coin.amount_max === null ? null : (unitsOf(input.coin.amount_max, coin) ?? null);
  let units: bigint;
  if (input.side === 'sell') {
    units = maxSellQuantity({ coinAvailable: unitsOf(input.coinAvailable, coin) ?? 0n, coin, amountMax });
  } else {
    if (input.price === undefined) return undefined;
    const fiat = fiatAsset(input.fiat);
    try {
      units = maxBuyQuantity({
        fiatAvailable: unitsOf(input.fiatAvailable, fiat) ?? 0n,
        price: input.price,
        feePercent: input.coin.fee_percent,
        coin,
        fiat,
        amountMax,
      });
    } catch {
      return undefined;
    }
  }
  const places = quantityPlaces(input.coin.coin_id);
  if (places === 0) units = floorQuantity(units, coin, 0);
  return trimZeros(formatAmount(units, coin));
}

/** The coin's trade limits as the quantity field describes them: 'Min 0.01 BTC · max 10 BTC'. */
export function limitsText(coin: TradeCoin): string {
  const code = coin.coin_id.toUpperCase();
  const min = `Min ${trimZeros(coin.amount_min)} ${code}`;
  return coin.amount_max === null ? min : `${min} · max ${trimZeros(coin.amount_max)} ${code}`;
}

/** What the success toast says was done: 'Bought 0.01 BTC for £731.95.' */
export function tradeSummary(
  trade: Pick<Trade, 'side' | 'coin_id' | 'quantity' | 'total_cost_w_fee' | 'currency'>,
): string {
  const verb = trade.side === 'buy' ? 'Bought' : 'Sold';
  const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: trade.currency.toUpperCase() });
  return `${verb} ${trimZeros(trade.quantity)} ${trade.coin_id.toUpperCase()} for ${money.format(trade.total_cost_w_fee as `${number}`)}.`;
}

const priceFormats = new Map<string, Intl.NumberFormat>();

/**
 * A price as the page shows it (spec 002 section 9: 2 decimals, 5 for xlm),
 * with the fiat's symbol. A buyer's price is rounded up and a seller's down,
 * so neither reads better than it is.
 */
export function formatTradePrice(
  price: string,
  fiat: TradeFiat,
  coin: string,
  side: TradeSide,
): string | undefined {
  if (!/^\d+(\.\d+)?$/.test(price)) return undefined;
  const places = priceDecimals(coin);
  const key = `${fiat}:${places}:${side}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: fiat.toUpperCase(),
      minimumFractionDigits: places,
      maximumFractionDigits: places,
      roundingMode: side === 'buy' ? 'ceil' : 'trunc',
    });
    priceFormats.set(key, format);
  }
  return format.format(price as `${number}`);
}
