import type { WizardAccountType } from '@florin/domain';
import { Group, Loader, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import type { User } from '@florin/contracts';
import { useSaveAccountType } from '../api/update-account-type';
import { StepNav } from '../components/step-nav';
import classes from '../components/kyc.module.css';

const TYPES: { value: WizardAccountType; description: string }[] = [
  { value: 'Individual', description: 'An account in your own name, for you.' },
  {
    value: 'Corporate',
    description: 'An account for a company: we also ask for its documents, directors and owners.',
  },
];

type AccountTypeStepProps = {
  user: User;
  onBack: () => void;
  onChosen: (accountType: WizardAccountType) => void;
};

/** Step 2: Individual or Corporate. Once anything is submitted the server keeps the type chosen. */
export function AccountTypeStep({ user, onBack, onChosen }: AccountTypeStepProps) {
  const save = useSaveAccountType();

  const handleChoose = (accountType: WizardAccountType) => {
    if (user.account_type === accountType) {
      onChosen(accountType);
      return;
    }
    save.mutate({ account_type: accountType }, { onSuccess: () => onChosen(accountType) });
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Who is this account for?
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {TYPES.map((type) => (
          <UnstyledButton
            key={type.value}
            className={classes.choiceCard}
            mod={{ selected: user.account_type === type.value }}
            onClick={() => handleChoose(type.value)}
            disabled={save.isPending}
            aria-pressed={user.account_type === type.value}
            aria-busy={save.isPending && save.variables.account_type === type.value}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700} size="lg">
                {type.value}
              </Text>
              {save.isPending && save.variables.account_type === type.value && (
                <Loader size="xs" aria-label="Saving" />
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {type.description}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <StepNav
        onBack={onBack}
        onNext={() => user.account_type && onChosen(user.account_type)}
        isNextShown={user.account_type !== null}
      />
    </Stack>
  );
}
