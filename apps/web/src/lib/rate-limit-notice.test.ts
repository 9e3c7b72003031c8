import { AppError } from '@florin/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportError } from './errors';
import {
  clearRateLimit,
  currentRateLimitNotice,
  describeRateLimit,
  retryAfterSeconds,
} from './rate-limit-notice';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

afterEach(() => {
  clearRateLimit();
  vi.mocked(notifications.show).mockClear();
});

/** An abuse limit's refusal as the server words it: the moment a retry works, in UK time. */
const limited = (retryAfter?: number) =>
  new AppError(
    'RATE_LIMITED',
    'Too many attempts. You can try again from 6 December 2026, 15:05 GMT.',
    undefined,
    retryAfter === undefined ? undefined : { retry_after: retryAfter },
  );

describe('a refusal for too many attempts', () => {
  it('reads the wait the server gave in Retry-After', () => {
    expect(retryAfterSeconds(limited(90))).toBe(90);
    expect(retryAfterSeconds(limited())).toBeNull();
  });

  it('says, in UK time, when to try again once, whether or not the server named the moment', () => {
    expect(describeRateLimit('Too many uploads.', '2026-12-06T15:05:00Z')).toBe(
      'Too many uploads. You can try again from 6 December 2026, 15:05 GMT.',
    );
    expect(describeRateLimit(limited().message, '2026-12-06T15:05:00Z')).toBe(
      'Too many attempts. You can try again from 6 December 2026, 15:05 GMT.',
    );
    expect(describeRateLimit('Too many uploads.', null)).toBe('Too many uploads.');
  });

  it('is not a toast that vanishes: reportError leaves it to the page’s alert', () => {
    reportError(limited(60));
    expect(notifications.show).not.toHaveBeenCalled();
    reportError(new AppError('CONFLICT'));
    expect(notifications.show).toHaveBeenCalledTimes(1);
  });

  it('keeps the title the screen gives its failures, else the one for any 429', () => {
    reportError(limited(60), { title: 'Login Failed!' });
    expect(currentRateLimitNotice()).toMatchObject({ title: 'Login Failed!', message: limited().message });
    reportError(limited(60));
    expect(currentRateLimitNotice()).toMatchObject({ title: 'Too Many Requests' });
  });
});
