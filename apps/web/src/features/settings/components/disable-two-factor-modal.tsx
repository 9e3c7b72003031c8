import { Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PasscodeField } from '../../../components/passcode-field';

type DisableTwoFactorModalProps = {
  opened: boolean;
  onClose: () => void;
  /** Resolves true when 2FA was turned off, false when the code was refused. */
  onSubmit: (passcode: string) => Promise<boolean>;
  isSubmitting: boolean;
};

/** p4's "Disable 2FA": a current code (or a recovery code) proves it is the owner asking. */
export function DisableTwoFactorModal({
  opened,
  onClose,
  onSubmit,
  isSubmitting,
}: DisableTwoFactorModalProps) {
  const [passcode, setPasscode] = useState('');
  const [wasWrong, setWasWrong] = useState(false);

  const handleClose = () => {
    setPasscode('');
    setWasWrong(false);
    onClose();
  };

  const handleSubmit = async (code: string) => {
    if (await onSubmit(code)) {
      handleClose();
    } else {
      setPasscode('');
      setWasWrong(true);
    }
  };

  return (
    <Modal opened={opened} onClose={handleClose} title="Disable two-factor authentication" centered>
      <Stack gap="md">
        <Text size="sm">
          Enter the 6-digit code from your authenticator app. Without two-factor authentication, anyone who
          learns your password can sign in.
        </Text>
        <PasscodeField
          value={passcode}
          onChange={(value) => {
            setPasscode(value);
            if (value) setWasWrong(false);
          }}
          onSubmit={(code) => void handleSubmit(code)}
          isSubmitting={isSubmitting}
          hasError={wasWrong}
          allowRecoveryCode
        />
      </Stack>
    </Modal>
  );
}
