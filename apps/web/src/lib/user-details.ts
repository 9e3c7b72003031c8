import { KYC_TEXTS, updateUserDetails, type UserDetailsBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './api-client';
import { currentUserQuery } from './current-user';

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
