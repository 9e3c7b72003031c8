/** The query keys of the trade screens, so a trade invalidates exactly what it changes. */
export const TRADE_KEYS = {
  terms: ['trading', 'terms'] as const,
};
