import { AppError } from '@florin/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportError } from './errors';
import { clearRateLimit, describeRateLimit, retryAfterSeconds } from './rate-limit-notice';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

afterEach(() => {
  clearRateLimit();
  vi.mocked(notifications.show).mockClear();
});

const limited = (retryAfter?: number) =>
  new AppError(
    'RATE_LIMITED',
    'Too many attempts. Please wait 60 minutes and try again.',
    undefined,
    retryAfter === undefined ? undefined : { retry_after: retryAfter },
  );

describe('a refusal for too many attempts', () => {
  it('reads the wait the server gave in Retry-After', () => {
    expect(retryAfterSeconds(limited(90))).toBe(90);
    expect(retryAfterSeconds(limited())).toBeNull();
  });

  it('says what happened and, in UK time, when to try again', () => {
    expect(describeRateLimit('Too many attempts.', '2026-12-06T15:05:00Z')).toBe(
      'Too many attempts. You can try again from 6 December 2026, 15:05 GMT.',
    );
    expect(describeRateLimit('Too many attempts.', null)).toBe('Too many attempts.');
  });

  it('is not a toast that vanishes: reportError leaves it to the page’s alert', () => {
    reportError(limited(60));
    expect(notifications.show).not.toHaveBeenCalled();
    reportError(new AppError('CONFLICT'));
    expect(notifications.show).toHaveBeenCalledTimes(1);
  });
});
