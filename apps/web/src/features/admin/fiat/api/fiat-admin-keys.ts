/** The back office's fiat query keys, so each action invalidates exactly the lists it changes. */
export const FIAT_ADMIN_KEYS = {
  settings: ['admin', 'fiat', 'settings'] as const,
  deposits: ['admin', 'fiat', 'deposits'] as const,
  suspense: ['admin', 'fiat', 'deposits', 'suspense'] as const,
  payouts: ['admin', 'fiat', 'payouts'] as const,
};
