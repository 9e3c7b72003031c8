/** The Account page's Tier tab (spec 002 §2.2 and §9; DECISIONS.md "Fees, tiers, referrals"). */
export const TIER_TEXTS = {
  intro:
    'Your fee comes from your trading volume in pounds this calendar year: the more you trade, the lower it is.',
  volumeLabel: 'Your volume this year',
  yourTier: 'Your tier',
  sliderLabel: 'Your tier by year-to-date volume',
  tier: 'Tier',
  volume: 'Volume',
  fee: 'Fee',
  custom: 'Custom',
  customVolume: 'above',
  customFee: 'custom',
  current: 'Your tier',
  customPlan: 'You have a Custom plan',
  customPlanText: 'Our team set your fee to {percent}% on every trade, whatever your volume.',
  instantColumn: 'Instant account fees',
  tradingColumn: 'Trading account fees',
  loadFailed: 'Your tier could not be loaded. Please try again later.',
} as const;
