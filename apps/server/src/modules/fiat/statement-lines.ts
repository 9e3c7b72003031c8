import type { PayerAccountFields } from '@florin/contracts';

/** Lines (or entries) one statement import takes. */
export const MAX_STATEMENT_LINES = 2_000;

/**
 * One transaction of a bank statement as read from its file, CSV or camt.053, before it is checked and
 * received (statement-import.ts): texts as the bank wrote them.
 */
export type StatementLine = {
  /** The line's number in a CSV file (the header is 1), or the entry's in a camt.053 file (from 1). */
  line: number;
  transactionId: string;
  /** The amount as written; a CSV's sign says money in or out (camt.053's credit/debit mark: `notIncoming`). */
  amountText: string;
  /** The currency the line states (camt.053's Ccy); null when the file does not say per line. */
  currency: string | null;
  payer: string;
  reference: string;
  date: string;
  payerAccount: PayerAccountFields;
  /** Why the line is not an incoming booked transfer (a debit, a pending entry): skipped with this. */
  notIncoming: string | null;
};
