import {
  DOCUMENT_STATUS_LABELS,
  type CustomerDetails,
  type DocumentStatus,
  type VerificationSteps,
} from '@florin/contracts';
import { countryName } from '@florin/domain';
import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../../lib/format';

/** Pieces the case page and the customer page both show. */

const STATUS_COLORS: Record<DocumentStatus, string> = {
  pending: 'yellow',
  approved: 'teal',
  declined: 'red',
  superseded: 'gray',
};

const STEP_LABELS: Record<Exclude<keyof VerificationSteps, 'denied_documents'>, string> = {
  is_kyc_submitted: 'Details (address or company)',
  is_photo_id_submitted: 'Identity documents',
  is_selfie_submitted: 'Selfie with the ID',
  is_proof_address_submitted: 'Proof of address',
  is_wealth_submitted: 'Source of wealth',
  verification_completed: 'Wizard finished',
};

/** A label and its value, stacked: two columns on a desktop, one on a phone. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children ?? '—'}</Text>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" style={{ flexShrink: 0 }}>
      {DOCUMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

export function CustomerFacts({ customer }: { customer: CustomerDetails }) {
  const country = (code: string | null) => (code ? countryName(code) : null);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      <Fact label="Name">
        {customer.first_name} {customer.last_name}
      </Fact>
      <Fact label="Email">{customer.email}</Fact>
      <Fact label="Date of birth">{customer.birthdate}</Fact>
      <Fact label="Phone">{customer.phone}</Fact>
      <Fact label="Address">
        {[customer.address, customer.city, customer.zip].filter(Boolean).join(', ') || null}
      </Fact>
      <Fact label="Country of residence">{country(customer.country)}</Fact>
      <Fact label="Nationality">{country(customer.nationality)}</Fact>
      <Fact label="Tax residence">{country(customer.tax_residence)}</Fact>
      <Fact label="NI number or tax ID">{customer.tax_id}</Fact>
      <Fact label="Registered">{formatDateTime(customer.created_at)}</Fact>
    </SimpleGrid>
  );
}

export function VerificationStepList({ steps }: { steps: VerificationSteps }) {
  return (
    <List spacing={4} size="sm" listStyleType="none">
      {(Object.keys(STEP_LABELS) as (keyof typeof STEP_LABELS)[]).map((step) => (
        <List.Item key={step}>
          <Group gap="xs" wrap="nowrap">
            <Badge size="sm" variant="light" color={steps[step] === 1 ? 'teal' : 'gray'} w={90}>
              {steps[step] === 1 ? 'Done' : 'Not yet'}
            </Badge>
            <Text size="sm">{STEP_LABELS[step]}</Text>
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
