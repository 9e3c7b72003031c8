import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDecimal, formatFiat, formatPounds, initialsOf, maskEmail } from './format';

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
    expect(formatDateTime('2026-12-06T14:05:00Z')).toBe('6 December 2026, 14:05 GMT');
    expect(formatDateTime('2026-07-01T12:00:00Z')).toBe('1 July 2026, 13:00 BST');
  });

  it('names the UK day and zone around midnight and the clock change', () => {
    expect(formatDateTime('2026-07-01T23:30:00Z')).toBe('2 July 2026, 00:30 BST');
    expect(formatDateTime('2026-03-29T00:59:00Z')).toBe('29 March 2026, 00:59 GMT');
    expect(formatDateTime('2026-03-29T01:00:00Z')).toBe('29 March 2026, 02:00 BST');
  });

  it('takes a Date, and gives undefined for text that is not one', () => {
    expect(formatDateTime(new Date('2026-11-22T23:30:00Z'))).toBe('22 November 2026, 23:30 GMT');
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

describe('formatDecimal', () => {
  it('shows exactly the places asked for, with thousands separators', () => {
    expect(formatDecimal('1234.5', 2)).toBe('1,234.50');
    expect(formatDecimal('0.5', 5)).toBe('0.50000');
    expect(formatDecimal('1234567.12345678', 5)).toBe('1,234,567.12345');
  });

  it('cuts rather than rounds, so a balance never reads as more than there is', () => {
    expect(formatDecimal('0.999999', 5)).toBe('0.99999');
    expect(formatDecimal('19.999', 2)).toBe('19.99');
  });

  it('keeps digits a JS number would lose', () => {
    expect(formatDecimal('90071992547409931.123456789012345678', 5)).toBe('90,071,992,547,409,931.12345');
  });

  it('reads a cut negative zero as zero, and refuses what is not a decimal', () => {
    expect(formatDecimal('-0.000001', 5)).toBe('0.00000');
    expect(formatDecimal('-12.5', 2)).toBe('-12.50');
    expect(formatDecimal('1e5', 2)).toBeUndefined();
    expect(formatDecimal('', 2)).toBeUndefined();
  });
});

describe('formatFiat', () => {
  it('writes each fiat with its symbol from the string, cut to 2 decimals', () => {
    expect(formatFiat('1234.5', 'EUR')).toBe('€1,234.50');
    expect(formatFiat('72000.12999999', 'USD')).toBe('US$72,000.12');
    // Past 2^53 a JS number would lose the last digits.
    expect(formatFiat('90071992547409934.99', 'GBP')).toBe('£90,071,992,547,409,934.99');
    expect(formatFiat('-0.001', 'GBP')).toBe('£0.00');
    expect(formatFiat('1e5', 'GBP')).toBeUndefined();
    // A price the customer pays is rounded up instead.
    expect(formatFiat('72000.12000001', 'GBP', 'ceil')).toBe('£72,000.13');
  });
});

describe('formatPounds', () => {
  it('puts the pound sign after any minus', () => {
    expect(formatPounds('1500')).toBe('£1,500.00');
    expect(formatPounds('-3.456')).toBe('-£3.45');
    expect(formatPounds('abc')).toBeUndefined();
  });
});
