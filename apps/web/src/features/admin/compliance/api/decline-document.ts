import { declineDocument } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from './get-case';

export type DeclineDocumentInput = { documentId: number; note: string };

/** The modal shows a refused note under its field, so failures are not toasted here. */
export function declineCustomerDocument({ documentId, note }: DeclineDocumentInput) {
  return adminCall(declineDocument, { params: { id: documentId }, body: { note } }, { notify: false });
}

export function useDeclineDocument(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineCustomerDocument,
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}
