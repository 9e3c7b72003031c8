import { describe, expect, it } from 'vitest';
import { isValidBic, isValidIban, readPayerAccount } from '@florin/contracts';
import { isFromRegisteredAccount, isPayerTheCustomer, referencesIn } from './matching.js';

const grace = {
  first_name: 'Grace',
  last_name: 'Hopper',
  account_type: 'Individual' as const,
  company_name: null,
};

describe('matching a transfer to its customer', () => {
  it('finds the reference inside what the bank prints', () => {
    expect(referencesIn('Deposit flabcd2345 thanks')).toContain('FLABCD2345');
    expect(referencesIn('FL-ABCD-2345')).toContain('FLABCD2345');
    expect(referencesIn('')).toEqual([]);
  });

  it('takes the payer as the customer by full name or initial, in any order, without titles or accents', () => {
    expect(isPayerTheCustomer('GRACE HOPPER', grace)).toBe(true);
    expect(isPayerTheCustomer('MS G HOPPER', grace)).toBe(true);
    expect(isPayerTheCustomer('Hopper, Grace B.', grace)).toBe(true);
    expect(isPayerTheCustomer('Grâce Höpper', grace)).toBe(true);
    expect(isPayerTheCustomer('A HOPPER', grace)).toBe(false);
    expect(isPayerTheCustomer('GRACE SMITH', grace)).toBe(false);
    expect(isPayerTheCustomer('', grace)).toBe(false);
  });

  it('takes a company’s payments by the company name without its suffix', () => {
    const company = { ...grace, account_type: 'Corporate' as const, company_name: 'Acme Widgets Ltd' };
    expect(isPayerTheCustomer('ACME WIDGETS LIMITED', company)).toBe(true);
    expect(isPayerTheCustomer('ACME LTD', company)).toBe(false);
  });
});

describe('bank number formats', () => {
  it('checks IBANs by mod 97 and BICs by shape', () => {
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('XX')).toBe(false);
    expect(isValidBic('DEUTDEFF')).toBe(true);
    expect(isValidBic('DEUTDEFF500')).toBe(true);
    expect(isValidBic('DEUT')).toBe(false);
  });
});

describe('the account a transfer came from (decision 132)', () => {
  const gbp = { currency: 'GBP', sort_code: '601613', account_number: '31926819', iban: null };
  const eur = { currency: 'EUR', sort_code: null, account_number: null, iban: 'DE89370400440532013000' };
  const read = (fields: Parameters<typeof readPayerAccount>[0]) => {
    const reading = readPayerAccount(fields);
    if (!reading.ok || !reading.account) throw new Error(`not an account: ${JSON.stringify(reading)}`);
    return reading.account;
  };

  it('normalises the numbers and reads a UK IBAN as its sort code and account number', () => {
    expect(read({ sort_code: '60-16-13', account_number: '3192 6819' })).toEqual({
      sortCode: '601613',
      accountNumber: '31926819',
      iban: null,
      bic: null,
    });
    expect(read({ iban: 'gb29 nwbk 6016 1331 9268 19' })).toMatchObject({
      sortCode: '601613',
      accountNumber: '31926819',
      iban: 'GB29NWBK60161331926819',
    });
    expect(readPayerAccount({})).toEqual({ ok: true, account: null });
    expect(readPayerAccount({ sort_code: '60161', account_number: '31926819' })).toMatchObject({
      ok: false,
      field: 'sort_code',
    });
    expect(readPayerAccount({ iban: 'GB29NWBK60161331926818' })).toMatchObject({ ok: false, field: 'iban' });
  });

  it('matches GBP by sort code and account number, EUR and USD by IBAN', () => {
    expect(isFromRegisteredAccount(read({ sort_code: '601613', account_number: '31926819' }), gbp)).toBe(
      true,
    );
    expect(isFromRegisteredAccount(read({ iban: 'GB29NWBK60161331926819' }), gbp)).toBe(true);
    expect(isFromRegisteredAccount(read({ sort_code: '601613', account_number: '31926818' }), gbp)).toBe(
      false,
    );
    expect(isFromRegisteredAccount(read({ iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFF' }), eur)).toBe(
      true,
    );
    expect(isFromRegisteredAccount(read({ sort_code: '601613', account_number: '31926819' }), eur)).toBe(
      false,
    );
  });
});
