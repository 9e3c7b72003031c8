import { TRADING_TEXTS } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import { buyShare, isNumericInput, orderValues, sellShare, validateOrder } from './order-math';

describe('validateOrder', () => {
  it('asks for a quantity when it is empty or zero, in the spec’s words', () => {
    expect(validateOrder('market', '', '', 'btc')).toEqual({ quantity: TRADING_TEXTS.quantityRequired });
    expect(validateOrder('market', '0.000', '', 'btc')).toEqual({ quantity: TRADING_TEXTS.quantityRequired });
    expect(TRADING_TEXTS.quantityRequired).toBe('Field order quantity is required');
  });

  it('asks for a price only for a limit order', () => {
    expect(validateOrder('market', '0.5', '', 'btc')).toEqual({});
    expect(validateOrder('limit', '0.5', '', 'btc')).toEqual({ price: 'Field order price is required' });
    expect(validateOrder('limit', '', '0', 'btc')).toEqual({
      quantity: 'Field order quantity is required',
      price: 'Field order price is required',
    });
  });

  it('refuses more than 4 decimals in the quantity or the price', () => {
    expect(validateOrder('limit', '0.12345', '20000.12345', 'btc')).toEqual({
      quantity: TRADING_TEXTS.amountDecimals,
      price: TRADING_TEXTS.amountDecimals,
    });
    expect(validateOrder('limit', '0.1234', '20000.1234', 'btc')).toEqual({});
  });

  it('takes xrp in whole units only (spec 002 section 5)', () => {
    expect(validateOrder('market', '15.5', '', 'xrp')).toEqual({ quantity: TRADING_TEXTS.wholeUnits });
    expect(validateOrder('limit', '15', '0.5123', 'xrp')).toEqual({});
  });
});

describe('isNumericInput', () => {
  it('lets through digits and one decimal point only', () => {
    expect(isNumericInput('')).toBe(true);
    expect(isNumericInput('12.')).toBe(true);
    expect(isNumericInput('.5')).toBe(true);
    expect(isNumericInput('1.2.3')).toBe(false);
    expect(isNumericInput('-1')).toBe(false);
    expect(isNumericInput('1e3')).toBe(false);
  });
});

describe('the percent buttons', () => {
  it('BUY 100% is the GBP balance over the price less the fee, 4 decimals; BUY 50% half of it, floored', () => {
    // £1,000 at £20,000 with a 1 % fee: 0.0495 BTC costs £990.00 + £9.90.
    const input = {
      coin: 'btc',
      fiatAvailable: '1000.00',
      price: '20000',
      feePercent: '1',
      amountMax: null,
    } as const;
    expect(buyShare({ ...input, percent: 100 })).toBe('0.0495');
    expect(buyShare({ ...input, percent: 50 })).toBe('0.0247');
  });

  it('BUY stops below the coin’s maximum with its safety margin', () => {
    expect(
      buyShare({
        coin: 'btc',
        fiatAvailable: '1000000.00',
        price: '20000',
        feePercent: '0.75',
        amountMax: '2.00000000',
        percent: 100,
      }),
    ).toBe('1.9999');
  });

  it('SELL 100% is the coin available floored to 4 decimals; SELL 50% half of it', () => {
    expect(sellShare({ coin: 'btc', coinAvailable: '0.12345678', amountMax: null, percent: 100 })).toBe(
      '0.1234',
    );
    expect(sellShare({ coin: 'btc', coinAvailable: '0.12345678', amountMax: null, percent: 50 })).toBe(
      '0.0617',
    );
    expect(sellShare({ coin: 'eth', coinAvailable: '0', amountMax: null, percent: 100 })).toBe('0');
  });
});

describe('orderValues', () => {
  it('prices a market order: value at the mid, a buy at the ask with the fee, a sell at the bid less it', () => {
    expect(
      orderValues({
        coin: 'btc',
        quantity: '0.5',
        referencePrice: '20000',
        buyPrice: '20100',
        sellPrice: '19900',
        feePercent: '0.75',
      }),
    ).toEqual({ orderValue: '10000.00', buyTotal: '10125.38', sellTotal: '9875.37' });
  });

  it('waits for a usable quantity and prices', () => {
    const base = {
      coin: 'btc',
      referencePrice: '20000',
      buyPrice: '20000',
      sellPrice: '20000',
      feePercent: '1',
    } as const;
    expect(orderValues({ ...base, quantity: '' })).toBeNull();
    expect(orderValues({ ...base, quantity: '0.12345' })).toBeNull();
    expect(orderValues({ ...base, quantity: '1', referencePrice: undefined })).toBeNull();
    expect(orderValues({ ...base, quantity: '1', buyPrice: '0' })).toBeNull();
    expect(orderValues({ ...base, quantity: '1' })).toEqual({
      orderValue: '20000.00',
      buyTotal: '20200.00',
      sellTotal: '19800.00',
    });
  });
});
