import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_CSV_COLUMNS, TradingTermsSchema, type HistoryPage } from '@florin/contracts';
import { fromMinorUnits, instantQuote, parseAmount } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';

/**
 * Every trade's row in the history and in Crypto History.csv carries the
 * figures it executed at (fee, price, GBP value, cash moved), for each kind
 * of trade and each fiat; everything here is made through the real services.
 */

let t: TestApp;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

/** A live trading-account customer (market and limit orders need platform 2) with £10,000 and €5,000 paid in. */
async function trader(): Promise<FiatCustomer> {
  const customer = await liveCustomer(t);
  await t.database.db.updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  await paths.bankDeposit(customer, '10000.00', 'GBP');
  await paths.bankDeposit(customer, '5000.00', 'EUR');
  return customer;
}

async function btcFeePercent(customer: FiatCustomer): Promise<string> {
  const response = await customer.browser.get('/api/v1/trading/terms');
  const terms = TradingTermsSchema.parse(response.json<{ data: unknown }>().data);
  return terms.coins.find((coin) => coin.coin_id === 'btc')!.fee_percent;
}

/** What `quantity` BTC is worth at the BTC/GBP bid, floored to the penny: a non-GBP trade's GBP value. */
function gbpAtBid(quantity: string, bid: string): string {
  // Both to 8 places: their product is in units of 10^-16 pounds, 10^14 of them a penny.
  return fromMinorUnits((parseAmount(quantity, 'BTC') * parseAmount(bid, 'BTC')) / 10n ** 14n, 2);
}

/** The CSV row a filled order should have: the fill's figures worked out from the price the tick showed. */
function fillRow(input: {
  side: 'buy' | 'sell';
  fiat: 'GBP' | 'EUR';
  quantity: string;
  price: string;
  feePercent: string;
  gbpValue?: string;
}) {
  const figures = instantQuote({
    side: input.side,
    coin: 'BTC',
    fiat: input.fiat,
    price: input.price,
    feePercent: input.feePercent,
    quantity: parseAmount(input.quantity, 'BTC'),
  });
  const notional = fromMinorUnits(figures.notional, 2);
  return {
    type: input.side === 'buy' ? 'Buy' : 'Sell',
    asset: 'BTC',
    amount: `${input.side === 'sell' ? '-' : ''}${fromMinorUnits(parseAmount(input.quantity, 'BTC'), 8)}`,
    currency: input.fiat,
    price: input.price,
    gbp_value: input.gbpValue ?? notional,
    fee: fromMinorUnits(figures.fee, 2),
    net_amount: fromMinorUnits(figures.total, 2),
  };
}

async function csvRows(customer: FiatCustomer) {
  const response = await customer.browser.get('/api/v1/crypto/transactions/export');
  expect(response.statusCode, response.body).toBe(200);
  const rows = parse<Record<string, string>>(response.body, { columns: true });
  expect(Object.keys(rows[0]!)).toEqual([...HISTORY_CSV_COLUMNS]);
  // Oldest first, without the date and the reference (the journal's id), which no screen quoted.
  return rows.reverse().map(({ date: _date, reference: _reference, ...row }) => row);
}

