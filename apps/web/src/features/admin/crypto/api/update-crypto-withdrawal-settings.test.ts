import { describe, expect, it } from 'vitest';
import { CryptoWithdrawalSettingsFormSchema } from './update-crypto-withdrawal-settings';

const form = (payout: Record<string, unknown>) => ({
  daily_limit: '1',
  auto_approve_whitelisted: false,
  payout: { auto_payout: false, max_per_withdrawal: '', daily_total: '', hot_wallet_ceiling: '', ...payout },
});

describe('the crypto withdrawal settings form', () => {
  it('sends empty payout limits as none', () => {
    const parsed = CryptoWithdrawalSettingsFormSchema.parse(form({ daily_total: '2' }));
    expect(parsed.payout).toEqual({
      auto_payout: false,
      max_per_withdrawal: null,
      daily_total: '2',
      hot_wallet_ceiling: null,
    });
  });

  it('turns automatic payouts on only with all three limits', () => {
    const refused = CryptoWithdrawalSettingsFormSchema.safeParse(
      form({ auto_payout: true, daily_total: '2' }),
    );
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['payout', 'auto_payout'],
        message: 'Set all three limits before turning automatic payouts on.',
      }),
    ]);
    const all = { auto_payout: true, max_per_withdrawal: '0.5', daily_total: '2', hot_wallet_ceiling: '10' };
    expect(CryptoWithdrawalSettingsFormSchema.safeParse(form(all)).success).toBe(true);
  });
});
