export {
  HOUSE_KINDS,
  USER_KINDS,
  type AccountRef,
  type Balance,
  type Executor,
  type HouseAccountRef,
  type HouseKind,
  type UserAccountRef,
  type UserKind,
} from './accounts.js';
export {
  checkLedger,
  describeViolations,
  type CheckResult,
  type DomainCheck,
  type Violation,
} from './check.js';
export {
  HOLD_REASONS,
  ORDER_HOLD_REASONS,
  WITHDRAWAL_HOLD_REASONS,
  type HoldReason,
} from './hold-reasons.js';
export { JOURNAL_KINDS, type JournalKind } from './journal-kinds.js';
export { assertSameRequest, hashRequest } from './journals.js';
export {
  createLedger,
  LedgerProgrammingError,
  rollUpHouseBalances,
  type HoldInput,
  type HoldResult,
  type JournalInput,
  type JournalResult,
  type Ledger,
  type Posting,
  type PostHoldInput,
  type ReleaseResult,
} from './ledger.js';
