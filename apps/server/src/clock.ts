/**
 * Where the server's time rules read the time: a one-time code's or a
 * session's life, the waits after a security change, the cooling-off. The
 * app is given one clock (the system's in production, a movable one in tests:
 * test/clock.ts), and a rule decided in SQL takes the clock's time as a
 * parameter rather than the database's now(), so that moving the clock moves
 * every rule. Timestamps that only record when something happened may still
 * come from the database.
 */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
