import { DOCUMENT_LABELS } from '@florin/contracts';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import type { User } from '@florin/contracts';
import { useSendDirectorDocument } from './api/upload-director-document';
import { useSendDocument } from './api/upload-document';
import { FileDropzone } from './components/file-dropzone';
import { UploadFailedModal } from './components/upload-failed-modal';
import classes from './components/kyc.module.css';
import { DOCUMENT_GUIDANCE } from './document-guidance';
import { useUploadFeedback } from './use-upload-feedback';
import { DIRECTOR_UPLOAD_TYPES, type DeclinedDocument } from './verification';

type ReuploadProps = { user: User; declined: DeclinedDocument };

/** The re-upload step of one declined document: by key for the customer's own, by type for a director's. */
function Reupload({ user, declined }: ReuploadProps) {
  const { document, director } = declined;
  const sendOwn = useSendDocument();
  const sendDirector = useSendDirectorDocument();
  const feedback = useUploadFeedback(director ? 'director' : 'account');
  const directorType = DIRECTOR_UPLOAD_TYPES[document.key];
  const label = director
    ? `${DOCUMENT_LABELS[document.key]} of ${director.firstName} ${director.lastName}`
    : DOCUMENT_LABELS[document.key];

  const handleFile = (file: File) =>
    void feedback.run(async (onProgress) => {
      if (director && directorType) {
        await sendDirector.mutateAsync({ directorId: director.id, type: directorType, file, onProgress });
      } else {
        await sendOwn.mutateAsync({ userId: user.id, key: document.key, file, onProgress });
      }
      return true;
    });

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {label}
        </Title>
        <Paper className={classes.cause} p="sm" radius="sm">
          <Text size="sm" fw={700} c="red.9">
            Cause of rejection
          </Text>
          <Text size="sm" c="red.9">
            {(document.disapprove_note ?? 'The document could not be accepted.').toUpperCase()}
          </Text>
        </Paper>
        <FileDropzone
          label={`Upload ${label} again`}
          description={DOCUMENT_GUIDANCE[document.key]}
          onFile={handleFile}
          progress={feedback.progress}
          problem={feedback.problem}
          onProblem={feedback.setProblem}
        />
      </Stack>
      <UploadFailedModal
        opened={feedback.isFailureDialogOpen}
        onClose={feedback.closeFailureDialog}
        user={user}
      />
    </Paper>
  );
}

type RejectedViewProps = { user: User; declined: readonly DeclinedDocument[] };

/**
 * Declined documents replace Getting Started (spec 000 sections 2 and 4): each with the reviewer's
 * note as its cause, in upper case, and its own upload. Each upload fetches the user again, so the
 * list shrinks, and the last one brings back Getting Started.
 */
export function RejectedView({ user, declined }: RejectedViewProps) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" title="Rejected" role="alert">
        We could not accept {declined.length === 1 ? 'one of your documents' : 'some of your documents'}.
        Please upload {declined.length === 1 ? 'it' : 'each one'} again; the cause is shown below.
      </Alert>
      {declined.map((entry) => (
        <Reupload key={entry.document.id} user={user} declined={entry} />
      ))}
    </Stack>
  );
}
