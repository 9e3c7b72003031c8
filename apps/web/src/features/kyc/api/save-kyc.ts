import { createKyc, KYC_TEXTS, updateKyc, type KycBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';

export type SaveKycInput = {
  body: KycBody;
  /** Answered before (is_wealth_submitted 1, or a reset by staff): the update call, as the spec has it. */
  isUpdate: boolean;
};

/** Spec 000 section 5: source-of-wealth errors other than an empty answer are listed under "Incorrect Input". */
export function saveKyc({ body, isUpdate }: SaveKycInput) {
  return apiCall(isUpdate ? updateKyc : createKyc, { body }, { errorTitle: KYC_TEXTS.incorrectInputTitle });
}

export function useSaveKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveKyc,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
