import type { AssetBalance, TradingTerms } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import {
  cleanDecimalInput,
  estimateInstant,
  exceedsBalance,
  fiatChoices,
  formatTradePrice,
  limitsText,
  maxQuantity,
  normalizeDecimal,
  tradableCoins,
  tradeSummary,
  type TradeCoin,
} from './instant-amounts';

function balance(asset: string, amount: string, kind: 'fiat' | 'coin' = 'fiat'): AssetBalance {
  return {
    asset,
    kind,
    amount,
    available: amount,
    held: '0',
    term_deposit: '0',
    held_orders: '0',
    held_withdrawals: '0',
    total: amount,
    gbp_value: null,
    percentage: null,
  };
}

const BTC: TradeCoin = {
  coin_id: 'btc',
  fee_percent: '1.39',
  amount_min: '0.0001',
  amount_max: '10',
  can_buy: true,
  can_sell: true,
};

describe('cleanDecimalInput', () => {
  it('keeps digits and one point, at most 8 decimals', () => {
    expect(cleanDecimalInput('1a.2.3', 8)).toBe('1.23');
    expect(cleanDecimalInput('0.123456789', 8)).toBe('0.12345678');
    expect(cleanDecimalInput('.5', 8)).toBe('.5');
    expect(cleanDecimalInput('-3,5', 8)).toBe('35');
  });

  it('allows no point at all for xrp (places 0)', () => {
    expect(cleanDecimalInput('12.5', 0)).toBe('125');
  });

  it('cuts cost to pennies', () => {
    expect(cleanDecimalInput('100.999', 2)).toBe('100.99');
  });
});

describe('normalizeDecimal', () => {
  it('completes a bare point so the API takes the number', () => {
    expect(normalizeDecimal('.5')).toBe('0.5');
    expect(normalizeDecimal('2.')).toBe('2');
    expect(normalizeDecimal('.')).toBe('');
    expect(normalizeDecimal(' 1.25 ')).toBe('1.25');
  });
});

describe('tradableCoins', () => {
  it('leaves out coins whose buy or sell is disabled, by side', () => {
    const terms: TradingTerms = {
      platform: 1,
      tier: 1,
      custom_fee_percent: null,
      volume_gbp: '0',
      tier_fee_percents: ['1.39', '1.15', '0.90', '0.65'],
      coins: [BTC, { ...BTC, coin_id: 'eth', can_buy: false }, { ...BTC, coin_id: 'ltc', can_sell: false }],
    };
    expect(tradableCoins(terms, 'buy').map((coin) => coin.coin_id)).toEqual(['btc', 'ltc']);
    expect(tradableCoins(terms, 'sell').map((coin) => coin.coin_id)).toEqual(['btc', 'eth']);
  });
});

describe('fiatChoices', () => {
  it('lists GBP first and always, then the other fiats the customer holds', () => {
    expect(fiatChoices({})).toEqual(['gbp']);
    expect(
      fiatChoices({ USD: balance('USD', '5.00'), EUR: balance('EUR', '0.00'), GBP: balance('GBP', '0.00') }),
    ).toEqual(['gbp', 'usd']);
    expect(fiatChoices({ EUR: balance('EUR', '1.00'), USD: balance('USD', '2.00') })).toEqual([
      'gbp',
      'eur',
      'usd',
    ]);
  });
});

describe('estimateInstant', () => {
  const base = { side: 'buy', coin: 'btc', fiat: 'gbp', price: '20000', feePercent: '1.39' } as const;

  it('prices a typed quantity: notional, the fee rounded up, and the total with it', () => {
    expect(estimateInstant({ ...base, source: 'quantity', amount: '0.01' })).toEqual({
      quantity: '0.01000000',
      totalWithoutFee: '200.00',
      fee: '2.78',
      total: '202.78',
    });
  });

  it('works a typed cost back to a quantity floored to 4 decimals that fits it', () => {
    const estimate = estimateInstant({ ...base, source: 'cost', amount: '100' });
    expect(estimate).toEqual({
      quantity: '0.00490000',
      totalWithoutFee: '98.00',
      fee: '1.37',
      total: '99.37',
    });
  });

  it('takes the fee off what a seller receives', () => {
    expect(estimateInstant({ ...base, side: 'sell', source: 'quantity', amount: '0.5' })).toEqual({
      quantity: '0.50000000',
      totalWithoutFee: '10000.00',
      fee: '139.00',
      total: '9861.00',
    });
  });

  it('gives nothing for an empty, zero or unusable amount', () => {
    expect(estimateInstant({ ...base, source: 'quantity', amount: '' })).toBeUndefined();
    expect(estimateInstant({ ...base, source: 'quantity', amount: '0.000' })).toBeUndefined();
    expect(estimateInstant({ ...base, source: 'quantity', amount: '.' })).toBeUndefined();
    expect(estimateInstant({ ...base, source: 'quantity', amount: '.5' })?.quantity).toBe('0.50000000');
    expect(estimateInstant({ ...base, price: '0', source: 'quantity', amount: '1' })).toBeUndefined();
  });
});

