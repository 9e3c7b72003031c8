import {
  SANCTIONS_FILE_MAX_MB,
  SANCTIONS_TEXTS,
  type RescreenSummary,
  type SanctionsList,
} from '@florin/contracts';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { toAppError } from '../../../../lib/errors';
import { formatDateTime } from '../../../../lib/format';
import { useSanctionsList } from '../api/get-list';
import { useImportSanctionsList } from '../api/import-list';
import { LabelledValue } from '../../components/labelled-value';

/** The list's own way of writing a date: YYYY-MM-DD as dd/mm/yyyy. */
export function listDate(value: string): string {
  const [year, month, day] = value.split('-');
  return `${day}/${month}/${year}`;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;

function ActiveList({ list }: { list: SanctionsList }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="sm">
      <LabelledValue label="List last updated">{listDate(list.list_updated_on)}</LabelledValue>
      <LabelledValue label="Imported">
        {formatDateTime(list.imported_at)}
        {list.imported_by ? ` by ${list.imported_by}` : ''}
      </LabelledValue>
      <LabelledValue label="File">
        {list.file_name} ({(list.size_bytes / 1024).toLocaleString('en-GB', { maximumFractionDigits: 0 })} KB)
      </LabelledValue>
      <LabelledValue label="Designations">
        {plural(list.designations, 'designation', 'designations')}:{' '}
        {plural(list.individuals, 'individual', 'individuals')}, {plural(list.entities, 'entity', 'entities')}
        , {plural(list.ships, 'ship', 'ships')}
      </LabelledValue>
      <LabelledValue label="Rows (names and aliases)">{list.rows.toLocaleString('en-GB')}</LabelledValue>
      <LabelledValue label="SHA-256">
        <Text span ff="monospace" size="xs">
          {list.sha256}
        </Text>
      </LabelledValue>
    </SimpleGrid>
  );
}

export function ListPanel() {
  const { data: list, isError, isPending } = useSanctionsList();
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby="list-heading"
    >
      <Stack gap="sm">
        <Title order={2} fz={18} id="list-heading">
          Active list
        </Title>
        {isPending && <Loader size="sm" aria-label="Loading the active list" />}
        {isError && (
          <Text c="dimmed" size="sm">
            The active list could not be loaded. Reload the page to try again.
          </Text>
        )}
        {list === null && (
          <Alert color="orange" variant="light" title="No list">
            {SANCTIONS_TEXTS.noList}
          </Alert>
        )}
        {list && <ActiveList list={list} />}
      </Stack>
    </Paper>
  );
}

function ImportResult({ summary, message }: { summary: RescreenSummary; message: string }) {
  return (
    <Alert color="teal" variant="light" title="List imported" role="status">
      <Stack gap={4}>
        <Text size="sm">{message}</Text>
        <Text size="sm">
          {plural(summary.customers, 'customer', 'customers')} screened,{' '}
          {summary.hits.toLocaleString('en-GB')} with a possible match
          {summary.held > 0 ? `, ${plural(summary.held, 'account', 'accounts')} put on hold` : ''}.
        </Text>
      </Stack>
    </Alert>
  );
}

export function ImportPanel() {
  const importer = useImportSanctionsList();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setErrors([SANCTIONS_TEXTS.fileRequired]);
      return;
    }
    setErrors([]);
    setProgress(0);
    importer.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: () => setFile(null),
        onError: (error) => {
          const appError = toAppError(error);
          setErrors(appError.errors?.file ?? [appError.message]);
        },
      },
    );
  };

  const isUploading = importer.isPending && progress < 100;
  const isScreening = importer.isPending && progress >= 100;
  const result = importer.isSuccess ? importer.data : undefined;

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="import-heading"
      noValidate
      onSubmit={handleSubmit}
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="import-heading">
            Import the consolidated list
          </Title>
          <Text size="sm" c="dimmed">
            The UK consolidated list of financial sanctions targets as OFSI publishes it in CSV format
            (ConList.csv, at most {SANCTIONS_FILE_MAX_MB} MB). It replaces the active list, and every
            customer, company, director and owner is screened against it. A possible match puts the account on
            hold.
          </Text>
        </Stack>
        <FileInput
          label="Consolidated list file (ConList.csv)"
          placeholder="Choose a file"
          accept=".csv,text/csv"
          clearable
          value={file}
          onChange={(value) => {
            setFile(value);
            setErrors([]);
            importer.reset();
          }}
          disabled={importer.isPending}
          maw={480}
        />
        {isUploading && <Progress value={progress} aria-label="Upload progress" size="sm" maw={480} />}
        {isScreening && (
          <Group gap="xs" role="status" aria-label="Screening customers">
            <Loader size="xs" />
            <Text size="sm">Checking the file and screening every customer…</Text>
          </Group>
        )}
        {errors.length > 0 && (
          <Alert color="red" variant="light" title="The file was not imported" role="alert">
            <Stack gap={4}>
              {errors.map((error) => (
                <Text key={error} size="sm">
                  {error}
                </Text>
              ))}
              <Text size="sm" c="dimmed">
                The active list has not changed.
              </Text>
            </Stack>
          </Alert>
        )}
        {result && <ImportResult summary={result.data.screening} message={result.message} />}
        <Group justify="flex-end">
          <Button type="submit" loading={importer.isPending}>
            Import list
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
