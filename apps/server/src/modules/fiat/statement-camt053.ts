import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError, FIAT_TEXTS, type PayerAccountFields } from '@florin/contracts';
import { MAX_STATEMENT_LINES, type StatementLine } from './statement-lines.js';

/**
 * An ISO 20022 camt.053 statement (BkToCstmrStmt), as UK and EU banks export it: versions 001.02 to
 * 001.13 share the parts read here (001.08 moved the party's name under Pty, and the status under Cd).
 * docs/decisions/132-bank-accounts-proven-by-money.md.
 */

const CAMT053_NAMESPACE =
  /xmlns(?::[\w.-]+)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.\d{2}["']/;
/** Elements that may repeat: always read as lists, so one and many look the same. */
const REPEATING = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Every value stays the text the bank wrote: amounts are read as decimals, never as numbers.
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  isArray: (name) => REPEATING.has(name),
});

type XmlNode = Record<string, unknown>;

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The element at `path` under `node` (the first of a list), or undefined. */
function at(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    const here = Array.isArray(current) ? (current as unknown[])[0] : current;
    if (!isNode(here)) return undefined;
    current = here[name];
  }
  return Array.isArray(current) ? (current as unknown[])[0] : current;
}

/** Every element of a repeating `name` under `node`. */
function all(node: unknown, name: string): unknown[] {
  if (!isNode(node)) return [];
  const value = node[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** An element's text (an element with attributes keeps it under #text), trimmed; '' when absent. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'].trim();
  return '';
}

function attributeOf(value: unknown, name: string): string {
  const attribute = isNode(value) ? value[`@_${name}`] : undefined;
  return typeof attribute === 'string' ? attribute.trim() : '';
}

function firstText(...values: unknown[]): string {
  for (const value of values) {
    const text = textOf(value);
    if (text !== '' && text !== 'NOTPROVIDED') return text;
  }
  return '';
}

function refused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { xml: [message] });
}

/** The debtor's account: an IBAN, or a UK "other" id of 14 digits (sort code, then account number). */
function payerAccountOf(transaction: unknown): PayerAccountFields {
  const id = at(transaction, 'RltdPties', 'DbtrAcct', 'Id');
  const bic = firstText(
    at(transaction, 'RltdAgts', 'DbtrAgt', 'FinInstnId', 'BICFI'),
    at(transaction, 'RltdAgts', 'DbtrAgt', 'FinInstnId', 'BIC'),
  );
  const iban = textOf(at(id, 'IBAN'));
  if (iban) return { iban, bic };
  const other = textOf(at(id, 'Othr', 'Id')).replace(/[\s-]/g, '');
  if (!other) return {};
  return { sort_code: other.slice(0, 6), account_number: other.slice(6), bic };
}

/** Parses the file, refusing what is not a camt.053 statement with a sentence of our own. */
function statementsOf(xml: string): unknown[] {
  // A statement never declares a DTD; refusing one rules out entity expansion (XXE, billion laughs).
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw refused(FIAT_TEXTS.camtDeclaresEntities);
  if (XMLValidator.validate(xml) !== true) throw refused(FIAT_TEXTS.camtNotXml);
  let document: unknown;
  try {
    document = at(parser.parse(xml), 'Document');
  } catch {
    throw refused(FIAT_TEXTS.camtNotXml);
  }
  const statement = at(document, 'BkToCstmrStmt');
  if (!CAMT053_NAMESPACE.test(xml) || !isNode(statement)) throw refused(FIAT_TEXTS.camtWrongDocument);
  return all(statement, 'Stmt');
}

/**
 * A camt.053 statement's transactions: one line per transaction of each entry (a batch booking lists
 * several, each with its own amount), numbered by entry. Debits, reversals and entries not yet booked
 * are read too, to be skipped with the reason.
 */
export function readCamt053Statement(xml: string): StatementLine[] {
  const entries = statementsOf(xml).flatMap((statement) => all(statement, 'Ntry'));
  if (entries.length === 0) throw refused(FIAT_TEXTS.camtNoEntries);
  if (entries.length > MAX_STATEMENT_LINES) throw refused(FIAT_TEXTS.camtTooManyEntries);
  return entries.flatMap((entry, index) => {
    const status = firstText(at(entry, 'Sts', 'Cd'), at(entry, 'Sts'));
    const notIncoming =
      textOf(at(entry, 'CdtDbtInd')) !== 'CRDT' || textOf(at(entry, 'RvslInd')) === 'true'
        ? 'Not an incoming transfer.'
        : status !== 'BOOK'
          ? 'Not booked yet.'
          : null;
    const transactions = all(entry, 'NtryDtls').flatMap((details) => all(details, 'TxDtls'));
    const batch = transactions.length > 1;
    return (batch ? transactions : [transactions[0]]).map((transaction): StatementLine => {
      const amount = batch
        ? (at(transaction, 'AmtDtls', 'TxAmt', 'Amt') ?? at(transaction, 'Amt'))
        : at(entry, 'Amt');
      const remittance = at(transaction, 'RmtInf');
      return {
        line: index + 1,
        transactionId: firstText(
          at(transaction, 'Refs', 'AcctSvcrRef'),
          at(transaction, 'Refs', 'EndToEndId'),
          at(transaction, 'Refs', 'TxId'),
          batch ? undefined : at(entry, 'AcctSvcrRef'),
          batch ? undefined : at(entry, 'NtryRef'),
        ),
        amountText: textOf(amount),
        currency: attributeOf(amount, 'Ccy') || null,
        payer: firstText(
          at(transaction, 'RltdPties', 'Dbtr', 'Pty', 'Nm'),
          at(transaction, 'RltdPties', 'Dbtr', 'Nm'),
        ),
        reference:
          all(remittance, 'Ustrd').map(textOf).filter(Boolean).join(' ') ||
          firstText(at(remittance, 'Strd', 'CdtrRefInf', 'Ref'), at(entry, 'AddtlNtryInf')),
        date: firstText(at(entry, 'ValDt', 'Dt'), at(entry, 'BookgDt', 'Dt'), at(entry, 'BookgDt', 'DtTm')),
        payerAccount: payerAccountOf(transaction),
        notIncoming,
      };
    });
  });
}