describe('a trade’s record carries its own figures', () => {
  it('shows each instant, market, limit and stop trade in GBP and EUR with the fee, price, GBP value and cash it executed at', async () => {
    const customer = await trader();
    const feePercent = await btcFeePercent(customer);
    const gbp = await paths.drive('50000');
    await paths.drive('58000', 'BTC/EUR');

    // The screen's quotes: what the customer saw before they pressed Execute.
    const bought = await paths.instant(customer, { side: 'buy', quantity: '0.05' });
    const sold = await paths.instant(customer, { side: 'sell', quantity: '0.02' });
    const marketEur = await paths.market(customer, 'buy', {
      crypto_amount: '0.02',
      currency: 'eur',
      max_slippage_percent: '1',
    });
    await paths.placeOrder(customer, { side: 1, order_qty: '0.02', price: '49000' });
    const fellTo = await paths.drive('48500');
    await paths.placeOrder(customer, { side: 2, order_qty: '0.03', price: '60000', currency: 'eur' });
    const eurRose = await paths.drive('61000', 'BTC/EUR');
    await paths.placeOrder(customer, { side: 2, order_qty: '0.01', price: '45000', order_type: 3 });
    const crashed = await paths.drive('44000');

    expect(await csvRows(customer)).toEqual([
      {
        type: 'Deposit',
        asset: 'GBP',
        amount: '10000.00',
        currency: 'GBP',
        price: '',
        gbp_value: '10000.00',
        fee: '0',
        net_amount: '',
      },
      {
        type: 'Deposit',
        asset: 'EUR',
        amount: '5000.00',
        currency: 'EUR',
        price: '',
        gbp_value: '',
        fee: '0',
        net_amount: '',
      },
      {
        type: 'Buy',
        asset: 'BTC',
        amount: bought.quote.quantity,
        currency: 'GBP',
        price: bought.quote.price,
        gbp_value: bought.quote.total_cost_wo_fee,
        fee: bought.quote.fee,
        net_amount: bought.quote.total_cost_w_fee,
      },
      {
        type: 'Sell',
        asset: 'BTC',
        amount: `-${sold.quote.quantity}`,
        currency: 'GBP',
        price: sold.quote.price,
        gbp_value: sold.quote.total_cost_wo_fee,
        fee: sold.quote.fee,
        net_amount: sold.quote.total_cost_w_fee,
      },
      {
        type: 'Buy',
        asset: 'BTC',
        amount: marketEur.quantity,
        currency: 'EUR',
        price: marketEur.price,
        gbp_value: gbpAtBid('0.02', gbp.bid),
        fee: marketEur.fee,
        net_amount: marketEur.total_cost_w_fee,
      },
      fillRow({ side: 'buy', fiat: 'GBP', quantity: '0.02', price: fellTo.ask, feePercent }),
      fillRow({
        side: 'sell',
        fiat: 'EUR',
        quantity: '0.03',
        price: eurRose.bid,
        feePercent,
        gbpValue: gbpAtBid('0.03', fellTo.bid),
      }),
      fillRow({ side: 'sell', fiat: 'GBP', quantity: '0.01', price: crashed.bid, feePercent }),
    ]);
    // The fee is never nothing: each of these trades paid one.
    expect(bought.quote.fee).not.toBe('0.00');
    await expectLedgerToHold(t.database.db);
  });

  it('shows the same figures in the history as in the export, with the GBP paid or received for a buy or a sell', async () => {
    const customer = await trader();
    await paths.drive('50000');
    const bought = await paths.instant(customer, { side: 'buy', cost: '734.50' });
    const sold = await paths.instant(customer, { side: 'sell', quantity: '0.01' });

    const response = await customer.browser.get(
      '/api/v1/user/fiat-crypto-transactions?filter[]=buy&filter[]=sell',
    );
    const [sell, buy] = response.json<HistoryPage>().data;
    expect(buy).toMatchObject({
      label: 'Buy',
      amount: bought.quote.quantity,
      currency_code: 'GBP',
      price: bought.quote.price,
      purchase_amount_gbp: bought.quote.total_cost_wo_fee,
      sell_amount_gbp: null,
      gbp_amount: bought.quote.total_cost_wo_fee,
      fee: bought.quote.fee,
      net_amount: bought.quote.total_cost_w_fee,
    });
    // The case: what the customer paid, fee included, is not the trade's value.
    expect(buy!.gbp_amount).not.toBe(buy!.net_amount);
    expect(sell).toMatchObject({
      label: 'Sell',
      amount: '0.01000000',
      price: sold.quote.price,
      purchase_amount_gbp: null,
      sell_amount_gbp: sold.quote.total_cost_wo_fee,
      fee: sold.quote.fee,
      net_amount: sold.quote.total_cost_w_fee,
    });
    await expectLedgerToHold(t.database.db);
  });
});
