import { describe, expect, it } from 'vitest';
import { formatDateTime, initialsOf, maskEmail } from './format';

describe('maskEmail', () => {
  it('keeps the first and last characters of the local part and of the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j******e@e*********m');
    expect(maskEmail('bob@florin.co.uk')).toBe('b*b@f**********k');
  });

  it('leaves parts of one or two characters as they are', () => {
    expect(maskEmail('a@bc.io')).toBe('a@b***o');
    expect(maskEmail('ab@x.y')).toBe('ab@x*y');
  });

  it('masks by characters, not UTF-16 units', () => {
    expect(maskEmail('zoë🙂x@exämple.com')).toBe('z***x@e*********m');
  });

  it('splits at the last @ and copes with none', () => {
    expect(maskEmail('"a@b"@example.com')).toBe('"***"@e*********m');
    expect(maskEmail('nobody')).toBe('n****y');
  });
});

describe('formatDateTime', () => {
  it('shows UK time: GMT in winter, BST in summer', () => {
    expect(formatDateTime('2026-01-15T09:05:00Z')).toBe('15 Jan 2026, 09:05');
    expect(formatDateTime('2026-07-01T12:00:00Z')).toBe('1 Jul 2026, 13:00');
  });

  it('takes a Date, and gives undefined for text that is not one', () => {
    expect(formatDateTime(new Date('2026-11-22T23:30:00Z'))).toBe('22 Nov 2026, 23:30');
    expect(formatDateTime('not a date')).toBeUndefined();
  });
});

describe('initialsOf', () => {
  it('takes the first letter of each name, in capitals', () => {
    expect(initialsOf('jane', 'doe')).toBe('JD');
    expect(initialsOf(' Élodie ', 'Ñúñez')).toBe('ÉÑ');
  });

  it('falls back to a question mark when there is nothing to show', () => {
    expect(initialsOf('', ' ')).toBe('?');
  });
});
