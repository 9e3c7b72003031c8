import type { WhitelistedIp } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PasscodeField } from '../../../components/passcode-field';
import { showSuccessToast } from '../../../lib/toasts';
import { useRemoveWhitelistedIp } from '../api/whitelist-ip';
import { reportIpError } from '../whitelist-errors';

type IpRemovalModalProps = {
  /** The customer's user_identification, which the call's path names. */
  owner: string;
  /** The IP being removed. Null: closed. */
  ip: WhitelistedIp | null;
  onClose: () => void;
};

/** Removing a whitelisted IP takes a code from the authenticator app, submitted at the sixth digit. */
export function IpRemovalModal({ owner, ip, onClose }: IpRemovalModalProps) {
  const [passcode, setPasscode] = useState('');
  const [wasWrong, setWasWrong] = useState(false);
  const remove = useRemoveWhitelistedIp();

  const handleClose = () => {
    setPasscode('');
    setWasWrong(false);
    onClose();
  };

  const handleSubmit = (code: string) => {
    if (!ip) return;
    remove.mutate(
      { owner, id: ip.id, passcode: code },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: 'IP address removed', message });
          handleClose();
        },
        onError: (error) => {
          setPasscode('');
          setWasWrong(true);
          reportIpError(error);
        },
      },
    );
  };

  return (
    <Modal opened={ip !== null} onClose={handleClose} title="Remove whitelisted IP address" centered>
      {ip && (
        <Stack gap="md">
          <Text size="sm">
            Enter the 6-digit code from your authenticator app to remove{' '}
            <strong style={{ fontFamily: 'monospace' }}>{ip.ip_address}</strong>.
          </Text>
          <PasscodeField
            value={passcode}
            onChange={(value) => {
              setPasscode(value);
              if (value) setWasWrong(false);
            }}
            onSubmit={handleSubmit}
            isSubmitting={remove.isPending}
            hasError={wasWrong}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose} disabled={remove.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
