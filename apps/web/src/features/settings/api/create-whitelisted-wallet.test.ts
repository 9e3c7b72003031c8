import { describe, expect, it } from 'vitest';
import { walletBody } from './create-whitelisted-wallet';

const base = { label: ' Exchange ', passcode: ' 123456 ', tag: '' };

describe('walletBody', () => {
  it('appends an xrp destination tag to the address after a question mark (spec 001 section 5)', () => {
    expect(
      walletBody({
        ...base,
        coin_id: 'xrp',
        address: ' rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh ',
        tag: ' 12345 ',
      }),
    ).toEqual({
      coin_id: 'xrp',
      address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh?12345',
      label: 'Exchange',
      passcode: '123456',
      type: 99,
    });
  });

  it('sends an xrp address without a tag as it is', () => {
    expect(
      walletBody({ ...base, coin_id: 'xrp', address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' }).address,
    ).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
  });

  it('never appends a tag to another coin', () => {
    expect(
      walletBody({ ...base, coin_id: 'btc', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tag: '7' })
        .address,
    ).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  });
});
