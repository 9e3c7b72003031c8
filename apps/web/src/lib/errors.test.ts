import { AppError } from '@florin/contracts';
import { describe, expect, it, vi } from 'vitest';
import { describeError, statusText } from './errors';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

describe('statusText', () => {
  it('gives the reason phrase the spec titles some failures with', () => {
    expect(statusText(422)).toBe('Unprocessable Content');
    expect(statusText(429)).toBe('Too Many Requests');
  });

  it('falls back to "Failed!" for an unlisted 5xx and "Error" for anything else', () => {
    expect(statusText(502)).toBe('Failed!');
    expect(statusText(418)).toBe('Error');
  });
});

describe('describeError', () => {
  it('lists field errors line by line, else gives the message', () => {
    const invalid = new AppError('VALIDATION_FAILED', 'Invalid.', { a: ['One.'], b: ['Two.', 'Three.'] });
    expect(describeError(invalid)).toBe('One.\nTwo.\nThree.');
    expect(describeError(new AppError('RATE_LIMITED', 'Wait 15 minutes.'))).toBe('Wait 15 minutes.');
  });

  it("never shows a 5xx's own text", () => {
    expect(describeError(new AppError('INTERNAL', 'stack trace'))).toBe(
      'Something went wrong. Please contact the admin.',
    );
  });

  it('tells a customer that live prices are down in the fixed words they can act on', () => {
    expect(describeError(new AppError('PRICES_STALE', 'whatever the server said'))).toBe(
      'Live prices are unavailable at the moment. Please try again shortly.',
    );
  });
});
