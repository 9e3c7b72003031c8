import { describe, expect, it } from 'vitest';
import { AppError } from '@florin/contracts';
import { csvCell, csvLine, parseCsv } from './csv.js';

describe('CSV cells', () => {
  it('quotes what RFC 4180 needs and neutralises spreadsheet formulas, keeping negative numbers numbers', () => {
    expect(csvCell('Buy')).toBe('Buy');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('-12.50')).toBe('-12.50');
  });
});

describe('reading a statement', () => {
  it('reads quoted cells with commas, quotes and line breaks, CRLF and a byte-order mark', () => {
    expect(parseCsv('\uFEFFa,b\r\n"1,000.00","say ""hi""\nthere"\n')).toEqual([
      ['a', 'b'],
      ['1,000.00', 'say "hi"\nthere'],
    ]);
    expect(parseCsv('x,y')).toEqual([['x', 'y']]);
  });
});

describe('a statement that is not CSV', () => {
  it('is a 422 on the field that carried it, not a 500', () => {
    let thrown: unknown;
    try {
      parseCsv('a,b\n"never closed', 'statement');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'VALIDATION_FAILED', errors: { statement: [expect.any(String)] } });
  });

  it('reads back what csvLine writes', () => {
    const row = ['=1+1', 'a,b', 'say "hi"', '-12.50'];
    expect(parseCsv(csvLine(row))).toEqual([["'=1+1", 'a,b', 'say "hi"', '-12.50']]);
  });
});
