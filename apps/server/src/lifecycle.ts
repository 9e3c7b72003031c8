import { AppError } from '@florin/contracts';

/** A lifecycle's allowed-transition map: each status to the statuses it may become (CONVENTIONS 7). */
export type Lifecycle<S extends string> = Readonly<Record<S, readonly S[]>>;

/**
 * `to`, when the lifecycle lets `from` become it; otherwise 409 CONFLICT with the catalogue's plain
 * text. Call it on the write, after the use case's own check with its own words has passed.
 */
export function transition<S extends string, T extends S>(lifecycle: Lifecycle<S>, from: S, to: T): T {
  if (!lifecycle[from].includes(to)) throw new AppError('CONFLICT');
  return to;
}

/** The statuses the lifecycle lets become `to`: the WHERE list of an update decided in SQL. */
export function statesThatMayBecome<S extends string>(lifecycle: Lifecycle<S>, to: S): S[] {
  return (Object.keys(lifecycle) as S[]).filter((from) => lifecycle[from].includes(to));
}
