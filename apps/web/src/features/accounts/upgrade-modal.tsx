import { UPGRADE_TEXTS } from '@florin/contracts';
import { Button, Group, List, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { Fragment } from 'react';
import { TradingFeesFrom } from '../../components/trading-fees-from';
import { useUpgradeToTrade } from './api/upgrade-to-trade';

type UpgradeModalProps = {
  opened: boolean;
  onClose: () => void;
  /** The only way out once the upgrade is done (spec 002 §4). */
  onLogOut: () => void;
  isLoggingOut: boolean;
};

function Tick() {
  return (
    <ThemeIcon size={20} radius="xl" color="teal" aria-hidden>
      <svg viewBox="0 0 24 24" width={12} height={12} fill="none" stroke="currentColor" strokeWidth={3}>
        <path d="M5 12l5 5 9-10" />
      </svg>
    </ThemeIcon>
  );
}

/**
 * Spec 002 §2.2 and §4: the trading account's features and a confirm button;
 * after success, Upgrade Complete! and a log-out the customer cannot dismiss
 * (no close button, no click outside, no Escape).
 */
export function UpgradeModal({ opened, onClose, onLogOut, isLoggingOut }: UpgradeModalProps) {
  const upgrade = useUpgradeToTrade();
  const isComplete = upgrade.isSuccess;
  const isLocked = isComplete || upgrade.isPending;

  const handleClose = () => {
    if (!isLocked) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={isComplete ? UPGRADE_TEXTS.completeTitle : UPGRADE_TEXTS.modalTitle}
      centered
      withCloseButton={!isLocked}
      closeOnClickOutside={!isLocked}
      closeOnEscape={!isLocked}
    >
      {isComplete ? (
        <Stack gap="md">
          <Text size="sm">{UPGRADE_TEXTS.completeText}</Text>
          <Group justify="flex-end">
            <Button onClick={onLogOut} loading={isLoggingOut}>
              {UPGRADE_TEXTS.logOut}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text size="sm">{UPGRADE_TEXTS.modalIntro}</Text>
          <List spacing="xs" size="sm" icon={<Tick />} aria-label="Trading account features">
            {UPGRADE_TEXTS.features.map((feature, index) => (
              <Fragment key={feature}>
                {index === UPGRADE_TEXTS.feesFeatureAt && (
                  <List.Item>
                    <TradingFeesFrom capitalised />
                  </List.Item>
                )}
                <List.Item>{feature}</List.Item>
              </Fragment>
            ))}
          </List>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose} disabled={upgrade.isPending}>
              {UPGRADE_TEXTS.cancel}
            </Button>
            <Button onClick={() => upgrade.mutate()} loading={upgrade.isPending}>
              {UPGRADE_TEXTS.confirm}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
