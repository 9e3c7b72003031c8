import { createStaff, type CreateStaffBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { refreshAfterStaffChange } from './list-staff';

/** The form puts a taken e-mail beside its field, so it reports failures itself. */
export function addStaffMember(body: CreateStaffBody) {
  return adminCall(createStaff, { body }, { notify: false });
}

export function useAddStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addStaffMember,
    onSuccess: () => refreshAfterStaffChange(queryClient),
  });
}
