import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from '@florin/contracts';
import { statesThatMayBecome, transition, type Lifecycle } from './lifecycle.js';

type Status = 'open' | 'held' | 'done' | 'dropped';

/** A lifecycle with a loop (held ↔ open) and two final statuses. */
const LIFECYCLE: Lifecycle<Status> = {
  open: ['held', 'done', 'dropped'],
  held: ['open', 'done'],
  done: [],
  dropped: [],
};

function refusalOf(move: () => unknown): AppError {
  try {
    move();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the move was allowed');
}

describe('transition', () => {
  it('returns the new status of a declared move', () => {
    expect(transition(LIFECYCLE, 'open', 'held')).toBe('held');
    expect(transition(LIFECYCLE, 'held', 'open')).toBe('open');
  });

  it('refuses an undeclared move with a 409 in the catalogue’s plain words', () => {
    const refusal = refusalOf(() => transition(LIFECYCLE, 'done', 'open'));
    expect(refusal.code).toBe('CONFLICT');
    expect(refusal.status).toBe(409);
    expect(refusal.message).toBe(ERROR_CODES.CONFLICT.message);
    expect(refusalOf(() => transition(LIFECYCLE, 'held', 'dropped')).code).toBe('CONFLICT');
  });

  it('refuses staying put: a status is not a move to itself unless the map says so', () => {
    expect(refusalOf(() => transition(LIFECYCLE, 'open', 'open')).code).toBe('CONFLICT');
  });
});

describe('statesThatMayBecome', () => {
  it('lists every status the map lets become the given one', () => {
    expect(statesThatMayBecome(LIFECYCLE, 'done')).toEqual(['open', 'held']);
    expect(statesThatMayBecome(LIFECYCLE, 'open')).toEqual(['held']);
    expect(statesThatMayBecome(LIFECYCLE, 'dropped')).toEqual(['open']);
  });
});
