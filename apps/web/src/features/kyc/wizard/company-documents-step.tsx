import type { DocumentKey } from '@florin/contracts';
import { DOCUMENT_LABELS } from '@florin/contracts';
import { Stack, Text } from '@mantine/core';
import type { User } from '@florin/contracts';
import { useSendDocument } from '../api/upload-document';
import { FileDropzone } from '../components/file-dropzone';
import { StepNav } from '../components/step-nav';
import { UploadFailedModal } from '../components/upload-failed-modal';
import { DOCUMENT_GUIDANCE } from '../document-guidance';
import { useUploadFeedback } from '../use-upload-feedback';
import { COMPANY_DOCUMENT_KEYS, currentDocument } from '../verification';

type KeyedUploadProps = { user: User; documentKey: DocumentKey; label: string; isDone: boolean };

/** One document by key through `POST /api/v1/user/documents/upload`. */
export function KeyedDocumentUpload({ user, documentKey, label, isDone }: KeyedUploadProps) {
  const send = useSendDocument();
  const feedback = useUploadFeedback('account');

  const handleFile = (file: File) =>
    void feedback.run((onProgress) =>
      send.mutateAsync({ userId: user.id, key: documentKey, file, onProgress }),
    );

  return (
    <>
      <FileDropzone
        label={label}
        description={DOCUMENT_GUIDANCE[documentKey]}
        onFile={handleFile}
        progress={feedback.progress}
        problem={feedback.problem}
        onProblem={feedback.setProblem}
        isDone={isDone}
      />
      <UploadFailedModal
        opened={feedback.isFailureDialogOpen}
        onClose={feedback.closeFailureDialog}
        user={user}
      />
    </>
  );
}

type CompanyDocumentsStepProps = { user: User; onBack: () => void; onNext: () => void };

/** Corporate step 4: certificate of incorporation, articles of association, corporate proof of address. */
export function CompanyDocumentsStep({ user, onBack, onNext }: CompanyDocumentsStepProps) {
  const uploaded = COMPANY_DOCUMENT_KEYS.filter((key) => currentDocument(user.documents, key));
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Upload the three company documents. {uploaded.length} of 3 uploaded.
      </Text>
      {COMPANY_DOCUMENT_KEYS.map((key) => (
        <KeyedDocumentUpload
          key={key}
          user={user}
          documentKey={key}
          label={DOCUMENT_LABELS[key]}
          isDone={uploaded.includes(key)}
        />
      ))}
      <StepNav
        onBack={onBack}
        onNext={onNext}
        isNextShown={uploaded.length === COMPANY_DOCUMENT_KEYS.length}
      />
    </Stack>
  );
}
