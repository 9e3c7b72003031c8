import { expect } from 'vitest';
import { CRYPTO_WITHDRAW_TEXTS, CryptoWithdrawalSchema, type CryptoWithdrawal } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { type TestApp } from '../../test/app.js';
import { type SignedInStaff } from '../../test/admin.js';
import { coinDeposit } from '../../test/deposits.js';
import {
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { balanceOf } from './crypto.test-kit.js';

/** Valid mainnet addresses (BIP173, EIP-55, CashAddr and XRP examples). */
export const ADDRESS = {
  btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ltc: 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
  bch: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

export const TRAVEL_SELF = { beneficiary_type: 'self', destination_type: 'private_wallet' } as const;

/**
 * What the crypto withdrawal API tests share: funded customers, and a withdrawal asked for, verified
 * with the mailed code and queued as the app's clients do it. Each test file calls
 * `withdrawalSteps(() => t)` with its own app.
 */
export function withdrawalSteps(app: () => TestApp) {
  const db = () => app().database.db;

  /** A live customer holding `units` of the coin (BTC: satoshi), paid to their deposit address and confirmed. */
  async function fundedCustomer(
    units = 100_000_000n,
    asset: 'BTC' | 'XRP' | 'ETH' = 'BTC',
  ): Promise<Customer> {
    const customer = await liveCustomer(app());
    await coinDeposit(app(), customer, asset.toLowerCase(), formatAmount(units, asset));
    return customer;
  }

  function request(customer: Customer, body: Record<string, unknown>, key = newIdempotencyKey()) {
    return customer.browser.post(
      '/api/v1/crypto/send-verify-withdraw',
      { coin: 'btc', wallet: ADDRESS.btc, ...TRAVEL_SELF, ...body },
      { headers: { 'idempotency-key': key } },
    );
  }

  async function requested(
    customer: Customer,
    body: Record<string, unknown> = {},
  ): Promise<CryptoWithdrawal> {
    const response = await request(customer, { amount: '0.5', ...body });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ message: string }>().message).toBe(CRYPTO_WITHDRAW_TEXTS.codeSent);
    return CryptoWithdrawalSchema.parse(response.json<{ data: unknown }>().data);
  }

  function verify(customer: Customer, id: string, code: string) {
    return customer.browser.post('/api/v1/crypto/verify-withdraw', { withdrawal_id: id, verify_code: code });
  }

  function submit(customer: Customer, id: string, passcode?: string) {
    return customer.browser.post('/api/v1/crypto/withdraw', { withdrawal_id: id, passcode });
  }

  /** Requested, verified with the mailed code and queued (a customer without 2FA). */
  async function queued(customer: Customer, body: Record<string, unknown> = {}): Promise<CryptoWithdrawal> {
    const withdrawal = await requested(customer, body);
    const verified = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
    expect(verified.statusCode, verified.body).toBe(200);
    const done = await submit(customer, withdrawal.id);
    expect(done.statusCode, done.body).toBe(200);
    return CryptoWithdrawalSchema.parse(done.json<{ data: unknown }>().data);
  }

  async function staffAction(
    staff: SignedInStaff,
    id: string,
    action: string,
    body: Record<string, unknown> = {},
  ) {
    return staff.browser.post(`/api/admin/crypto/withdrawals/${id}/${action}`, body);
  }

  async function held(customerId: number, asset: 'BTC' | 'XRP' = 'BTC') {
    return (await balanceOf(app(), customerId, asset)).held;
  }
  return { db, fundedCustomer, request, requested, verify, submit, queued, staffAction, held };
}
