import type { FiatCurrency, ImportStatementBody } from '@florin/contracts';
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
  { key: 'sort_code', label: 'Payer’s sort code column' },
  { key: 'account_number', label: 'Payer’s account number column' },
  { key: 'iban', label: 'Payer’s IBAN column' },
] as const;

type Mapping = Record<(typeof MAPPING_FIELDS)[number]['key'], string>;
const DEFAULT_MAPPING: Mapping = {
  date: 'date',
  amount: 'amount',
  reference: 'reference',
  payer: 'payer',
  transaction_id: 'transaction_id',
  sort_code: '',
  account_number: '',
  iban: '',
};

type StatementFormat = 'csv' | 'camt053';
const FORMATS: { value: StatementFormat; label: string }[] = [
  { value: 'csv', label: 'CSV with a header line' },
  { value: 'camt053', label: 'camt.053 (ISO 20022 XML)' },
];

/** The payer's account columns are optional: an empty one is left to its default name. */
function mappingToSend({ sort_code, account_number, iban, ...required }: Mapping) {
  return {
    ...required,
    ...(sort_code ? { sort_code } : {}),
    ...(account_number ? { account_number } : {}),
    ...(iban ? { iban } : {}),
  };
}

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
  const [format, setFormat] = useState<StatementFormat>('csv');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [mapping, setMapping] = useState<Mapping>(DEFAULT_MAPPING);
  const [showMapping, setShowMapping] = useState(false);
  const result = importer.data?.data;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFileError(`Choose the statement file (${format === 'csv' ? 'CSV' : 'XML'}).`);
      return;
    }
    setFileError(undefined);
    let text: string;
    try {
      text = await file.text();
    } catch {
      setFileError('The file could not be read. Choose it again.');
      return;
    }
    const body: ImportStatementBody =
      format === 'camt053'
        ? { currency, format, xml: text }
        : { currency, format, csv: text, mapping: mappingToSend(mapping) };
    importer.mutate(body, {
      onSuccess: ({ message }) => showSuccessToast({ title: 'Statement imported', message }),
    });
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
            A camt.053 file as the bank exports it, or a CSV file with a header line and the columns date,
            amount, reference, payer and transaction id (and, when the bank gives them, the payer’s sort code,
            account number or IBAN). Lines imported before are recognised by their transaction id and credit
            nothing twice.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NativeSelect
            label="Statement format"
            data={FORMATS}
            value={format}
            onChange={(event) => setFormat(event.currentTarget.value as StatementFormat)}
          />
          <NativeSelect
            label="Statement currency"
            data={[...FIAT_CODES]}
            value={currency}
            onChange={(event) => setCurrency(event.currentTarget.value as FiatCurrency)}
          />
          <FileInput
            label={format === 'csv' ? 'Statement file (CSV)' : 'Statement file (XML)'}
            placeholder="Choose a file"
            accept={format === 'csv' ? '.csv,text/csv' : '.xml,application/xml,text/xml'}
            clearable
            value={file}
            onChange={(value) => {
              setFile(value);
              setFileError(undefined);
            }}
            error={fileError}
          />
        </SimpleGrid>
        {format === 'csv' && (
          <Button
            variant="subtle"
            size="compact-sm"
            w="fit-content"
            onClick={() => setShowMapping((shown) => !shown)}
          >
            {showMapping ? 'Hide column names' : 'Change column names'}
          </Button>
        )}
        <Collapse expanded={showMapping && format === 'csv'}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {MAPPING_FIELDS.map((field) => (
              <TextInput
                key={field.key}
                label={field.label}
                placeholder={field.key}
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
