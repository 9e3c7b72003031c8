import { Badge, Button, FileButton, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { User } from '@florin/contracts';
import { useSendIdProof } from '../api/upload-id-proof';
import { UploadFailedModal } from '../components/upload-failed-modal';
import { useUploadFeedback } from '../use-upload-feedback';
import { licenceProblem } from '../verification';

const ACCEPT = 'image/png,image/jpeg,application/pdf,.png,.jpg,.jpeg,.pdf';

type DriverLicenceUploadProps = { user: User; isDone: boolean; onUploaded: () => void };

/**
 * A driver licence: its front and back, picked with their own buttons and sent together; once
 * both are in it says "Uploaded", as the other document zones do.
 */
export function DriverLicenceUpload({ user, isDone, onUploaded }: DriverLicenceUploadProps) {
  const send = useSendIdProof();
  const feedback = useUploadFeedback('account');
  const [front, setFront] = useState<File | null>(null);
  const [back, setBack] = useState<File | null>(null);
  const [wasUploaded, setWasUploaded] = useState(false);

  const handleUpload = async () => {
    const files = [front, back].filter((file): file is File => file !== null);
    const problem = licenceProblem(files);
    feedback.setProblem(problem);
    if (problem) return;
    const answer = await feedback.run((onProgress) =>
      send.mutateAsync({ docType: 'driver_license', files, onProgress }),
    );
    if (answer) {
      setWasUploaded(true);
      onUploaded();
    }
  };

  const side = (label: string, file: File | null, onChange: (file: File | null) => void) => (
    <Stack gap={4}>
      <FileButton onChange={onChange} accept={ACCEPT}>
        {(props) => (
          <Button variant="default" {...props}>
            {label}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed" truncate>
        {file ? file.name : 'No file chosen'}
      </Text>
    </Stack>
  );

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {side('Front ID Upload', front, (file) => {
          setFront(file);
          feedback.setProblem(null);
        })}
        {side('Back ID Upload', back, (file) => {
          setBack(file);
          feedback.setProblem(null);
        })}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        Both sides, each a JPEG, PNG or PDF of up to 10 MB.
      </Text>
      <Group>
        <Button onClick={() => void handleUpload()} loading={feedback.progress !== null}>
          Upload Driver License
        </Button>
        {(isDone || wasUploaded) && (
          <Badge color="teal" variant="light">
            Uploaded
          </Badge>
        )}
      </Group>
      {feedback.progress !== null && (
        <Stack gap={2} role="status" aria-label="Uploading Driver License">
          <Progress
            value={feedback.progress}
            animated
            size="sm"
            aria-label="Driver License upload progress"
          />
          <Text size="xs" c="dimmed">
            Uploading… {feedback.progress}%
          </Text>
        </Stack>
      )}
      {feedback.problem && (
        <Text size="sm" c="red.8" role="alert">
          {feedback.problem}
        </Text>
      )}
      <UploadFailedModal
        opened={feedback.isFailureDialogOpen}
        onClose={feedback.closeFailureDialog}
        user={user}
      />
    </Stack>
  );
}