describe('exceedsBalance', () => {
  const estimate = { quantity: '0.01000000', totalWithoutFee: '200.00', fee: '2.78', total: '202.78' };
  const input = { coin: 'btc', fiat: 'gbp', estimate, coinAvailable: '0.01' } as const;

  it('compares a buy’s total with the fiat available, to the penny', () => {
    expect(exceedsBalance({ ...input, side: 'buy', fiatAvailable: '202.78' })).toBe(false);
    expect(exceedsBalance({ ...input, side: 'buy', fiatAvailable: '202.77' })).toBe(true);
  });

  it('compares a sell’s quantity with the coin available', () => {
    expect(exceedsBalance({ ...input, side: 'sell', fiatAvailable: '0' })).toBe(false);
    expect(exceedsBalance({ ...input, side: 'sell', fiatAvailable: '0', coinAvailable: '0.00999999' })).toBe(
      true,
    );
  });
});

describe('maxQuantity', () => {
  it('buys what the balance pays for after the fee, floored to 4 decimals', () => {
    const max = maxQuantity({
      side: 'buy',
      coin: BTC,
      fiat: 'gbp',
      price: '20000',
      fiatAvailable: '1000.00',
      coinAvailable: '0',
    });
    // 0.0493 BTC = £986.00 + £13.71 fee = £999.71; 0.0494 would cost £1,001.74.
    expect(max).toBe('0.0493');
  });

  it('caps a buy at amount_max less the margin, and needs a price', () => {
    const input = {
      side: 'buy',
      coin: BTC,
      fiat: 'gbp',
      fiatAvailable: '10000000',
      coinAvailable: '0',
    } as const;
    expect(maxQuantity({ ...input, price: '100' })).toBe('9.9999');
    expect(maxQuantity({ ...input, price: undefined })).toBeUndefined();
  });

  it('sells the coin available floored to 4 decimals; whole coins for xrp', () => {
    const sell = { side: 'sell', fiat: 'gbp', price: undefined, fiatAvailable: '0' } as const;
    expect(maxQuantity({ ...sell, coin: BTC, coinAvailable: '0.12345678' })).toBe('0.1234');
    expect(
      maxQuantity({ ...sell, coin: { ...BTC, coin_id: 'xrp', amount_max: null }, coinAvailable: '25.75' }),
    ).toBe('25');
  });
});

describe('limitsText', () => {
  it('says the smallest and largest order in the coin', () => {
    expect(limitsText({ ...BTC, amount_min: '0.01000000', amount_max: '10.00000000' })).toBe(
      'Min 0.01 BTC · max 10 BTC',
    );
    expect(limitsText({ ...BTC, amount_max: null })).toBe('Min 0.0001 BTC');
  });
});

describe('formatTradePrice', () => {
  it('shows 2 decimals with the fiat symbol, rounding a buyer’s price up and a seller’s down', () => {
    expect(formatTradePrice('27123.456', 'gbp', 'btc', 'buy')).toBe('£27,123.46');
    expect(formatTradePrice('27123.456', 'gbp', 'btc', 'sell')).toBe('£27,123.45');
    expect(formatTradePrice('1.5', 'eur', 'eth', 'sell')).toBe('€1.50');
  });

  it('shows 5 decimals for xlm', () => {
    expect(formatTradePrice('0.1234567', 'gbp', 'xlm', 'sell')).toBe('£0.12345');
  });
});

describe('tradeSummary', () => {
  it('says what was bought or sold and for how much', () => {
    const trade = {
      coin_id: 'btc',
      quantity: '0.01000000',
      total_cost_w_fee: '731.95',
      currency: 'gbp',
    } as const;
    expect(tradeSummary({ ...trade, side: 'buy' })).toBe('Bought 0.01 BTC for £731.95.');
    expect(tradeSummary({ ...trade, side: 'sell', currency: 'eur' })).toBe('Sold 0.01 BTC for €731.95.');
  });
});
