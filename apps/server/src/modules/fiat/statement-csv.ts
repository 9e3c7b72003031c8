import { AppError, FIAT_TEXTS } from '@florin/contracts';
import { parseCsv } from '../../http/csv.js';
import { MAX_STATEMENT_LINES, type StatementLine } from './statement-lines.js';

export type StatementMapping = {
  date: string;
  amount: string;
  reference: string;
  payer: string;
  transaction_id: string;
  sort_code?: string;
  account_number?: string;
  iban?: string;
};

const DEFAULT_MAPPING: StatementMapping = {
  date: 'date',
  amount: 'amount',
  reference: 'reference',
  payer: 'payer',
  transaction_id: 'transaction_id',
};

/** The payer's account columns: used by these names when the mapping does not name them. */
const ACCOUNT_COLUMNS = ['sort_code', 'account_number', 'iban'] as const;

/**
 * A CSV statement's lines, read by a column mapping (header names). The payer's account columns are
 * optional: a named one must exist, an unnamed one is read when the header has it under its own name.
 */
export function readCsvStatement(csv: string, mapping: StatementMapping = DEFAULT_MAPPING): StatementLine[] {
  const rows = parseCsv(csv);
  const header = (rows[0] ?? []).map((name) => name.trim().toLowerCase());
  const columnOf = (name: string | undefined) => (name ? header.indexOf(name.trim().toLowerCase()) : -1);
  const required = {
    amount: columnOf(mapping.amount),
    reference: columnOf(mapping.reference),
    payer: columnOf(mapping.payer),
    transaction_id: columnOf(mapping.transaction_id),
  };
  const missing: string[] = (Object.keys(required) as (keyof typeof required)[]).filter(
    (key) => required[key] < 0,
  );
  missing.push(...ACCOUNT_COLUMNS.filter((key) => mapping[key] && columnOf(mapping[key]) < 0));
  if (missing.length > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      undefined,
      Object.fromEntries(
        missing.map((key) => [
          `mapping.${key}`,
          [`${FIAT_TEXTS.csvMissingColumn} "${mapping[key as keyof StatementMapping] ?? key}".`],
        ]),
      ),
    );
  const columns = {
    ...required,
    date: columnOf(mapping.date),
    sort_code: columnOf(mapping.sort_code ?? 'sort_code'),
    account_number: columnOf(mapping.account_number ?? 'account_number'),
    iban: columnOf(mapping.iban ?? 'iban'),
  };
  const lines = rows.slice(1).map((cells, index) => ({ cells, line: index + 2 }));
  const filled = lines.filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  if (filled.length === 0) throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvEmpty] });
  if (filled.length > MAX_STATEMENT_LINES)
    throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvTooManyLines] });
  return filled.map(({ cells, line }) => {
    const cell = (index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
    return {
      line,
      transactionId: cell(columns.transaction_id),
      amountText: cell(columns.amount),
      currency: null,
      payer: cell(columns.payer),
      reference: cell(columns.reference),
      date: cell(columns.date),
      payerAccount: {
        sort_code: cell(columns.sort_code),
        account_number: cell(columns.account_number),
        iban: cell(columns.iban),
      },
      notIncoming: null,
    };
  });
}
