import { FIAT_TEXTS, readPayerAccount, type FiatCurrency } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { TransferReceiver } from './incoming-transfers.js';
import type { FiatServiceDeps } from './shared.js';
import { readCamt053Statement } from './statement-camt053.js';
import { readCsvStatement, type StatementMapping } from './statement-csv.js';
import type { StatementLine } from './statement-lines.js';

export { MAX_STATEMENT_LINES } from './statement-lines.js';

export type StatementInput = {
  currency: FiatCurrency;
  format?: 'csv' | 'camt053';
  csv?: string;
  xml?: string;
  mapping?: StatementMapping;
};

type LineResult = {
  line: number;
  bank_transaction_id: string | null;
  outcome: 'credited' | 'suspense' | 'duplicate' | 'skipped' | 'invalid';
  message: string | null;
  deposit_id: string | null;
};

/**
 * A bank statement imported by finance, a CSV file (statement-csv.ts) or an ISO 20022 camt.053 file
 * (statement-camt053.ts): each incoming line is received as a transfer (incoming-transfers.ts), so a line
 * seen in an earlier import is credited nothing again.
 */
export function createStatementImport(
  deps: Pick<FiatServiceDeps, 'db'>,
  transfers: Pick<TransferReceiver, 'receiveTransfer'>,
) {
  const { db } = deps;
  const { receiveTransfer } = transfers;

  /** Checks one line and receives it when it is an incoming transfer. */
  async function importLine(
    actor: AuditActor,
    currency: FiatCurrency,
    line: StatementLine,
  ): Promise<LineResult> {
    const base = { line: line.line, bank_transaction_id: line.transactionId || null, deposit_id: null };
    if (line.notIncoming) return { ...base, outcome: 'skipped', message: line.notIncoming };
    if (!line.transactionId)
      return { ...base, outcome: 'invalid', message: 'The line has no transaction id.' };
    const amountText = line.amountText.replace(/[£€$,\s]/g, '');
    if (/^-/.test(amountText) || /^0*(\.0*)?$/.test(amountText))
      return { ...base, outcome: 'skipped', message: 'Not an incoming transfer.' };
    if (line.currency !== null && line.currency !== currency)
      return { ...base, outcome: 'invalid', message: `The line is in ${line.currency}, not ${currency}.` };
    let amount: bigint;
    try {
      amount = parseAmount(amountText.replace(/^\+/, ''), currency);
    } catch {
      return { ...base, outcome: 'invalid', message: `The amount "${line.amountText}" is not valid.` };
    }
    const payer = readPayerAccount(line.payerAccount);
    if (!payer.ok) return { ...base, outcome: 'invalid', message: payer.message };
    const { outcome, depositId } = await receiveTransfer(actor, {
      currency,
      amount,
      payerName: line.payer.slice(0, 200),
      payerAccount: payer.account,
      reference: line.reference.slice(0, 200),
      bankTransactionId: line.transactionId.slice(0, 100),
      valueDate: line.date.slice(0, 40) || null,
      source: 'import',
    });
    return {
      ...base,
      outcome,
      deposit_id: depositId || null,
      message: outcome === 'duplicate' ? FIAT_TEXTS.depositDuplicate : null,
    };
  }

  return {
    async importStatement(actor: AuditActor, input: StatementInput) {
      const format = input.format ?? 'csv';
      const lines =
        format === 'camt053'
          ? readCamt053Statement(input.xml ?? '')
          : readCsvStatement(input.csv ?? '', input.mapping);
      const results: LineResult[] = [];
      // One after another: each line commits on its own, and a statement's repeats meet their first.
      for (const line of lines) results.push(await importLine(actor, input.currency, line));
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
        after: { currency: input.currency, format, lines: lines.length, ...summary },
      });
      return {
        data: { ...summary, lines: results },
        message: `${summary.credited} credited, ${summary.suspense} to suspense, ${summary.duplicates} seen before.`,
      };
    },
  };
}
