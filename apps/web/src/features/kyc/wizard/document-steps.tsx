import { List, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { User } from '@florin/contracts';
import { StepNav } from '../components/step-nav';
import { DOCUMENT_GUIDANCE } from '../document-guidance';
import { DriverLicenceUpload } from './driver-licence-upload';
import { IdProofUpload } from './id-proof-upload';

type UploadStepProps = { user: User; onBack: () => void; onNext: () => void };

type IdChoice = 'passport' | 'national_id' | 'driver_license';

const ID_CHOICES: { value: IdChoice; label: string }[] = [
  { value: 'passport', label: 'Passport' },
  { value: 'national_id', label: 'National ID / Residence Permit' },
  { value: 'driver_license', label: 'Driver License' },
];

/** Individual step 4: the photo page of a passport, a national ID or residence permit, or both sides of a driver licence. */
export function IdDocumentStep({ user, onBack, onNext }: UploadStepProps) {
  const isNarrow = useMediaQuery('(max-width: 48em)');
  const [choice, setChoice] = useState<IdChoice>('passport');
  const [isUploaded, setIsUploaded] = useState(false);
  const isDone = isUploaded || user.is_photo_id_submitted === 1;

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        Choose one identity document. It must be valid, in colour, with every corner visible and the text
        readable.
      </Text>
      <SegmentedControl
        aria-label="Identity document type"
        value={choice}
        onChange={setChoice}
        data={ID_CHOICES}
        orientation={isNarrow ? 'vertical' : 'horizontal'}
        fullWidth
      />
      {choice === 'driver_license' ? (
        <DriverLicenceUpload user={user} isDone={isUploaded} onUploaded={() => setIsUploaded(true)} />
      ) : (
        <IdProofUpload
          key={choice}
          user={user}
          docType={choice}
          label={choice === 'passport' ? 'Passport photo page' : 'National ID or biometric residence permit'}
          description={
            choice === 'passport' ? DOCUMENT_GUIDANCE.passport : DOCUMENT_GUIDANCE.national_id_front
          }
          isDone={isUploaded}
          onUploaded={() => setIsUploaded(true)}
        />
      )}
      {isDone && !isUploaded && (
        <Text size="sm" c="dimmed">
          We already have your identity document. Upload another only if you want to replace it.
        </Text>
      )}
      <StepNav onBack={onBack} onNext={onNext} isNextShown={isDone} />
    </Stack>
  );
}

/** Individual step 5: a selfie holding the ID and a note with today's date and the word Florin. */
export function SelfieStep({ user, onBack, onNext }: UploadStepProps) {
  const [isUploaded, setIsUploaded] = useState(false);
  const isDone = isUploaded || user.is_selfie_submitted === 1;
  return (
    <Stack gap="md">
      <Text size="sm">Take a photo of yourself holding:</Text>
      <List size="sm" spacing={4}>
        <List.Item>the identity document you uploaded in the previous step, and</List.Item>
        <List.Item>
          a sheet of paper with today&apos;s date and the word &quot;Florin&quot; written on it.
        </List.Item>
      </List>
      <Text size="sm">Your whole face and the whole document must be visible and readable.</Text>
      <IdProofUpload
        user={user}
        docType="proof_selfie"
        label="Selfie with your ID"
        isDone={isUploaded}
        onUploaded={() => setIsUploaded(true)}
      />
      <StepNav onBack={onBack} onNext={onNext} isNextShown={isDone} />
    </Stack>
  );
}

/** Individual step 6: a proof of address issued within the last 3 months. */
export function ProofOfAddressStep({ user, onBack, onNext }: UploadStepProps) {
  const [isUploaded, setIsUploaded] = useState(false);
  const isDone = isUploaded || user.is_proof_address_submitted === 1;
  return (
    <Stack gap="md">
      <Text size="sm">
        Upload a document showing your name and address, issued within the last 3 months. We accept:
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>a bank or credit card statement</List.Item>
        <List.Item>an internet or TV licence bill</List.Item>
        <List.Item>a utility bill</List.Item>
        <List.Item>a council tax bill</List.Item>
      </List>
      <IdProofUpload
        user={user}
        docType="proof_address"
        label="Proof of address"
        isDone={isUploaded}
        onUploaded={() => setIsUploaded(true)}
      />
      <StepNav onBack={onBack} onNext={onNext} isNextShown={isDone} />
    </Stack>
  );
}
