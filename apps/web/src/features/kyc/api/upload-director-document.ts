import { uploadDirectorDocument, type DirectorDocumentFieldsSchema } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { currentUserQuery } from '../../../lib/current-user';
import { sendMultipart, type UploadProgressHandler } from '../../../lib/multipart';

export type DirectorDocumentType = z.infer<typeof DirectorDocumentFieldsSchema>['type'];

export type DirectorDocumentUpload = {
  directorId: number;
  type: DirectorDocumentType;
  file: File;
  onProgress?: UploadProgressHandler;
};

/** Failures are shown by the modal ("File upload fail."). */
export function sendDirectorDocument({ directorId, type, file, onProgress }: DirectorDocumentUpload) {
  const form = new FormData();
  form.append('type', type);
  form.append('file', file);
  return sendMultipart(uploadDirectorDocument, form, {
    params: { id: directorId },
    onProgress,
    notify: false,
  });
}

/** The director's identity_done / proof_address_done live in the user's company: it is fetched again. */
export function useSendDirectorDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendDirectorDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
