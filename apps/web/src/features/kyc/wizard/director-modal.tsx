import type { Director } from '@florin/contracts';
import { Button, Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { DirectorDocuments } from './director-documents';
import { DirectorInformationForm } from './director-information-form';

type Tab = 'information' | 'documents';

type DirectorModalProps = {
  opened: boolean;
  onClose: () => void;
  /** The director being edited; null adds a new one. */
  initialDirector: Director | null;
  /** The company's directors as last fetched (each upload fetches them again). */
  directors: readonly Director[];
};

/**
 * Add or edit a director or owner (spec 000 sections 2 and 4): Information, then Documents, which
 * opens once the director exists. When both documents are done a success dialog follows, and the
 * modal starts again on an empty Information tab for the next person.
 */
export function DirectorModal({ opened, onClose, initialDirector, directors }: DirectorModalProps) {
  const isFullScreen = useMediaQuery('(max-width: 48em)');
  const [directorId, setDirectorId] = useState<number | null>(initialDirector?.id ?? null);
  // What the last save answered, until the refetched list has the new director.
  const [savedDirector, setSavedDirector] = useState<Director | null>(initialDirector);
  const [tab, setTab] = useState<Tab>('information');
  const [hasUploaded, setHasUploaded] = useState(false);
  // A new key empties the Information form for the next person.
  const [formKey, setFormKey] = useState(0);

  // The refetched list is the truth: two uploads racing each answer with the director as they saw it.
  const director =
    directors.find((entry) => entry.id === directorId) ??
    (savedDirector?.id === directorId ? savedDirector : null);
  const isComplete = director?.identity_done === 1 && director.proof_address_done === 1;
  const isCompletionOpen = hasUploaded && isComplete;

  const handleSaved = (saved: Director, wasCreated: boolean) => {
    setDirectorId(saved.id);
    setSavedDirector(saved);
    if (wasCreated) setTab('documents');
  };

  const handleCompletionConfirmed = () => {
    setHasUploaded(false);
    setDirectorId(null);
    setSavedDirector(null);
    setTab('information');
    setFormKey((key) => key + 1);
  };

  const title = director ? `${director.firstName} ${director.lastName}` : 'Add director or owner';

  return (
    <>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={opened}
        onClose={onClose}
        title={title}
        size="lg"
        fullScreen={isFullScreen}
      >
        <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
          <Tabs.List grow mb="md">
            <Tabs.Tab value="information">Information</Tabs.Tab>
            <Tabs.Tab value="documents" disabled={!director}>
              Documents
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="information">
            <DirectorInformationForm
              key={`${formKey}-${director?.id ?? 'new'}`}
              director={director}
              onSaved={handleSaved}
            />
          </Tabs.Panel>
          <Tabs.Panel value="documents">
            {director && <DirectorDocuments director={director} onUploaded={() => setHasUploaded(true)} />}
          </Tabs.Panel>
        </Tabs>
      </Modal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={isCompletionOpen}
        onClose={handleCompletionConfirmed}
        title="Documents uploaded"
        centered
        closeOnClickOutside={false}
      >
        <Stack gap="md">
          <Text size="sm">
            The identity document and proof of address of {director?.firstName} {director?.lastName} are
            uploaded. You can add the next director or owner now.
          </Text>
          <Group justify="flex-end">
            <Button onClick={handleCompletionConfirmed}>OK</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
