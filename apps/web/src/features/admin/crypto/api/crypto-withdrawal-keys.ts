/** The back office's crypto withdrawal query keys, so each action invalidates exactly the lists it changes. */
export const CRYPTO_WITHDRAWAL_KEYS = {
  payouts: ['admin', 'crypto', 'withdrawals'] as const,
  payoutsBy: (status: string) => ['admin', 'crypto', 'withdrawals', status] as const,
  settings: ['admin', 'crypto', 'withdrawal-settings'] as const,
};
