import {
  assetOfCoinId,
  CRYPTO_WITHDRAW_TEXTS,
  CryptoWithdrawRequestSchema,
  cryptoMinimumText,
  type CoinId,
  type CryptoWithdrawRequest,
  parseCustomerInput,
} from '@florin/contracts';
import { decimalPlaces, formatAmount, parseAmount, trimZeros } from '@florin/domain';
import { COIN_DECIMALS, formatDecimal } from '../../lib/format';

/**
 * The crypto withdraw form's sums and checks (spec 001 sections 5 and 9), in
 * the coin's smallest unit so no JS number ever holds money. The format,
 * address and Travel Rule checks are the contract's own schema, the one the
 * server applies; the minimum and the balance need the numbers the form got.
 */

export type CryptoWithdrawRules = {
  coin: CoinId;
  minimum: string;
  fee: string;
  available: string;
};

/** Only digits and one decimal point; for xrp no point at all (spec 001 section 5). */
export function cleanCryptoAmountInput(text: string, coin: CoinId): string {
  if (coin === 'xrp') return text.replace(/\D/g, '');
  const digits = text.replace(/[^\d.]/g, '');
  const point = digits.indexOf('.');
  return point < 0 ? digits : `${digits.slice(0, point + 1)}${digits.slice(point + 1).replace(/\./g, '')}`;
}

/** An XRP destination tag: digits only, at most 10. */
export function cleanTagInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, 10);
}

/** The contract's verdict on one amount typed: its first message, or undefined when the format is right. */
function amountIssue(amount: string, coin: CoinId): string | undefined {
  const parsed = parseCustomerInput(CryptoWithdrawRequestSchema, {
    coin,
    amount,
    wallet: 'address',
    beneficiary_type: 'self',
    destination_type: 'private_wallet',
  });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** The amount in the coin's smallest unit, or undefined while it is not an amount the form takes. */
function unitsOf(amount: string, coin: CoinId): bigint | undefined {
  if (amount.trim() === '' || amountIssue(amount, coin) !== undefined) return undefined;
  try {
    return parseAmount(amount.trim(), assetOfCoinId(coin));
  } catch {
    return undefined;
  }
}

/**
 * A coin amount as the withdraw screens show it ("0.49950 BTC"); a dash while there is none. `exact`:
 * every decimal it has, at least the screens' 5 ("0.12345678 BTC"), for the withdrawal being approved.
 */
export function formatCoinAmount(value: string | undefined, code: string, { exact = false } = {}): string {
  if (value === undefined) return '—';
  const places = exact ? Math.max(COIN_DECIMALS, decimalPlaces(trimZeros(value)) ?? 0) : COIN_DECIMALS;
  return `${formatDecimal(value, places) ?? value} ${code}`;
}

/** "You Will Get": the amount less the coin's fee; undefined while that is nothing. */
export function receiveAmount(amount: string, rules: CryptoWithdrawRules): string | undefined {
  const asset = assetOfCoinId(rules.coin);
  const units = unitsOf(amount, rules.coin);
  if (units === undefined) return undefined;
  const receive = units - parseAmount(rules.fee, asset);
  return receive > 0n ? formatAmount(receive, asset) : undefined;
}

/** The balance once this amount (fee included) has left it; the whole balance while no amount is typed. */
export function balanceAfter(amount: string, rules: CryptoWithdrawRules): string {
  const asset = assetOfCoinId(rules.coin);
  const units = unitsOf(amount, rules.coin) ?? 0n;
  return formatAmount(parseAmount(rules.available, asset) - units, asset);
}

export type CryptoWithdrawField =
  | 'form'
  | 'amount'
  | 'wallet'
  | 'xrp_tag'
  | 'beneficiary_type'
  | 'beneficiary_name'
  | 'destination_type'
  | 'exchange_name';
export type CryptoWithdrawErrors = Partial<Record<CryptoWithdrawField, string>>;

const FIELDS: readonly CryptoWithdrawField[] = [
  'amount',
  'wallet',
  'xrp_tag',
  'beneficiary_type',
  'beneficiary_name',
  'destination_type',
  'exchange_name',
];

function isField(value: unknown): value is CryptoWithdrawField {
  return typeof value === 'string' && (FIELDS as readonly string[]).includes(value);
}

/** The form as typed: the Travel Rule questions may still be unanswered. */
export type CryptoWithdrawDraft = Omit<CryptoWithdrawRequest, 'beneficiary_type' | 'destination_type'> & {
  beneficiary_type: CryptoWithdrawRequest['beneficiary_type'] | null;
  destination_type: CryptoWithdrawRequest['destination_type'] | null;
};

function collectIssues(errors: CryptoWithdrawErrors, value: unknown): void {
  const parsed = parseCustomerInput(CryptoWithdrawRequestSchema, value);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isField(field)) errors[field] ??= issue.message;
  }
}

/**
 * Every reason the server would refuse the request, one per field, in the
 * spec's words and order: not live; then for the amount the empty field, its
 * format, the coin's minimum and the balance; the address; the Travel Rule.
 */
export function checkCryptoWithdraw(
  draft: CryptoWithdrawDraft,
  rules: CryptoWithdrawRules,
  isLive: boolean,
): CryptoWithdrawErrors {
  if (!isLive) return { form: CRYPTO_WITHDRAW_TEXTS.accountNotLive };
  const errors: CryptoWithdrawErrors = {};
  const amount = draft.amount.trim();
  if (amount === '') errors.amount = CRYPTO_WITHDRAW_TEXTS.enterAmount;
  else errors.amount = amountIssue(amount, rules.coin);
  if (!errors.amount) {
    const asset = assetOfCoinId(rules.coin);
    const units = unitsOf(amount, rules.coin);
    if (units !== undefined) {
      if (units < parseAmount(rules.minimum, asset) || units <= parseAmount(rules.fee, asset))
        errors.amount = cryptoMinimumText(rules.coin, rules.minimum);
      else if (units > parseAmount(rules.available, asset))
        errors.amount = CRYPTO_WITHDRAW_TEXTS.balanceTooLow;
    }
  }
  // Zod runs the schema's cross-field checks only once every field has the right shape, so the
  // unanswered questions are reported by one pass and the address and names by a second.
  collectIssues(errors, draft);
  collectIssues(errors, {
    ...draft,
    amount: '1',
    beneficiary_type: draft.beneficiary_type ?? 'self',
    destination_type: draft.destination_type ?? 'private_wallet',
  });
  for (const field of FIELDS) if (errors[field] === undefined) delete errors[field];
  return errors;
}

export function hasErrors(errors: CryptoWithdrawErrors): boolean {
  return Object.values(errors).some((message) => message !== undefined);
}
