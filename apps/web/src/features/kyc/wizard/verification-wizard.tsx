import {
  backPosition,
  nextPosition,
  startPosition,
  stepNumber,
  type WealthBranch,
  type WizardAccountType,
  type WizardPosition,
  type WizardStep,
} from '@florin/domain';
import { Badge, Group, Progress, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';
import type { User } from '@florin/contracts';
import { wizardFlagsOf } from '../verification';
import { AccountChoiceStep } from './account-choice-step';
import { AccountTypeStep } from './account-type-step';
import { AddressStep } from './address-step';
import { CompanyDetailsStep } from './company-details-step';
import { CompanyDocumentsStep } from './company-documents-step';
import { DirectorsStep } from './directors-step';
import { IdDocumentStep, ProofOfAddressStep, SelfieStep } from './document-steps';
import { IntroStep } from './intro-step';
import { WealthForm } from './wealth-form';
import { WealthQuestionStep } from './wealth-question-step';

const STEP_TITLES: Record<WizardStep, string> = {
  intro: 'Account Verification',
  'account-type': 'Account Type',
  address: 'Address and Contact Details',
  'id-document': 'Identification Document',
  selfie: 'Identification Document With Selfie',
  'proof-of-address': 'Proof of Address',
  'company-details': 'Corporate Details',
  'company-documents': 'Corporate KYC Documents',
  directors: 'Directors and Owners',
  'wealth-question': 'Source of Wealth',
  'wealth-full': 'Source of Wealth and Experience',
  'wealth-reduced': 'Source of Wealth',
  'account-choice': 'Account Type',
};

type VerificationWizardProps = {
  user: User;
  onSignOut: () => void;
  /** The Instant choice's dialog closed: the page "reloads" (the user is fetched again); settles when done. */
  onFinished: () => Promise<void>;
};

/**
 * The verification wizard (spec 000 sections 2 and 4): a progress bar and numbered steps, opening
 * where the customer left off; Next and Back follow the domain's route through the steps.
 */
export function VerificationWizard({ user, onSignOut, onFinished }: VerificationWizardProps) {
  const [position, setPosition] = useState<WizardPosition>(() => startPosition(wizardFlagsOf(user)));
  const [branch, setBranch] = useState<WealthBranch>(
    user.kyc?.trades_over_threshold === 1 ? 'full' : 'reduced',
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const accountType: WizardAccountType = user.account_type ?? 'Individual';
  const { step, progress } = position;

  const moveTo = (next: WizardPosition) => {
    setPosition(next);
    // A new step is a new page for a screen reader and on a phone: start at its title.
    requestAnimationFrame(() => {
      headingRef.current?.focus();
      headingRef.current?.scrollIntoView({ block: 'nearest' });
    });
  };
  const next = (type: WizardAccountType = accountType, answer?: WealthBranch) =>
    moveTo(nextPosition(step, type, answer));
  const back = () => moveTo(backPosition(step, accountType, branch));

  const screens: Record<WizardStep, () => ReactNode> = {
    intro: () => <IntroStep onStart={() => next()} />,
    'account-type': () => <AccountTypeStep user={user} onBack={back} onChosen={(type) => next(type)} />,
    address: () => <AddressStep user={user} onBack={back} onDone={() => next()} />,
    'id-document': () => <IdDocumentStep user={user} onBack={back} onNext={() => next()} />,
    selfie: () => <SelfieStep user={user} onBack={back} onNext={() => next()} />,
    'proof-of-address': () => <ProofOfAddressStep user={user} onBack={back} onNext={() => next()} />,
    'company-details': () => <CompanyDetailsStep user={user} onBack={back} onDone={() => next()} />,
    'company-documents': () => <CompanyDocumentsStep user={user} onBack={back} onNext={() => next()} />,
    directors: () => <DirectorsStep user={user} onBack={back} onNext={() => next()} />,
    'wealth-question': () => (
      <WealthQuestionStep
        branch={branch}
        onBack={back}
        onAnswer={(answer) => {
          setBranch(answer);
          next(accountType, answer);
        }}
      />
    ),
    'wealth-full': () => (
      <WealthForm
        key="full"
        branch="full"
        answers={user.kyc}
        isUpdate={user.is_wealth_submitted === 1}
        onBack={back}
        onSaved={() => next()}
      />
    ),
    'wealth-reduced': () => (
      <WealthForm
        key="reduced"
        branch="reduced"
        answers={user.kyc}
        isUpdate={user.is_wealth_submitted === 1}
        onBack={back}
        onSaved={() => next()}
      />
    ),
    'account-choice': () => (
      <AccountChoiceStep onBack={back} onInstantDone={onFinished} onTradeDone={onSignOut} />
    ),
  };

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            Verification progress
          </Text>
          <Text size="sm" c="dimmed">
            {progress}%
          </Text>
        </Group>
        <Progress value={progress} size="lg" radius="xl" aria-label="Verification progress" />
      </Stack>
      <Group gap="sm" wrap="nowrap" align="center">
        <Badge size="lg" circle variant="filled" aria-hidden>
          {stepNumber(step, user.account_type)}
        </Badge>
        <Title order={2} fz={{ base: 'lg', sm: 'xl' }} ref={headingRef} tabIndex={-1}>
          <VisuallyHidden component="span">Step {stepNumber(step, user.account_type)}: </VisuallyHidden>
          {STEP_TITLES[step]}
        </Title>
      </Group>
      {screens[step]()}
    </Stack>
  );
}
