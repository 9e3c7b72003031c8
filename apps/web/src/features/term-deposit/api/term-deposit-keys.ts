/** The query keys of the term deposit screen, so a deposit invalidates exactly what it changes. */
export const TERM_DEPOSIT_KEYS = {
  all: ['term-deposits'] as const,
  coins: ['term-deposits', 'coins'] as const,
  history: ['term-deposits', 'history'] as const,
};
