import { describe, expect, it } from 'vitest';
import {
  approvalsOf,
  payoutActionsFor,
  payoutFilterOf,
  walletHeldAtOf,
  walletOwnerOf,
} from './payout-details';

const noApprovals = {
  auto_approved: false,
  approved_by: null,
  second_approved_by: null,
  needs_second_approval: false,
};

describe('payoutActionsFor', () => {
  it('offers approve and reject while pending', () => {
    expect(payoutActionsFor({ status: 'pending', wallet: 'simulated', customer_on_hold: false })).toEqual([
      'approve',
      'reject',
    ]);
  });

  it('sends an approved hot-wallet withdrawal directly, and a cold-storage one after exporting its signing request', () => {
    expect(payoutActionsFor({ status: 'approved', wallet: 'simulated', customer_on_hold: false })).toEqual([
      'send',
      'reject',
    ]);
    expect(payoutActionsFor({ status: 'approved', wallet: 'cold_storage', customer_on_hold: false })).toEqual(
      ['export', 'send', 'reject'],
    );
  });

  it('only rejects while the customer’s account is on hold, or records a cold-storage txid signed before it', () => {
    for (const wallet of ['simulated', 'cold_storage'] as const) {
      expect(payoutActionsFor({ status: 'pending', wallet, customer_on_hold: true })).toEqual(['reject']);
    }
    expect(payoutActionsFor({ status: 'approved', wallet: 'simulated', customer_on_hold: true })).toEqual([
      'reject',
    ]);
    expect(payoutActionsFor({ status: 'approved', wallet: 'cold_storage', customer_on_hold: true })).toEqual([
      'send',
      'reject',
    ]);
    expect(payoutActionsFor({ status: 'sent', wallet: 'simulated', customer_on_hold: true })).toEqual([
      'confirm',
    ]);
  });

  it('only confirms a sent withdrawal (it cannot be rejected once the coins left)', () => {
    expect(payoutActionsFor({ status: 'sent', wallet: 'cold_storage', customer_on_hold: false })).toEqual([
      'confirm',
    ]);
  });

  it('offers nothing once a withdrawal has ended or is not yet the staff’s', () => {
    for (const status of [
      'confirmed',
      'rejected',
      'cancelled',
      'expired',
      'awaiting_code',
      'verified',
    ] as const)
      expect(payoutActionsFor({ status, wallet: 'simulated', customer_on_hold: false })).toEqual([]);
  });
});

describe('approvalsOf', () => {
  it('counts approvals against the one or two needed, naming who gave them', () => {
    expect(approvalsOf(noApprovals)).toBe('0 of 1');
    expect(approvalsOf({ ...noApprovals, needs_second_approval: true })).toBe('0 of 2');
    expect(approvalsOf({ ...noApprovals, needs_second_approval: true, approved_by: 'ann@florin.test' })).toBe(
      '1 of 2: ann@florin.test',
    );
    expect(
      approvalsOf({
        ...noApprovals,
        needs_second_approval: true,
        approved_by: 'ann@florin.test',
        second_approved_by: 'bob@florin.test',
      }),
    ).toBe('2 of 2: ann@florin.test, bob@florin.test');
  });

  it('says when the switch approved it without staff', () => {
    expect(approvalsOf({ ...noApprovals, auto_approved: true })).toBe('Approved automatically');
  });
});

describe('Travel Rule answers', () => {
  it('reads the owner with the name given, or the customer themself', () => {
    expect(walletOwnerOf({ beneficiary_type: 'self', beneficiary_name: null })).toBe(
      'Me: it is my own wallet',
    );
    expect(walletOwnerOf({ beneficiary_type: 'business', beneficiary_name: 'Acme Ltd' })).toBe(
      'A business: Acme Ltd',
    );
  });

  it('reads where the wallet is held, naming the exchange', () => {
    expect(walletHeldAtOf({ destination_type: 'private_wallet', exchange_name: null })).toBe(
      'A private wallet',
    );
    expect(walletHeldAtOf({ destination_type: 'exchange', exchange_name: 'Kraken' })).toBe(
      'An account at an exchange: Kraken',
    );
  });
});

describe('payoutFilterOf', () => {
  it('takes a known status from the address and falls back to the open list', () => {
    expect(payoutFilterOf('rejected')).toBe('rejected');
    expect(payoutFilterOf(null)).toBe('open');
    expect(payoutFilterOf('nonsense')).toBe('open');
  });
});
