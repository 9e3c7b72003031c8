import { KYC_TEXTS, type Director } from '@florin/contracts';
import { areDirectorsComplete, hasCompanyDirector } from '@florin/domain';
import { ActionIcon, Alert, Badge, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import type { User } from '@florin/contracts';
import { useRemoveDirector } from '../api/delete-director';
import { StepNav } from '../components/step-nav';
import { DirectorModal } from './director-modal';

const yesNo = (flag: 0 | 1) => (flag === 1 ? 'Yes' : 'No');
const fullName = (director: Director) => `${director.firstName} ${director.lastName}`;

function DocumentState({ director }: { director: Director }) {
  return (
    <Group gap={4}>
      <Badge size="xs" variant="light" color={director.identity_done ? 'teal' : 'gray'}>
        ID {director.identity_done ? 'done' : 'missing'}
      </Badge>
      <Badge size="xs" variant="light" color={director.proof_address_done ? 'teal' : 'gray'}>
        Address {director.proof_address_done ? 'done' : 'missing'}
      </Badge>
    </Group>
  );
}

type DirectorActionsProps = {
  director: Director;
  onEdit: () => void;
  onDelete: () => void;
  isDeleting: boolean;
};

function DirectorActions({ director, onEdit, onDelete, isDeleting }: DirectorActionsProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <ActionIcon variant="light" onClick={onEdit} aria-label={`Edit ${fullName(director)}`}>
        <span aria-hidden>✎</span>
      </ActionIcon>
      <ActionIcon
        variant="light"
        color="red"
        onClick={onDelete}
        loading={isDeleting}
        aria-label={`Delete ${fullName(director)}`}
      >
        <span aria-hidden>✕</span>
      </ActionIcon>
    </Group>
  );
}

type DirectorsStepProps = { user: User; onBack: () => void; onNext: () => void };

/**
 * Corporate step 5 (spec 000 section 2): the directors and owners table, the modal to add or edit
 * them, and Next only once at least one of them is a director and every one has identity and
 * proof of address done.
 */
export function DirectorsStep({ user, onBack, onNext }: DirectorsStepProps) {
  const isNarrow = useMediaQuery('(max-width: 48em)');
  const remove = useRemoveDirector();
  const directors = user.company?.directors ?? [];
  const [modal, setModal] = useState<{ key: number; director: Director | null } | null>(null);
  const people = directors.map((director) => ({
    isDirector: director.director === 1,
    identityDone: director.identity_done === 1,
    proofAddressDone: director.proof_address_done === 1,
  }));
  const isComplete = areDirectorsComplete(people);
  // Owners only: say why Next stays hidden, whatever their documents.
  const isDirectorMissing = directors.length > 0 && !hasCompanyDirector(people);
  const isDocumentMissing = people.some((person) => !person.identityDone || !person.proofAddressDone);

  const openModal = (director: Director | null) => setModal({ key: Date.now(), director });

  const confirmDelete = (director: Director) =>
    modals.openConfirmModal({
      title: 'Are you sure?',
      centered: true,
      children: <Text size="sm">{KYC_TEXTS.deleteDirectorConfirm}</Text>,
      labels: { confirm: 'Yes, delete it!', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(director.id),
    });

  const isDeleting = (director: Director) => remove.isPending && remove.variables === director.id;

  return (
    <Stack gap="md">
      <Alert variant="light" color="florin" role="note">
        {KYC_TEXTS.ownersStatement}
      </Alert>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {directors.length === 0 ? 'No directors or owners yet.' : `${directors.length} added.`}
        </Text>
        <Button onClick={() => openModal(null)} leftSection={<span aria-hidden>+</span>}>
          Add New
        </Button>
      </Group>
      {directors.length > 0 &&
        (isNarrow ? (
          <Stack gap="sm" aria-label="Directors and owners">
            {directors.map((director) => (
              <Card key={director.id} withBorder padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={4}>
                    <Text fw={600}>{fullName(director)}</Text>
                    <Text size="sm" c="dimmed">
                      Owner: {yesNo(director.owner)} · Director: {yesNo(director.director)} · Shareholding{' '}
                      {director.shareHolding}%
                    </Text>
                    <DocumentState director={director} />
                  </Stack>
                  <DirectorActions
                    director={director}
                    onEdit={() => openModal(director)}
                    onDelete={() => confirmDelete(director)}
                    isDeleting={isDeleting(director)}
                  />
                </Group>
              </Card>
            ))}
          </Stack>
        ) : (
          <Table withTableBorder verticalSpacing="sm" aria-label="Directors and owners">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Director</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Shareholding %</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {directors.map((director) => (
                <Table.Tr key={director.id}>
                  <Table.Td>{yesNo(director.owner)}</Table.Td>
                  <Table.Td>{yesNo(director.director)}</Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      <Text size="sm">{fullName(director)}</Text>
                      <DocumentState director={director} />
                    </Stack>
                  </Table.Td>
                  <Table.Td>{director.shareHolding}</Table.Td>
                  <Table.Td>
                    <DirectorActions
                      director={director}
                      onEdit={() => openModal(director)}
                      onDelete={() => confirmDelete(director)}
                      isDeleting={isDeleting(director)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ))}
      {isDirectorMissing && (
        <Alert variant="light" color="yellow" role="status">
          {KYC_TEXTS.directorRequired}
        </Alert>
      )}
      {isDocumentMissing && (
        <Text size="sm" c="dimmed">
          Next appears once every director and owner has an identity document and a proof of address.
        </Text>
      )}
      <StepNav onBack={onBack} onNext={onNext} isNextShown={isComplete} />
      {modal && (
        <DirectorModal
          key={modal.key}
          opened
          onClose={() => setModal(null)}
          initialDirector={modal.director}
          directors={directors}
        />
      )}
    </Stack>
  );
}
