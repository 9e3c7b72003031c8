/**
 * How an incoming transfer finds its customer: the reference must carry the
 * customer's user_identification, and the payer must be the customer (or
 * their company). docs/decisions/044-fiat-money-server.md.
 */

/** Candidate user_identifications in a payment reference: each run of letters and digits, upper case. */
export function referencesIn(reference: string): string[] {
  const upper = reference.toUpperCase();
  const words = upper.match(/[A-Z0-9]+/g) ?? [];
  // Banks sometimes split or join the reference: also try it with every separator removed.
  const joined = upper.replace(/[^A-Z0-9]/g, '');
  return [...new Set([...words, joined].filter((word) => word.length >= 6 && word.length <= 20))];
}

const IGNORED_WORDS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'mx']);
const COMPANY_SUFFIXES = new Set([
  'ltd',
  'limited',
  'plc',
  'llp',
  'llc',
  'inc',
  'gmbh',
  'sa',
  'bv',
  'co',
  'the',
]);

/** Lower-case words without accents, punctuation or titles. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !IGNORED_WORDS.has(word));
}

/**
 * The payer is the customer when every word of their last name appears and
 * their first name appears whole or as its initial (banks print "J SMITH"),
 * in any order; for a company, when every word of its name (without Ltd,
 * PLC, …) appears.
 */
export function isPayerTheCustomer(
  payerName: string,
  customer: {
    first_name: string;
    last_name: string;
    account_type: 'Individual' | 'Corporate' | null;
    company_name: string | null;
  },
): boolean {
  const payer = new Set(nameWords(payerName));
  if (payer.size === 0) return false;
  if (customer.account_type === 'Corporate' && customer.company_name) {
    const company = nameWords(customer.company_name).filter((word) => !COMPANY_SUFFIXES.has(word));
    if (company.length > 0 && company.every((word) => payer.has(word))) return true;
  }
  const last = nameWords(customer.last_name);
  const first = nameWords(customer.first_name);
  if (last.length === 0 || !last.every((word) => payer.has(word))) return false;
  const firstWord = first[0];
  if (!firstWord) return true;
  return payer.has(firstWord) || payer.has(firstWord.charAt(0));
}

/**
 * Whether the money came from the customer's registered account (decision 132): a GBP account is its
 * sort code and account number, an EUR or USD account its IBAN (a BIC may be written 8 or 11 long).
 */
export function isFromRegisteredAccount(
  payer: { sortCode: string | null; accountNumber: string | null; iban: string | null },
  registered: {
    currency: string;
    sort_code: string | null;
    account_number: string | null;
    iban: string | null;
  },
): boolean {
  if (registered.currency === 'GBP')
    return (
      payer.sortCode !== null &&
      payer.sortCode === registered.sort_code &&
      payer.accountNumber === registered.account_number
    );
  return payer.iban !== null && payer.iban === registered.iban;
}
