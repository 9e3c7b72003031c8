import { Box, Button, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import classes from './recovery-codes-modal.module.css';

type RecoveryCodesModalProps = {
  /** The ten codes, shown this once; the modal is open while there are some. */
  codes: readonly string[] | null;
  onDone: () => void;
};

/**
 * The recovery codes, right after 2FA is turned on. The server keeps only
 * their hashes, so this is the one chance to save them: the modal closes only
 * through "I have saved them".
 */
export function RecoveryCodesModal({ codes, onDone }: RecoveryCodesModalProps) {
  return (
    <Modal
      opened={codes !== null}
      onClose={onDone}
      title="Save your recovery codes"
      centered
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      <Stack gap="md">
        <Text size="sm">
          If you lose your phone, each of these codes signs you in once instead of the authenticator app. Keep
          them somewhere safe: they are shown only now.
        </Text>
        <Box component="ul" aria-label="Recovery codes" className={classes.codes}>
          {codes?.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Group justify="space-between" gap="sm">
          <CopyButton value={codes?.join('\n') ?? ''}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy codes'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onDone}>I have saved them</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
