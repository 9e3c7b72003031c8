import { describe, expect, it } from 'vitest';
import { resetTokenFrom } from './reset-token';

describe('resetTokenFrom', () => {
  it('takes the text after the last question mark', () => {
    expect(resetTokenFrom('?abc123_-XYZ')).toBe('abc123_-XYZ');
    expect(resetTokenFrom('?first?second')).toBe('second');
  });

  it('is empty without a question mark', () => {
    expect(resetTokenFrom('')).toBe('');
  });
});
