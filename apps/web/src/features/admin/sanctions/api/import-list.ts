import { importSanctionsList } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendMultipart, type UploadProgressHandler } from '../../../../lib/multipart';
import { AUDIT_LOG_QUERY_KEY } from '../../api/list-audit-log';
import { SANCTIONS_LIST_QUERY_KEY } from './get-list';
import { SANCTIONS_HITS_QUERY_KEY } from './list-hits';

export type ListUpload = { file: File; onProgress?: UploadProgressHandler };

/** The screen shows a refused file's reasons itself, so failures are not toasted here. */
export function sendSanctionsList({ file, onProgress }: ListUpload) {
  const form = new FormData();
  form.append('file', file);
  return sendMultipart(importSanctionsList, form, { onProgress, notify: false });
}

/**
 * A new list replaces the active one and screens every customer: the list,
 * the hits, every customer's page (some may now be on hold) and the audit log change.
 */
export function useImportSanctionsList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSanctionsList,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SANCTIONS_LIST_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SANCTIONS_HITS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'customers'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'compliance'] }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
      ]),
  });
}
