import {
  TERM_DEPOSIT_TEXTS,
  termDepositDecimalsText,
  termDepositInterest,
  termDepositMaximumText,
  termDepositMinimumText,
  type CoinId,
} from '@florin/contracts';
import { compareDecimals, decimalPlaces, fromMinorUnits, toMinorUnits, trimZeros } from '@florin/domain';

/** Spec 002 section 5: digits and one decimal point; for xrp no decimal point at all. */
export function cleanAmountInput(text: string, coinId: string): string {
  const digits = text.replace(coinId === 'xrp' ? /[^\d]/g : /[^\d.]/g, '');
  const point = digits.indexOf('.');
  return point === -1 ? digits : `${digits.slice(0, point + 1)}${digits.slice(point + 1).replace(/\./g, '')}`;
}

function isDecimal(text: string): boolean {
  return /^\d+(\.\d+)?$/.test(text) || /^\d+\.$/.test(text) || /^\.\d+$/.test(text);
}

/** "5." and ".5" read as 5 and 0.5, as a person typed them. */
function normalise(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('.')) return `0${trimmed}`;
  if (trimmed.endsWith('.')) return trimmed.slice(0, -1);
  return trimmed;
}

function isPositive(text: string): boolean {
  return /[1-9]/.test(text);
}

/** What the chosen term and the coin allow: the server checks the same (term-deposits service, contracts). */
export type TransferLimits = { coinId: string; decimals: number; min: string; max: string | null };

/**
 * Spec 002 section 5: what Transfer says, all together under Failed!; empty when it may go on. With a term
 * chosen, its minimum and maximum and the coin's decimals are checked here too, so the confirmation only
 * opens for a deposit the server would take (but for a balance or a rate that changes meanwhile).
 */
export function transferErrors(amount: string, balance: string, limits?: TransferLimits): string[] {
  const text = amount.trim();
  if (text === '') return [TERM_DEPOSIT_TEXTS.inputAmount];
  if (!isDecimal(text) || !isPositive(text)) return [TERM_DEPOSIT_TEXTS.invalidAmount];
  const value = normalise(text);
  const errors: string[] = [];
  if (compareDecimals(value, balance) > 0) errors.push(TERM_DEPOSIT_TEXTS.amountExceeded);
  if (!limits) return errors;
  if ((decimalPlaces(value) ?? 0) > limits.decimals) errors.push(termDepositDecimalsText(limits.decimals));
  if (compareDecimals(value, limits.min) < 0)
    errors.push(termDepositMinimumText(trimZeros(limits.min), limits.coinId));
  if (limits.max !== null && compareDecimals(value, limits.max) > 0)
    errors.push(termDepositMaximumText(trimZeros(limits.max), limits.coinId));
  return errors;
}

export type DepositPreview = { earn: string; total: string };

/**
 * Spec 002 section 9: earn is rate % × amount and the deposit balance is
 * amount + earn, computed only when the amount does not exceed the balance.
 * Floored as the server pays it (termDepositInterest); the screen shows 5 decimals.
 */
export function previewDeposit(
  amount: string,
  balance: string,
  ratePercent: string,
  coin: { coinId: CoinId; scale: number },
): DepositPreview | null {
  if (transferErrors(amount, balance).length > 0) return null;
  const text = normalise(amount);
  if ((decimalPlaces(text) ?? 0) > coin.scale) return null;
  const units = toMinorUnits(text, coin.scale);
  const earn = termDepositInterest(units, ratePercent, coin.coinId);
  return { earn: fromMinorUnits(earn, coin.scale), total: fromMinorUnits(units + earn, coin.scale) };
}

/** The amount as the server takes it ("5." → "5"). */
export function amountForRequest(amount: string): string {
  return normalise(amount);
}
