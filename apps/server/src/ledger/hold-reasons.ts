/** Why money is held back: each hold names one, and the balance read splits what is held by them. */
export const ORDER_HOLD_REASONS = ['limit_order', 'stop_order'] as const;
export const WITHDRAWAL_HOLD_REASONS = ['fiat_withdrawal', 'crypto_withdrawal'] as const;
export const HOLD_REASONS = [...ORDER_HOLD_REASONS, ...WITHDRAWAL_HOLD_REASONS, 'affiliate_claim'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
