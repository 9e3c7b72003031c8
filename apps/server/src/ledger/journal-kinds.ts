/** Every kind of money movement (shared/LEDGER.md, "The flows"); history labels them. */
export const JOURNAL_KINDS = [
  'fiat_deposit',
  'fiat_withdrawal',
  'crypto_deposit',
  'crypto_withdrawal',
  'trade',
  'limit_order_fill',
  'term_deposit_lock',
  'term_deposit_maturity',
  'affiliate_commission',
  'affiliate_claim',
  'adjustment',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];
