import {
  assetOfCoinId,
  tradeAmountSchema,
  TRADING_TEXTS,
  type CoinId,
  parseCustomerInput,
} from '@florin/contracts';
import {
  formatAmount,
  instantQuote,
  maxBuyQuantity,
  maxSellQuantity,
  notional,
  parseAmount,
  percentOf,
  quantityDecimalsOf,
  TRADE_DECIMALS,
  trimZeros,
} from '@florin/domain';

/**
 * The order form's arithmetic (spec 002 section 9), all through the domain's
 * bigint rules so the screen and the server agree to the minor unit. Inputs
 * and results are decimal strings; nothing here touches a JS number.
 */

export type OrderKind = 'market' | 'limit';
export type OrderShare = 50 | 100;

const FIAT = 'GBP';

/** Spec 002 section 5: quantity and price carry at most 4 decimals; empty or zero has its own text. */
const quantitySchema = tradeAmountSchema(
  TRADE_DECIMALS,
  TRADING_TEXTS.quantityRequired,
  TRADING_TEXTS.amountDecimals,
);
const priceSchema = tradeAmountSchema(
  TRADE_DECIMALS,
  TRADING_TEXTS.priceRequired,
  TRADING_TEXTS.amountDecimals,
);

export type OrderErrors = { quantity?: string; price?: string };

/** Whether the coin's quantity is typed in whole units (xrp: spec 002 section 5). */
export function isWholeUnitCoin(coin: CoinId): boolean {
  return quantityDecimalsOf(coin, TRADE_DECIMALS) === 0;
}

/** The form's problems in the contract's words; an empty object when the order may be sent. */
export function validateOrder(kind: OrderKind, quantity: string, price: string, coin: CoinId): OrderErrors {
  const errors: OrderErrors = {};
  const quantityResult = parseCustomerInput(quantitySchema, quantity);
  if (!quantityResult.success) errors.quantity = quantityResult.error.issues[0]?.message;
  else if (isWholeUnitCoin(coin) && quantity.includes('.')) errors.quantity = TRADING_TEXTS.wholeUnits;
  if (kind === 'limit') {
    const priceResult = parseCustomerInput(priceSchema, price);
    if (!priceResult.success) errors.price = priceResult.error.issues[0]?.message;
  }
  return errors;
}

/** Spec 002 section 5: numeric inputs take only digits and one decimal point. */
export function isNumericInput(text: string): boolean {
  return /^\d*\.?\d*$/.test(text);
}

/** A positive plain decimal (a usable price or quantity), whatever its number of decimals. */
export function isPositiveDecimal(text: string | null | undefined): text is string {
  return typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) && /[1-9]/.test(text);
}

/** A quantity the form can compute with: a positive decimal within the trade's 4 decimals. */
function quantityUnits(quantity: string, coin: CoinId): bigint | null {
  if (!isPositiveDecimal(quantity) || Object.keys(validateOrder('market', quantity, '', coin)).length > 0)
    return null;
  return parseAmount(quantity, assetOfCoinId(coin));
}

/** "0.12340000" → "0.1234": what a percent button puts in the quantity field. */
function quantityText(units: bigint, coin: CoinId): string {
  return trimZeros(formatAmount(units, assetOfCoinId(coin)));
}

export type ShareInput = {
  coin: CoinId;
  percent: OrderShare;
  /** The coin's trade maximum in coin units; null: none. */
  amountMax: string | null;
};

/**
 * BUY 50% / 100%: that share of the largest quantity whose cost with the fee
 * fits the GBP available at `price` (the ask for a market order, the limit
 * price for a limit order), capped at the coin's maximum.
 */
export function buyShare(
  input: ShareInput & { fiatAvailable: string; price: string; feePercent: string },
): string {
  const asset = assetOfCoinId(input.coin);
  const max = maxBuyQuantity({
    fiatAvailable: parseAmount(input.fiatAvailable, FIAT),
    price: input.price,
    feePercent: input.feePercent,
    coin: asset,
    fiat: FIAT,
    amountMax: input.amountMax === null ? null : parseAmount(input.amountMax, asset),
  });
  return quantityText(percentOf(max, asset, input.percent), input.coin);
}

/** SELL 50% / 100%: that share of the coin available, capped at the coin's maximum. */
export function sellShare(input: ShareInput & { coinAvailable: string }): string {
  const asset = assetOfCoinId(input.coin);
  const max = maxSellQuantity({
    coinAvailable: parseAmount(input.coinAvailable, asset),
    coin: asset,
    amountMax: input.amountMax === null ? null : parseAmount(input.amountMax, asset),
  });
  return quantityText(percentOf(max, asset, input.percent), input.coin);
}

export type OrderValues = {
  /** quantity × the order's reference price (the limit price, or the mid for a market order), GBP. */
  orderValue: string;
  /** What a buy would take from the GBP balance, fee included. */
  buyTotal: string;
  /** What a sell would add to the GBP balance, after the fee. */
  sellTotal: string;
};

/**
 * The form's order value and value in GBP for the quantity typed; null until
 * the quantity and the prices are usable. A buy is priced at `buyPrice`, a
 * sell at `sellPrice` (the ask and the bid for a market order, both the limit
 * price for a limit order).
 */
export function orderValues(input: {
  coin: CoinId;
  quantity: string;
  referencePrice: string | null | undefined;
  buyPrice: string | null | undefined;
  sellPrice: string | null | undefined;
  feePercent: string;
}): OrderValues | null {
  const units = quantityUnits(input.quantity, input.coin);
  const { referencePrice, buyPrice, sellPrice } = input;
  if (units === null || !isPositiveDecimal(referencePrice)) return null;
  if (!isPositiveDecimal(buyPrice) || !isPositiveDecimal(sellPrice)) return null;
  const asset = assetOfCoinId(input.coin);
  const quote = (side: 'buy' | 'sell', price: string) =>
    instantQuote({ side, coin: asset, fiat: FIAT, price, feePercent: input.feePercent, quantity: units })
      .total;
  return {
    orderValue: formatAmount(notional(units, asset, referencePrice, FIAT, 'floor'), FIAT),
    buyTotal: formatAmount(quote('buy', buyPrice), FIAT),
    sellTotal: formatAmount(quote('sell', sellPrice), FIAT),
  };
}
