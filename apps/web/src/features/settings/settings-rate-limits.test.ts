import { AppError } from '@florin/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearRateLimit, currentRateLimitNotice } from '../../lib/rate-limit-notice';
import { reportSettingsFormError } from './settings-errors';
import { reportIpError, reportWalletFormError, reportWalletRemovalError } from './whitelist-errors';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

afterEach(() => {
  clearRateLimit();
  vi.mocked(notifications.show).mockClear();
});

const limited = () =>
  new AppError(
    'RATE_LIMITED',
    'Too many attempts. You can try again from 6 December 2026, 15:05 GMT.',
    undefined,
    { retry_after: 600 },
  );

const setError = vi.fn();

describe('too many attempts on the settings forms', () => {
  it.each([
    [
      'the password form',
      () => reportSettingsFormError(limited(), setError, ['password']),
      'Too Many Requests',
    ],
    ['the wallet form', () => reportWalletFormError(limited(), setError, ['address']), 'Too Many Requests'],
    ['a wallet removal', () => reportWalletRemovalError(limited()), 'Too Many Requests'],
    ['the IP whitelist', () => reportIpError(limited()), 'Failed'],
  ])('on %s stay above the page until the wait is over, not in a 3-second toast', (_, report, title) => {
    report();
    expect(notifications.show).not.toHaveBeenCalled();
    expect(currentRateLimitNotice()).toMatchObject({ title, message: limited().message });
  });
});
