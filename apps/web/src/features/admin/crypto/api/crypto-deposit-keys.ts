/** The back office's crypto deposit query keys, so each action invalidates exactly the lists it changes. */
export const CRYPTO_DEPOSIT_KEYS = {
  deposits: ['admin', 'crypto', 'deposits'] as const,
  depositsBy: (status: string) => ['admin', 'crypto', 'deposits', status] as const,
};
