import { uploadDocument, type DocumentKey } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../lib/current-user';
import { sendMultipart, type UploadProgressHandler } from '../../../lib/multipart';

export type DocumentUpload = {
  userId: number;
  key: DocumentKey;
  file: File;
  onProgress?: UploadProgressHandler;
};

/** A company document, or the re-upload of a declined one: `parameters` carries the key as JSON text. */
export function sendDocument({ userId, key, file, onProgress }: DocumentUpload) {
  const form = new FormData();
  form.append('parameters', JSON.stringify({ user_id: userId, key }));
  form.append('file', file);
  return sendMultipart(uploadDocument, form, { onProgress, notify: false });
}

/** The user's documents (and denied_documents) change: it is fetched again. */
export function useSendDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
