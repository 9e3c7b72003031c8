import type { IdProofFields } from '@florin/contracts';
import { useState } from 'react';
import type { User } from '@florin/contracts';
import { useSendIdProof } from '../api/upload-id-proof';
import { FileDropzone } from '../components/file-dropzone';
import { UploadFailedModal } from '../components/upload-failed-modal';
import { useUploadFeedback } from '../use-upload-feedback';

type IdProofUploadProps = {
  user: User;
  docType: Exclude<IdProofFields['doc_type'], 'driver_license'>;
  label: string;
  description?: string;
  isDone: boolean;
  onUploaded: () => void;
};

/** One file to `POST /api/v1/user/id-proof`, with progress and the spec's failure dialog. */
export function IdProofUpload({ user, docType, label, description, isDone, onUploaded }: IdProofUploadProps) {
  const send = useSendIdProof();
  const feedback = useUploadFeedback('account');
  const [wasUploaded, setWasUploaded] = useState(false);

  const handleFile = async (file: File) => {
    const answer = await feedback.run((onProgress) =>
      send.mutateAsync({ docType, files: [file], onProgress }),
    );
    if (answer) {
      setWasUploaded(true);
      onUploaded();
    }
  };

  return (
    <>
      <FileDropzone
        label={label}
        description={description}
        onFile={(file) => void handleFile(file)}
        progress={feedback.progress}
        problem={feedback.problem}
        onProblem={feedback.setProblem}
        isDone={isDone || wasUploaded}
      />
      <UploadFailedModal
        opened={feedback.isFailureDialogOpen}
        onClose={feedback.closeFailureDialog}
        user={user}
      />
    </>
  );
}
