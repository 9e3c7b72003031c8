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
