import { describe, expect, it } from 'vitest';
import { isValidBic, isValidIban } from '@florin/contracts';
import { isPayerTheCustomer, referencesIn } from './matching.js';

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
