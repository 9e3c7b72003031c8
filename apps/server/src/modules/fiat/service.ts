import { createActivity } from './activity.js';
import { createBankAccounts } from './bank-accounts.js';
import { createDeposits } from './deposits.js';
import { createTransferReceiver } from './incoming-transfers.js';
import { createPayouts } from './payouts.js';
import { createSettings } from './settings.js';
import type { FiatServiceDeps } from './shared.js';
import { createStatementImport } from './statement-import.js';
import { createWithdrawalCodes } from './withdrawal-codes.js';
import { createWithdrawals } from './withdrawals.js';

export { toBankAccount } from './bank-accounts.js';
export { fiatDomainCheck } from './domain-check.js';
export type { IncomingTransfer } from './incoming-transfers.js';
export { BANK_CHANGE_WAIT_HOURS, checkMayPayOut, type FiatServiceDeps } from './shared.js';
export { MAX_STATEMENT_LINES, type StatementInput } from './statement-import.js';
export { FIAT_WITHDRAW_PURPOSE } from './withdrawals.js';

export type FiatService = ReturnType<typeof createFiatService>;

/**
 * Fiat money in and out. Deposits arrive from the bank (recorded or imported
 * by finance) and are credited through the ledger once per bank transaction
 * id; withdrawals hold the money until finance pays or rejects them. Every
 * staff action is audited in the transaction that makes it; customers are
 * mailed and their screens told after the commit.
 */
export function createFiatService(deps: FiatServiceDeps) {
  const transfers = createTransferReceiver(deps);
  return {
    ...createBankAccounts(deps),
    ...createDeposits(deps, transfers),
    ...createStatementImport(deps, transfers),
    ...createWithdrawalCodes(deps),
    ...createWithdrawals(deps),
    ...createActivity(deps),
    ...createSettings(deps),
    ...createPayouts(deps),
  };
}
