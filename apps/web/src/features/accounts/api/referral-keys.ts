/** The Referrals and Promo tabs' query keys: a mutation invalidates exactly what it changes. */
export const REFERRAL_KEYS = {
  overview: ['referrals', 'overview'] as const,
  custom: ['referrals', 'custom'] as const,
  earnings: (flag: 0 | 1) => ['referrals', 'earnings', flag] as const,
  earningsAll: ['referrals', 'earnings'] as const,
  promoCodes: ['promo', 'codes'] as const,
};
