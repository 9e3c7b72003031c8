import { formatUkDateTime } from '@florin/contracts';

/** Numbers read as in the UK, whatever the device's own settings. */
const LOCALE = 'en-GB';

/** Keeps the first and last characters and stars the rest; two characters or fewer stay as they are. */
function maskPart(part: string): string {
  const characters = [...part];
  if (characters.length <= 2) return part;
  return `${characters[0]}${'*'.repeat(characters.length - 2)}${characters.at(-1)}`;
}

/**
 * An e-mail address as the signed-in header shows it (spec 000 section 2):
 * the first and last characters of the local part and of the domain kept,
 * the rest stars. `jane.doe@example.com` → `j******e@e*********m`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskPart(email);
  return `${maskPart(email.slice(0, at))}@${maskPart(email.slice(at + 1))}`;
}

/**
 * `22 November 2026, 14:05 GMT`, in UK time (BST in summer): the one format of
 * the server's messages too (contracts' uk-time). Unreadable input gives undefined.
 */
export function formatDateTime(value: string | Date): string | undefined {
  return formatUkDateTime(value);
}

/** Up to two capital letters from the first and last names, for an avatar. */
export function initialsOf(firstName: string, lastName: string): string {
  const initial = (name: string) => [...name.trim()][0]?.toLocaleUpperCase(LOCALE) ?? '';
  return `${initial(firstName)}${initial(lastName)}` || '?';
}

/** Fiat amounts show 2 decimals, coins 5 (spec 000 and 001, section 9). */
export const FIAT_DECIMALS = 2;
export const COIN_DECIMALS = 5;

const decimalFormats = new Map<number, Intl.NumberFormat>();

/**
 * A decimal string from the server with `places` decimals and thousands
 * separators, never through a JS number (Intl formats the string exactly).
 * Cut, not rounded: a balance never reads as more than there is.
 * `formatDecimal('1234.567891', 5)` → `1,234.56789`. Unreadable input gives undefined.
 */
export function formatDecimal(value: string, places: number): string | undefined {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  let format = decimalFormats.get(places);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      minimumFractionDigits: places,
      maximumFractionDigits: places,
      roundingMode: 'trunc',
    });
    decimalFormats.set(places, format);
  }
  // A cut negative zero ("-0.000001") reads as zero.
  return format.format(value as `${number}`).replace(/^-(?=0(\.0+)?$)/, '');
}

const fiatFormats = new Map<string, Intl.NumberFormat>();

/**
 * `€1,234.50`: an amount of a fiat currency with its symbol, 2 decimals,
 * formatted from the string itself. Cut like formatDecimal, so nothing reads
 * as more than it is; `ceil` for a price the customer pays, so it never reads
 * as less.
 */
export function formatFiat(
  value: string,
  currency: string,
  rounding: 'trunc' | 'ceil' = 'trunc',
): string | undefined {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  const key = `${currency}:${rounding}`;
  let format = fiatFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      minimumFractionDigits: FIAT_DECIMALS,
      maximumFractionDigits: FIAT_DECIMALS,
      roundingMode: rounding,
    });
    fiatFormats.set(key, format);
  }
  // A cut negative zero reads as zero.
  return format.format(value as `${number}`).replace(/^-(?=\D0(\.0+)?$)/, '');
}

/** `£1,234.50`: a GBP value as every screen shows it. */
export function formatPounds(value: string): string | undefined {
  return formatFiat(value, 'GBP');
}
