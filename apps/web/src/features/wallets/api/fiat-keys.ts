import type { FiatCurrency } from '@florin/contracts';

/** The query keys of the fiat screens, so a mutation invalidates exactly what it changes. */
export const FIAT_KEYS = {
  all: ['fiat'] as const,
  bankAccount: (currency: FiatCurrency) => ['fiat', 'bank-account', currency] as const,
  /** Whether any bank account is registered, in whichever currency. */
  anyBankAccount: ['fiat', 'any-bank-account'] as const,
  depositInfo: ['fiat', 'deposit-info'] as const,
  withdrawInfo: (currency: FiatCurrency) => ['fiat', 'withdraw-info', currency] as const,
  withdrawInfoAll: ['fiat', 'withdraw-info'] as const,
  activity: (currency: FiatCurrency) => ['fiat', 'activity', currency] as const,
  activityAll: ['fiat', 'activity'] as const,
};
