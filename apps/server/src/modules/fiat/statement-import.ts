import { AppError, FIAT_TEXTS, type FiatCurrency } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { parseCsv } from '../../http/csv.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { TransferReceiver } from './incoming-transfers.js';
import type { FiatServiceDeps } from './shared.js';

/** Lines one statement import takes. */
export const MAX_STATEMENT_LINES = 2_000;

export type StatementInput = {
  currency: FiatCurrency;
  csv: string;
  mapping?: { date: string; amount: string; reference: string; payer: string; transaction_id: string };
};

/**
 * A bank statement (CSV) imported by finance: each incoming line is received as a transfer
 * (incoming-transfers.ts), so a line seen in an earlier import is credited nothing again.
 */
export function createStatementImport(
  deps: Pick<FiatServiceDeps, 'db'>,
  transfers: Pick<TransferReceiver, 'receiveTransfer'>,
) {
  const { db } = deps;
  const { receiveTransfer } = transfers;

  return {
    async importStatement(actor: AuditActor, input: StatementInput) {
      const mapping = input.mapping ?? {
        date: 'date',
        amount: 'amount',
        reference: 'reference',
        payer: 'payer',
        transaction_id: 'transaction_id',
      };
      const rows = parseCsv(input.csv);
      const header = (rows[0] ?? []).map((name) => name.trim().toLowerCase());
      const columnOf = (name: string) => header.indexOf(name.trim().toLowerCase());
      const columns = {
        date: columnOf(mapping.date),
        amount: columnOf(mapping.amount),
        reference: columnOf(mapping.reference),
        payer: columnOf(mapping.payer),
        transaction_id: columnOf(mapping.transaction_id),
      };
      const missing = (Object.keys(columns) as (keyof typeof columns)[]).filter(
        (key) => columns[key] < 0 && key !== 'date',
      );
      if (missing.length > 0)
        throw new AppError(
          'VALIDATION_FAILED',
          undefined,
          Object.fromEntries(
            missing.map((key) => [`mapping.${key}`, [`${FIAT_TEXTS.csvMissingColumn} "${mapping[key]}".`]]),
          ),
        );
      const lines = rows.slice(1).map((cells, index) => ({ cells, line: index + 2 }));
      const filled = lines.filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
      if (filled.length === 0)
        throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvEmpty] });
      if (filled.length > MAX_STATEMENT_LINES)
        throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvTooManyLines] });

      type LineResult = {
        line: number;
        bank_transaction_id: string | null;
        outcome: 'credited' | 'suspense' | 'duplicate' | 'skipped' | 'invalid';
        message: string | null;
        deposit_id: string | null;
      };
      const results: LineResult[] = [];
      for (const { cells, line } of filled) {
        const cell = (index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
        const transactionId = cell(columns.transaction_id);
        const amountText = cell(columns.amount).replace(/[£€$,\s]/g, '');
        const base = { line, bank_transaction_id: transactionId || null, deposit_id: null };
        if (!transactionId) {
          results.push({ ...base, outcome: 'invalid', message: 'The line has no transaction id.' });
          continue;
        }
        if (/^-/.test(amountText) || /^0*(\.0*)?$/.test(amountText)) {
          results.push({ ...base, outcome: 'skipped', message: 'Not an incoming transfer.' });
          continue;
        }
        let amount: bigint;
        try {
          amount = parseAmount(amountText.replace(/^\+/, ''), input.currency);
        } catch {
          results.push({
            ...base,
            outcome: 'invalid',
            message: `The amount "${cell(columns.amount)}" is not valid.`,
          });
          continue;
        }
        const { outcome, depositId } = await receiveTransfer(actor, {
          currency: input.currency,
          amount,
          payerName: cell(columns.payer).slice(0, 200),
          reference: cell(columns.reference).slice(0, 200),
          bankTransactionId: transactionId.slice(0, 100),
          valueDate: cell(columns.date).slice(0, 40) || null,
          source: 'import',
        });
        results.push({
          ...base,
          outcome,
          deposit_id: depositId || null,
          message: outcome === 'duplicate' ? FIAT_TEXTS.depositDuplicate : null,
        });
      }
      const count = (outcome: LineResult['outcome']) =>
        results.filter((result) => result.outcome === outcome).length;
      const summary = {
        credited: count('credited'),
        suspense: count('suspense'),
        duplicates: count('duplicate'),
        skipped: count('skipped'),
        invalid: count('invalid'),
      };
      await recordAudit(db, {
        ...actor,
        action: 'fiat.statement_imported',
        targetType: 'fiat_statement',
        targetId: null,
        after: { currency: input.currency, lines: filled.length, ...summary },
      });
      return {
        data: { ...summary, lines: results },
        message: `${summary.credited} credited, ${summary.suspense} to suspense, ${summary.duplicates} seen before.`,
      };
    },
  };
}
