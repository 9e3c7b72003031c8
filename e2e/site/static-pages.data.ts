import { countryName, PERMITTED_JURISDICTIONS } from '@florin/domain';

/** Each static page: its address, heading, and a text only it shows (spec 002 §2.13, DECISIONS.md Routes). */
export const STATIC_PAGES = [
  { path: '/terms', heading: 'Terms of Service', text: 'counts as received on the next business day' },
  { path: '/privacy', heading: 'Privacy Policy', text: 'is the controller of the personal data' },
  { path: '/GDPR', heading: 'GDPR', text: 'The right to data portability' },
  { path: '/cookie', heading: 'Cookie Policy', text: 'Remembers the referral code' },
  { path: '/about-us', heading: 'About us', text: 'Florin is a UK crypto wallet and exchange.' },
  // Its tables are the server's own settings (GET /api/crypto/coins): drawn once the scripts have fetched them.
  { path: '/fees', heading: 'Fees', text: 'Fiat withdrawals take up to 3 business days.', fromApi: true },
  { path: '/Locations', heading: 'Permitted jurisdictions', text: 'Isle of Man' },
  { path: '/risk-summary', heading: 'Risk summary', text: 'What are the key risks?' },
  { path: '/LearnCrypto', heading: 'Learn crypto', text: 'How a blockchain works' },
  { path: '/CryptoBusiness.html', heading: 'Crypto for business', text: 'Know Your Business (KYB)' },
  { path: '/live-crypto-prices', heading: 'Live crypto prices', text: 'updated every second' },
] as const;

/** The Locations page's groups: the domain's lists, which countries.test.ts holds to spec 002 §9's names. */
export const JURISDICTIONS = {
  primary: PERMITTED_JURISDICTIONS.primary.map(countryName),
  eea: PERMITTED_JURISDICTIONS.eea.map(countryName),
  'non-eu': PERMITTED_JURISDICTIONS.nonEu.map(countryName),
};

export type AssetFees = {
  asset: string;
  kind: 'fiat' | 'coin';
  deposit_fee: string;
  withdraw_fee: string;
  withdraw_fee_free_from: string | null;
  withdraw_min: string;
  withdraw_max: string | null;
};
export type Fees = {
  assets: AssetFees[];
  trading: {
    tier: number;
    volume_from: string;
    volume_to: string;
    instant_percent: string;
    trading_percent: string;
  }[];
};
export type PublicCoins = Record<
  string,
  { coin_id: string; platform_fee: string | null; amount_min: string; amount_max: string | null }
>;
