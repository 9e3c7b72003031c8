import { RATE_LIMIT_TEXTS } from '@florin/contracts';

const { tooManyAttempts, tryAgainFrom } = RATE_LIMIT_TEXTS;

/**
 * An abuse limit's refusal (security/rate-limits.ts) naming a minute in UK time, whichever:
 * the minute depends on when the test's earlier attempts ran. retry-after.test.ts pins it.
 */
export const TOO_MANY_ATTEMPTS = new RegExp(
  `^${tooManyAttempts.replace('.', '\\.')} ${tryAgainFrom} \\d{1,2} [A-Z][a-z]+ \\d{4}, \\d{2}:\\d{2} (GMT|BST)\\.$`,
);
