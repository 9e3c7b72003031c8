/** A service that one built before it calls: set once it is built, which is before any request. */
export type LateBound<T> = { get: () => T; set: (service: T) => void };

/**
 * Closes a cycle in the module graph: the service built first calls the later one through this, and
 * a call before `set` is a wiring bug rather than a request the app could answer.
 */
export function lateBound<T>(name: string): LateBound<T> {
  let bound: { service: T } | undefined;
  return {
    get: () => {
      if (!bound) throw new Error(`${name} was called before the app was built`);
      return bound.service;
    },
    set: (service) => {
      bound = { service };
    },
  };
}
