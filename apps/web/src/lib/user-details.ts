import { KYC_TEXTS, updateUserDetails, type User, type UserDetailsBody } from '@florin/contracts';
import { DEFAULT_COUNTRY_CODE } from '@florin/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './api-client';
import { currentUserQuery } from './current-user';

/**
 * The user's details as `PUT /api/v1/users` takes them, as text for a form: the wizard's address step
 * starts from them (the UK for a country not yet given), the Account page's change of address sends the
 * ones it does not show as they are.
 */
export function userDetailsOf(user: User): Record<keyof UserDetailsBody, string> {
  const country = user.country ?? DEFAULT_COUNTRY_CODE;
  return {
    country,
    address: user.address ?? '',
    city: user.city ?? '',
    zip: user.zip ?? '',
    phone: user.phone ?? '',
    birthdate: user.birthdate ?? '',
    nationality: user.nationality ?? '',
    tax_residence: user.tax_residence ?? country,
    tax_id: user.tax_id ?? '',
  };
}

/** Spec 000 section 5: the address step's server errors are listed under "Information Missing". */
export function saveUserDetails(body: UserDetailsBody) {
  return apiCall(updateUserDetails, { body }, { errorTitle: KYC_TEXTS.informationMissingTitle });
}

/** Saving sets is_kyc_submitted: the user is fetched again. */
export function useSaveUserDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUserDetails,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
