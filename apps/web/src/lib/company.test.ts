import { describe, expect, it } from 'vitest';
import { registrationText, type Company } from './company';

const company: Company = {
  name: 'Florin Ltd',
  number: '12345678',
  registered_address: '1 Poultry, London EC2R 8EJ',
  fca_reference: '987654',
  is_sample: false,
};

describe('registrationText', () => {
  it('names the company, its number, registered office and FCA reference as configured', () => {
    expect(registrationText(company)).toBe(
      'Florin Ltd is registered in England and Wales, company number 12345678. Registered office: 1 Poultry, London EC2R 8EJ. Registered with the Financial Conduct Authority as a cryptoasset business under the Money Laundering Regulations, firm reference number 987654.',
    );
  });

  it('names Scotland for an SC number', () => {
    expect(registrationText({ ...company, number: 'SC123456' })).toContain(
      'registered in Scotland, company number SC123456.',
    );
  });

  it('says when the details are a development install’s samples', () => {
    expect(registrationText({ ...company, is_sample: true })).toMatch(
      /These are sample details of a development install\.$/,
    );
  });
});
