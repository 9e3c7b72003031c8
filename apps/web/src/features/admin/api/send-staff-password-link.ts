import { sendStaffPasswordLink } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { AUDIT_LOG_QUERY_KEY } from './list-audit-log';

export function sendPasswordLink(staffId: number) {
  return adminCall(sendStaffPasswordLink, { params: { staffId } }, { errorTitle: 'Link not sent' });
}

/** Nothing the staff list shows changes; the audit log gains a row. */
export function useSendStaffPasswordLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendPasswordLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
  });
}
