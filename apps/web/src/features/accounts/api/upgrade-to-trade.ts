import { UPGRADE_TEXTS, updateAccountType } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Spec 002 §7: the Trade choice with the trading account's platform, tier class and confirmation. */
export function upgradeToTrade() {
  return apiCall(
    updateAccountType,
    { body: { account_type: 'Trade', platform: 2, account_tiers_class: 4, ico_confirmed: 1 } },
    // Spec 002 §8: a 500 reads as the generic failure, anything else "Information Missing".
    { errorTitle: UPGRADE_TEXTS.errorTitle },
  );
}

/**
 * Nothing is fetched again on success: the customer is asked to log out, and
 * the next sign-in loads the trading account afresh.
 */
export function useUpgradeToTrade() {
  return useMutation({ mutationFn: upgradeToTrade });
}
