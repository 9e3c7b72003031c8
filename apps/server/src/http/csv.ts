import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '@florin/contracts';

/**
 * One RFC 4180 line (CRLF). A cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, or a tab or carriage return) is prefixed with a
 * quote mark — except a plain negative number, which stays a number.
 */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Reads CSV text (RFC 4180: quoted cells may hold commas, line breaks and
 * doubled quotes) into rows of cells; a byte-order mark and CRLF are accepted,
 * as banks' exports carry both. Text that is not CSV (an unclosed quote) is a
 * 422 on `field`, never a 500.
 */
export function parseCsv(text: string, field = 'csv'): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (error) {
    if (error instanceof CsvError)
      throw new AppError('VALIDATION_FAILED', undefined, {
        [field]: [`Not readable as CSV: ${error.message}`],
      });
    throw error;
  }
}
