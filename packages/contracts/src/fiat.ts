import { z } from 'zod';
import { FIAT_CODES } from '@florin/domain';

/**
 * Fiat money in and out (issue 7; spec 001 sections 2–9): the customer's bank
 * account per currency, the house's deposit details, fiat withdrawals with
 * their 2FA code, and the back office's incoming transfers, suspense list and
 * payout queue. Texts in quotes in the spec are kept word for word.
 *
 * This file holds what they share (the texts, the currencies, the 2FA purposes); the
 * endpoints live by area in fiat-bank-accounts.ts, fiat-withdrawals.ts and admin-fiat.ts.
 */

export const FIAT_TEXTS = {
  // spec 001 §4, §5, §8
  accountNotLive: 'Your account is not live!',
  balanceTooLow: 'Your remaining balance is not enough to perform this transaction.',
  passcodeRequired: 'Please provide 2FA Code.',
  enterAmount: 'Please Enter Amount.',
  bankAccountNotSet: 'Valid bank account to withdraw has not been set',
  transactionSuccessful: 'Transaction Successful',
  codeSent: '2fa passcode sent please check email!',
  bankAccountAdded: 'Bank Account Added.',
  bankAccountUpdated: 'Bank Account Updated.',
  registerBankTitle: 'Register Bank Details!',
  registerBankText: 'You need to register your bank account first to withdraw',
  noBankAccount: 'You need to register your Bank Account',
  // ours (docs/decisions/044-fiat-money-server.md)
  amountFormat: 'Enter an amount such as 10 or 10.50.',
  amountDecimals: 'Enter at most 2 decimal places.',
  amountPositive: 'Enter an amount greater than zero.',
  wrongPasscode: 'Wrong Passcode.',
  codeExpired: 'Verification Code Expired',
  emailCodesOff: 'E-mailed codes are not switched on for your account: use your authenticator app.',
  bankAccountUnverified:
    'Your bank account is not verified yet. It is verified once a deposit from it in your name has arrived, or by our team.',
  bankDetailsChanged:
    'Your bank details changed recently: for your safety, withdrawals are possible again from',
  bankDetailsMismatch: 'The bank details sent do not match your registered bank account.',
  bankAccountExists: 'You already have a bank account in this currency: update it instead.',
  currencyMismatch: 'The currency of a bank account cannot be changed.',
  twoFactorResetWait:
    'Your two-factor authentication was reset recently: withdrawals are possible again from',
  sourceOfWealthPending: 'Please answer the source-of-wealth questions before withdrawing.',
  nameRequired: 'The Bank Name field is required.',
  nameTooLong: 'The name may be at most 100 characters.',
  sortCodeInvalid: 'The sort code must be 6 digits, e.g. 12-34-56.',
  accountNumberInvalid: 'The account number must be 8 digits.',
  ibanRequired: 'The IBAN field is required.',
  ibanInvalid: 'This IBAN is not valid: please check it.',
  ibanMismatch: 'The two IBAN fields do not match.',
  bicInvalid: 'Enter the BIC: 8 or 11 letters and digits, e.g. DEUTDEFF.',
  withdrawalCancelled: 'Withdrawal cancelled. The money is back in your balance.',
  notPending: 'Only a pending withdrawal can be cancelled.',
  beingPaid: 'This withdrawal is already on its way to your bank and can no longer be cancelled.',
  // back office
  depositCredited: 'The transfer is credited to the customer.',
  depositSuspense: 'The transfer is in the suspense list.',
  depositDuplicate: 'This bank transaction was recorded before: nothing was credited again.',
  depositAssigned: 'The transfer is credited to the customer.',
  depositReturned: 'The transfer is marked as returned to the payer.',
  depositNotInSuspense: 'This transfer is not in the suspense list.',
  customerNotFound: 'No customer has this id.',
  customerNotLive: 'The customer is not live or is on hold: they cannot receive deposits.',
  withdrawalApproved: 'Withdrawal approved. Another staff member can now mark it paid.',
  withdrawalPaid: 'Withdrawal marked as paid.',
  payoutFileEmpty: 'No withdrawal is waiting for a payout file.',
  payoutFileMade: 'The payout file is downloaded. Pay it from the bank, then mark each withdrawal paid.',
  withdrawalRejected: 'Withdrawal rejected. The money is back in the customer’s balance.',
  approvalNotNeeded: 'This withdrawal does not need a second approval.',
  alreadyApproved: 'This withdrawal is already approved.',
  needsApproval: 'This withdrawal needs a second staff member’s approval before it is paid.',
  approverCannotPay: 'You approved this withdrawal: another staff member must mark it paid.',
  notOpen: 'This withdrawal is no longer waiting for payment.',
  customerOnHold: 'The customer’s account is on hold: this payout waits until compliance lifts the hold.',
  inPayoutFile:
    'This withdrawal is in a payout file sent to the bank. Reject it only once the bank has returned the payment.',
  bankAccountVerified: 'The bank account is verified.',
  alreadyVerified: 'This bank account is already verified.',
  settingsSaved: 'Deposit details saved.',
  csvEmpty: 'The file has no lines after its header.',
  csvMissingColumn: 'The file has no column named',
  csvTooManyLines: 'A statement may have at most 2,000 lines.',
  statementFileMissing: 'Choose the statement file.',
  camtNotXml: 'The file is not XML: choose the camt.053 statement your bank exported.',
  camtWrongDocument: 'The file is not a camt.053 bank statement.',
  camtDeclaresEntities: 'The file declares its own entities (a DOCTYPE), which a bank statement never does.',
  camtNoEntries: 'The statement has no entries.',
  camtTooManyEntries: 'A statement may have at most 2,000 entries.',
  payerAccountIncomplete: 'Give both the payer’s sort code and account number, or neither.',
  payerAccountInvalid: 'The payer’s sort code is 6 digits and their account number 8.',
  payerIbanInvalid: 'The payer’s IBAN is not valid: please check it.',
} as const;

export const FiatCurrencySchema = z.enum(FIAT_CODES);
export type FiatCurrency = z.infer<typeof FiatCurrencySchema>;

/** The spec's currency_code: null or absent means GBP. */
export const CurrencyCodeSchema = FiatCurrencySchema.nullish();

/**
 * What POST /api/v1/mobile/request-2fa may mail a code for (customers whose second factor is
 * e-mailed codes): the withdrawals, a referral earnings claim and setting up an auto trade.
 */
export const FIAT_2FA_PURPOSES = [
  'Crypto Withdraw(2fa)',
  'Fiat Withdraw(2fa)',
  'Referral Earning(2fa)',
  'Auto Trade(2fa)',
] as const;
export type Fiat2faPurpose = (typeof FIAT_2FA_PURPOSES)[number];
