import type { FiatCurrency } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import {
  Badge,
  Button,
  Collapse,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { showSuccessToast } from '../../../../lib/toasts';
import { useImportStatement } from '../api/import-statement';

const MAPPING_FIELDS = [
  { key: 'date', label: 'Date column' },
  { key: 'amount', label: 'Amount column' },
  { key: 'reference', label: 'Reference column' },
  { key: 'payer', label: 'Payer column' },
  { key: 'transaction_id', label: 'Transaction id column' },
] as const;

type Mapping = Record<(typeof MAPPING_FIELDS)[number]['key'], string>;
const DEFAULT_MAPPING: Mapping = {
  date: 'date',
  amount: 'amount',
  reference: 'reference',
  payer: 'payer',
  transaction_id: 'transaction_id',
};

const OUTCOME_COLORS: Record<string, string> = {
  credited: 'teal',
  suspense: 'orange',
  duplicate: 'gray',
  skipped: 'gray',
  invalid: 'red',
};

export function ImportStatementForm() {
  const importer = useImportStatement();
  const [currency, setCurrency] = useState<FiatCurrency>('GBP');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [mapping, setMapping] = useState<Mapping>(DEFAULT_MAPPING);
  const [showMapping, setShowMapping] = useState(false);
  const result = importer.data?.data;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFileError('Choose the statement file (CSV).');
      return;
    }
    setFileError(undefined);
    let csv: string;
    try {
      csv = await file.text();
    } catch {
      setFileError('The file could not be read. Choose it again.');
      return;
    }
    importer.mutate(
      { currency, csv, mapping },
      { onSuccess: ({ message }) => showSuccessToast({ title: 'Statement imported', message }) },
    );
  };

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="import-heading"
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="import-heading">
            Import a bank statement
          </Title>
          <Text size="sm" c="dimmed">
            A CSV file with a header line and the columns date, amount, reference, payer and transaction id.
            Lines imported before are recognised by their transaction id and credit nothing twice.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label="Statement currency"
            data={[...FIAT_CODES]}
            value={currency}
            onChange={(event) => setCurrency(event.currentTarget.value as FiatCurrency)}
          />
          <FileInput
            label="Statement file (CSV)"
            placeholder="Choose a file"
            accept=".csv,text/csv"
            clearable
            value={file}
            onChange={(value) => {
              setFile(value);
              setFileError(undefined);
            }}
            error={fileError}
          />
        </SimpleGrid>
        <Button
          variant="subtle"
          size="compact-sm"
          w="fit-content"
          onClick={() => setShowMapping((shown) => !shown)}
        >
          {showMapping ? 'Hide column names' : 'Change column names'}
        </Button>
        <Collapse expanded={showMapping}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {MAPPING_FIELDS.map((field) => (
              <TextInput
                key={field.key}
                label={field.label}
                value={mapping[field.key]}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setMapping((current) => ({ ...current, [field.key]: value }));
                }}
              />
            ))}
          </SimpleGrid>
        </Collapse>
        <Group justify="flex-end">
          <Button type="submit" loading={importer.isPending}>
            Import statement
          </Button>
        </Group>
        {result && (
          <Stack gap="xs" role="status" aria-label="Import result">
            <Group gap="xs">
              <Badge color="teal" variant="light">
                {result.credited} credited
              </Badge>
              <Badge color="orange" variant="light">
                {result.suspense} in suspense
              </Badge>
              <Badge color="gray" variant="light">
                {result.duplicates} already imported
              </Badge>
              {result.skipped > 0 && (
                <Badge color="gray" variant="light">
                  {result.skipped} skipped
                </Badge>
              )}
              {result.invalid > 0 && (
                <Badge color="red" variant="light">
                  {result.invalid} invalid
                </Badge>
              )}
            </Group>
            <Table.ScrollContainer minWidth={480}>
              <Table verticalSpacing={4} fz="sm" aria-label="Statement lines">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Transaction id</Table.Th>
                    <Table.Th>Outcome</Table.Th>
                    <Table.Th>Note</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.lines.map((line) => (
                    <Table.Tr key={line.line}>
                      <Table.Td>{line.line}</Table.Td>
                      <Table.Td>{line.bank_transaction_id ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge color={OUTCOME_COLORS[line.outcome] ?? 'gray'} variant="light">
                          {line.outcome}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{line.message ?? ''}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
