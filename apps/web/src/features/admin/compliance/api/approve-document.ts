import { approveDocument } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from './get-case';

export function approveCustomerDocument(documentId: number) {
  return adminCall(approveDocument, { params: { id: documentId } }, { errorTitle: 'Not approved' });
}

export function useApproveDocument(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveCustomerDocument,
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}
