import '@mantine/dropzone/styles.css';
import { KYC_TEXTS } from '@florin/contracts';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { ACCEPTED_FILES, fileProblem, MAX_UPLOAD_BYTES } from '../verification';
import classes from './kyc.module.css';

type FileDropzoneProps = {
  /** The input's accessible name ("Passport photo page"), also the dropzone's heading. */
  label: string;
  description?: string;
  onFile: (file: File) => void;
  /** 0–100 while uploading, null otherwise. */
  progress: number | null;
  /** A refusal to show under the zone (the spec's text for a wrong type, the server's reason). */
  problem: string | null;
  onProblem: (problem: string | null) => void;
  isDone?: boolean;
  disabled?: boolean;
};

function rejectionText(rejections: FileRejection[]): string {
  const codes = rejections.flatMap((rejection) => rejection.errors.map((error) => error.code));
  if (codes.includes('too-many-files')) return KYC_TEXTS.oneFile;
  if (codes.includes('file-invalid-type')) return KYC_TEXTS.fileFormat;
  const first = rejections[0]?.file;
  return (first && fileProblem(first)) ?? KYC_TEXTS.fileFormat;
}

/**
 * One document: drop or pick a JPEG, PNG or PDF of up to 10 MB. Anything else is refused here
 * with the spec's text before it is sent; the server checks the content again.
 */
export function FileDropzone({
  label,
  description,
  onFile,
  progress,
  problem,
  onProblem,
  isDone = false,
  disabled = false,
}: FileDropzoneProps) {
  const isUploading = progress !== null;

  const handleDrop = (files: File[]) => {
    const [file] = files;
    if (!file || files.length !== 1) {
      onProblem(KYC_TEXTS.oneFile);
      return;
    }
    const refusal = fileProblem(file);
    onProblem(refusal);
    if (!refusal) onFile(file);
  };

  return (
    <Stack gap={6}>
      <Dropzone
        onDrop={handleDrop}
        onReject={(rejections) => onProblem(rejectionText(rejections))}
        accept={ACCEPTED_FILES}
        maxSize={MAX_UPLOAD_BYTES}
        multiple={false}
        disabled={disabled || isUploading}
        className={classes.dropzone}
        inputProps={{ 'aria-label': label }}
      >
        <Stack gap={4} align="center" ta="center" mih={96} justify="center">
          <Group gap="xs" justify="center">
            <Text fw={600}>{label}</Text>
            {isDone && (
              <Badge color="teal" variant="light">
                Uploaded
              </Badge>
            )}
          </Group>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            Drag a file here or click to choose one. JPEG, PNG or PDF, up to 10 MB.
          </Text>
        </Stack>
      </Dropzone>
      {isUploading && (
        <Stack gap={2} role="status" aria-label={`Uploading ${label}`}>
          <Progress value={progress} animated size="sm" aria-label={`${label} upload progress`} />
          <Text size="xs" c="dimmed">
            Uploading… {progress}%
          </Text>
        </Stack>
      )}
      {problem && (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
