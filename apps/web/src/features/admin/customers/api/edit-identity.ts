import { editCustomerIdentity, type EditIdentityBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterCustomerChange } from './get-customer';

/** The modal puts refused fields under their inputs. */
export function editIdentityOf(userId: number, body: EditIdentityBody) {
  return adminCall(editCustomerIdentity, { params: { userId }, body }, { notify: false });
}

export function useEditCustomerIdentity(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditIdentityBody) => editIdentityOf(userId, body),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}
