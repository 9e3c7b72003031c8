import { FIAT_TEXTS, FiatAmountSchema, type FiatCurrency, parseCustomerInput } from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';

/**
 * The fiat withdraw form's sums (spec 001 sections 5 and 9), in minor units
 * so no JS number ever holds money: the fee (5 below the fee-free amount,
 * else 0, from the server's configuration) and "You Will Get".
 */

export type WithdrawRules = {
  currency: FiatCurrency;
  minimum: string;
  fee: string;
  fee_free_from: string | null;
  available: string;
};

/** Only digits and one decimal point (spec 001 section 5); anything else typed is dropped. */
export function cleanAmountInput(text: string): string {
  const digits = text.replace(/[^\d.]/g, '');
  const point = digits.indexOf('.');
  return point < 0 ? digits : `${digits.slice(0, point + 1)}${digits.slice(point + 1).replace(/\./g, '')}`;
}

/** The amount in minor units, or undefined while it is not a valid amount. */
function unitsOf(amount: string, currency: FiatCurrency): bigint | undefined {
  if (!FiatAmountSchema.safeParse(amount).success) return undefined;
  try {
    return parseAmount(amount.trim(), currency);
  } catch {
    return undefined;
  }
}

export function feeFor(amount: string, rules: WithdrawRules): string {
  const units = unitsOf(amount, rules.currency);
  const feeFree = rules.fee_free_from === null ? undefined : parseAmount(rules.fee_free_from, rules.currency);
  if (units !== undefined && feeFree !== undefined && units >= feeFree)
    return formatAmount(0n, rules.currency);
  return rules.fee;
}

/** What reaches the bank account: the amount less the fee; undefined while that is nothing. */
export function receiveAmount(amount: string, rules: WithdrawRules): string | undefined {
  const units = unitsOf(amount, rules.currency);
  if (units === undefined) return undefined;
  const receive = units - parseAmount(feeFor(amount, rules), rules.currency);
  return receive > 0n ? formatAmount(receive, rules.currency) : undefined;
}

/** The first reason the server would refuse the amount, in its words; undefined when it would take it. */
export function checkWithdrawAmount(amount: string, rules: WithdrawRules): string | undefined {
  const parsed = parseCustomerInput(FiatAmountSchema, amount);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? FIAT_TEXTS.enterAmount;
  const units = parseAmount(amount.trim(), rules.currency);
  const minimum = parseAmount(rules.minimum, rules.currency);
  const fee = parseAmount(feeFor(amount, rules), rules.currency);
  if (units < minimum || units <= fee)
    return `Minimum ${rules.currency} withdrawal amount is ${formatAmount(minimum, rules.currency)}`;
  if (units > parseAmount(rules.available, rules.currency)) return FIAT_TEXTS.balanceTooLow;
  return undefined;
}
