import type { Director } from '@florin/contracts';
import { Badge, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSendDirectorDocument, type DirectorDocumentType } from '../api/upload-director-document';
import { FileDropzone } from '../components/file-dropzone';
import { useUploadFeedback } from '../use-upload-feedback';

type DirectorUploadProps = {
  director: Director;
  type: DirectorDocumentType;
  label: string;
  description?: string;
  onUploaded: () => void;
};

function DirectorUpload({ director, type, label, description, onUploaded }: DirectorUploadProps) {
  const send = useSendDirectorDocument();
  const feedback = useUploadFeedback('director');
  const [isUploaded, setIsUploaded] = useState(false);

  const handleFile = async (file: File) => {
    const answer = await feedback.run((onProgress) =>
      send.mutateAsync({ directorId: director.id, type, file, onProgress }),
    );
    if (answer) {
      setIsUploaded(true);
      onUploaded();
    }
  };

  return (
    <FileDropzone
      label={label}
      description={description}
      onFile={(file) => void handleFile(file)}
      progress={feedback.progress}
      problem={feedback.problem}
      onProblem={feedback.setProblem}
      isDone={isUploaded}
    />
  );
}

type IdentityChoice = 'passport' | 'national_id' | 'driver_license';

const IDENTITY_CHOICES: { value: IdentityChoice; label: string }[] = [
  { value: 'passport', label: 'Passport' },
  { value: 'national_id', label: 'National ID' },
  { value: 'driver_license', label: 'Driver License' },
];

function DoneBadge({ label, isDone }: { label: string; isDone: boolean }) {
  return (
    <Badge color={isDone ? 'teal' : 'gray'} variant="light">
      {label}: {isDone ? 'done' : 'missing'}
    </Badge>
  );
}

type DirectorDocumentsProps = { director: Director; onUploaded: () => void };

/**
 * The modal's Documents tab (spec 000 section 4): identity is done after a passport or national
 * ID, or after both sides of a driver licence; the proof of address no older than 3 months.
 */
export function DirectorDocuments({ director, onUploaded }: DirectorDocumentsProps) {
  const [choice, setChoice] = useState<IdentityChoice>('passport');
  return (
    <Stack gap="lg">
      <Group gap="xs">
        <DoneBadge label="Identity" isDone={director.identity_done === 1} />
        <DoneBadge label="Proof of address" isDone={director.proof_address_done === 1} />
      </Group>
      <Stack gap="sm">
        <Title order={3} fz="md">
          Identity document
        </Title>
        <SegmentedControl
          aria-label="Identity document type"
          value={choice}
          onChange={(value) => setChoice(value)}
          data={IDENTITY_CHOICES}
          fullWidth
        />
        {choice === 'driver_license' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DirectorUpload
              director={director}
              type="driver_license_front"
              label="Driver License front"
              onUploaded={onUploaded}
            />
            <DirectorUpload
              director={director}
              type="driver_license_back"
              label="Driver License back"
              onUploaded={onUploaded}
            />
          </SimpleGrid>
        ) : (
          <DirectorUpload
            key={choice}
            director={director}
            type={choice}
            label={choice === 'passport' ? 'Passport photo page' : 'National ID or residence permit'}
            onUploaded={onUploaded}
          />
        )}
      </Stack>
      <Stack gap="sm">
        <Title order={3} fz="md">
          Proof of address
        </Title>
        <Text size="sm" c="dimmed">
          A bank or credit card statement, utility bill or council tax bill in their name, no older than 3
          months.
        </Text>
        <DirectorUpload
          director={director}
          type="proof_address"
          label="Director proof of address"
          onUploaded={onUploaded}
        />
      </Stack>
    </Stack>
  );
}
