/** The back office's term deposit queries. */
export const ADMIN_TERM_DEPOSIT_KEYS = {
  options: ['admin', 'term-deposits', 'options'] as const,
};
