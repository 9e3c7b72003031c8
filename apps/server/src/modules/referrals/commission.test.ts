import { describe, expect, it } from 'vitest';
import { commissionOn, feeInPence, isEligibleUnder } from './service.js';

describe('the incentives policy', () => {
  const ukIndividual = { account_type: 'Individual', country: 'GB' } as const;
  const ukCompany = { account_type: 'Corporate', country: 'GB' } as const;
  const frenchIndividual = { account_type: 'Individual', country: 'FR' } as const;
  const unknownResidence = { account_type: 'Individual', country: null } as const;

  it('by default admits Corporate customers and residents outside the UK, and nobody of unknown residence', () => {
    const admitted = (customer: Parameters<typeof isEligibleUnder>[1]) =>
      isEligibleUnder('corporate_or_outside_uk', customer);
    expect(admitted(ukIndividual)).toBe(false);
    expect(admitted(ukCompany)).toBe(true);
    expect(admitted(frenchIndividual)).toBe(true);
    expect(admitted(unknownResidence)).toBe(false);
  });

  it('admits everyone or nobody when staff say so', () => {
    expect(isEligibleUnder('everyone', ukIndividual)).toBe(true);
    expect(isEligibleUnder('nobody', ukCompany)).toBe(false);
  });
});

describe('commission', () => {
  it('is the percent of the fee in pence, rounded down', () => {
    expect(commissionOn(278n, '20')).toBe(55n);
    expect(commissionOn(280n, '20')).toBe(56n);
    expect(commissionOn(4n, '20')).toBe(0n);
    expect(commissionOn(1000n, '12.5')).toBe(125n);
    expect(commissionOn(999n, '0')).toBe(0n);
  });

  it("takes a GBP fee as it is and converts another fiat's at the trade's gbp_value ÷ notional, rounded down", () => {
    expect(feeInPence({ fiat: 'GBP', fee: '278', notional: '20000', gbp_value: '20000' })).toBe(278n);
    // €200.00 worth £170.00: a €2.78 fee is £2.363 → 236p.
    expect(feeInPence({ fiat: 'EUR', fee: '278', notional: '20000', gbp_value: '17000' })).toBe(236n);
    expect(feeInPence({ fiat: 'USD', fee: '278', notional: '0', gbp_value: '0' })).toBe(0n);
  });
});
