import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * Spec 001 section 2: on the first visit to Settings after an upgrade from
 * the previous product, its 2FA setup does not carry over and must be made again.
 */
export function UpgradeNoticeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Set up two-factor authentication again" centered>
      <Stack gap="md">
        <Text size="sm">
          Your account has moved to Florin. The two-factor authentication you set up with our previous product
          does not work here, so please set it up again now: it protects your sign-in and your withdrawals.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Set up 2FA</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
