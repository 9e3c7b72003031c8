import { KYC_TEXTS, type AccountTypeBody } from '@florin/contracts';
import { Button, Group, Loader, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { TradingFeesFrom } from '../../../components/trading-fees-from';
import { useChooseAccount } from '../api/update-account-type';
import { StepNav } from '../components/step-nav';
import classes from '../components/kyc.module.css';

type Flavour = 'Instant' | 'Trade';

const FLAVOURS: { value: Flavour; title: string; description: ReactNode }[] = [
  {
    value: 'Instant',
    title: 'Instant',
    description: 'The easy way to buy and sell: see the price, confirm, done.',
  },
  {
    value: 'Trade',
    title: 'Trade',
    description: (
      <>
        Market and limit orders on the trading screen, with <TradingFeesFrom />.
      </>
    ),
  },
];

/** The Trade choice carries what the spec's account upgrade sends. */
function bodyFor(flavour: Flavour): AccountTypeBody {
  return flavour === 'Trade'
    ? { account_type: 'Trade', platform: 2, account_tiers_class: 4, ico_confirmed: 1 }
    : { account_type: 'Instant' };
}

type AccountChoiceStepProps = {
  onBack: () => void;
  /** Instant: the dialog's close reloads the user; settles once the user is fetched again. */
  onInstantDone: () => Promise<void>;
  /** Trade: the dialog's close signs the customer out. */
  onTradeDone: () => void;
};

/** Step 10 (both flows): Instant or Trade, then the completion dialog (spec 000 section 4). */
export function AccountChoiceStep({ onBack, onInstantDone, onTradeDone }: AccountChoiceStepProps) {
  const choose = useChooseAccount();
  const [completed, setCompleted] = useState<Flavour | null>(null);
  // Instant's reload can take a while on a slow connection: Close says so, and is not sent twice.
  const [isClosing, setIsClosing] = useState(false);

  const handleChoose = (flavour: Flavour) => {
    choose.mutate(bodyFor(flavour), { onSuccess: () => setCompleted(flavour) });
  };

  const handleClose = () => {
    if (isClosing) return;
    if (completed === 'Trade') {
      onTradeDone();
      return;
    }
    setIsClosing(true);
    void onInstantDone().finally(() => setIsClosing(false));
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Choose how you want to use Florin. You can ask us to change it later.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {FLAVOURS.map((flavour) => (
          <UnstyledButton
            key={flavour.value}
            className={classes.choiceCard}
            onClick={() => handleChoose(flavour.value)}
            disabled={choose.isPending || completed !== null}
            aria-busy={choose.isPending && choose.variables.account_type === flavour.value}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700} size="lg">
                {flavour.title}
              </Text>
              {choose.isPending && choose.variables.account_type === flavour.value && (
                <Loader size="xs" aria-label="Saving" />
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {flavour.description}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <StepNav onBack={onBack} isNextShown={false} />
      <Modal
        withCloseButton={false}
        opened={completed !== null}
        onClose={handleClose}
        title={KYC_TEXTS.verificationCompleteTitle}
        centered
        closeOnClickOutside={false}
      >
        <Stack gap="md">
          <Text size="sm">
            Thank you. We will review your account and activate it within 1-2 hours (24 hours at weekends). We
            will email you when it is ready.
          </Text>
          {completed === 'Trade' && (
            <Text size="sm">You will now be signed out; sign in again to reach your trading account.</Text>
          )}
          <Group justify="flex-end">
            <Button onClick={handleClose} loading={isClosing}>
              Close
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
