import { uploadIdProof, type IdProofFields } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../lib/current-user';
import { sendMultipart, type UploadProgressHandler } from '../../../lib/multipart';

export type IdProofUpload = {
  docType: IdProofFields['doc_type'];
  /** One file; a driver licence exactly two, front then back. */
  files: readonly File[];
  onProgress?: UploadProgressHandler;
};

/** The screen shows failures (the compliance-mailbox dialog), so nothing is toasted here. */
export function sendIdProof({ docType, files, onProgress }: IdProofUpload) {
  const form = new FormData();
  form.append('doc_type', docType);
  if (files.length === 1 && files[0]) form.append('file', files[0]);
  else for (const file of files) form.append('file[]', file);
  return sendMultipart(uploadIdProof, form, { onProgress, notify: false });
}

/** An upload sets a done flag on the user (is_photo_id_submitted and friends): it is fetched again. */
export function useSendIdProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendIdProof,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
