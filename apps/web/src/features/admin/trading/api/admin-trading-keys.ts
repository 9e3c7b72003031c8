/** The trading back office's query keys, so each save invalidates exactly the list it changes. */
export const ADMIN_TRADING_KEYS = {
  coins: ['admin', 'trading', 'coins'] as const,
  currencies: ['admin', 'trading', 'currencies'] as const,
  feePlans: ['admin', 'trading', 'fee-plans'] as const,
  inventory: ['admin', 'trading', 'inventory'] as const,
};
