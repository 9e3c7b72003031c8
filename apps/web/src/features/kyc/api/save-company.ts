import { KYC_TEXTS, saveCompany, type CompanyBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';

/**
 * 422: the field texts under "Information Missing" (spec 000 section 5). A company number
 * another customer holds is a 400 whose own text is the spec's "Company number already exists.".
 */
export function storeCompany(body: CompanyBody) {
  return apiCall(saveCompany, { body }, { errorTitle: KYC_TEXTS.informationMissingTitle });
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storeCompany,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
