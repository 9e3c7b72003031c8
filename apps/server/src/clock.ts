/**
 * Where the time rules read the time: a one-time code's (TOTP and e-mailed)
 * or a session's life, the waits after a security change, the cooling-off, a
 * crypto withdrawal's 30 minutes. The app is given one clock (the system's in
 * production, a movable one in tests: test/clock.ts), and such a rule decided
 * in SQL takes the clock's time as a parameter rather than the database's
 * now(), so moving the clock moves it. Abuse limits and a quote's life still
 * read the database's or the system's time; their tests need no waiting.
 * Timestamps that only record when something happened may come from the
 * database.
 */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
