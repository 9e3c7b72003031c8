import { describe, expect, it } from 'vitest';
import { isResetTokenWellFormed, resetTokenFrom } from './reset-token';

describe('resetTokenFrom', () => {
  it('takes the text after the last question mark', () => {
    expect(resetTokenFrom('?abc123_-XYZ')).toBe('abc123_-XYZ');
    expect(resetTokenFrom('?first?second')).toBe('second');
  });

  it('is empty without a question mark', () => {
    expect(resetTokenFrom('')).toBe('');
  });
});

describe('isResetTokenWellFormed', () => {
  it('refuses an empty token and one cut short by a mail client', () => {
    expect(isResetTokenWellFormed('')).toBe(false);
    expect(isResetTokenWellFormed('abc123')).toBe(false);
  });

  it('takes a token of the length the reset e-mail writes', () => {
    expect(isResetTokenWellFormed('a'.repeat(43))).toBe(true);
  });
});
