import { Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PasscodeField } from '../../../components/passcode-field';
import { reportError, statusText, toAppError } from '../../../lib/errors';
import { showErrorToast } from '../../../lib/toasts';
import { useSignInSecondFactor } from '../api/login';

type TwoFactorLoginModalProps = {
  /** The token from the first step; the modal is open while there is one. */
  loginToken: string | null;
  onSignedIn: (session: { upgraded: number }) => void;
  /** Closed, or the sign-in has to start again (token expired, too many wrong codes). */
  onClose: () => void;
};

/** The second sign-in step: six digits that submit themselves, or a recovery code. */
export function TwoFactorLoginModal({ loginToken, onSignedIn, onClose }: TwoFactorLoginModalProps) {
  const [passcode, setPasscode] = useState('');
  const [wasWrong, setWasWrong] = useState(false);
  const verify = useSignInSecondFactor();

  const handleClose = () => {
    setPasscode('');
    setWasWrong(false);
    verify.reset();
    onClose();
  };

  const handleSubmit = (code: string) => {
    if (!loginToken || verify.isPending) return;
    verify.mutate(
      { login_token: loginToken, passcode: code },
      {
        onSuccess: (session) => onSignedIn(session),
        onError: (error) => {
          const appError = toAppError(error);
          setPasscode('');
          if (appError.code === 'INVALID_PASSCODE') {
            // Spec 000 section 8: "Wrong Passcode." under the status text.
            setWasWrong(true);
            reportError(appError, { title: statusText(appError.status) });
            return;
          }
          if (appError.code === 'UNAUTHENTICATED') {
            // The sign-in took too long: not a lost session, so no trip through the 401 handler.
            showErrorToast({ title: statusText(appError.status), message: appError.message });
          } else {
            reportError(appError);
          }
          if (appError.status < 500) handleClose();
        },
      },
    );
  };

  return (
    <Modal
      opened={loginToken !== null}
      onClose={handleClose}
      title="Two-Factor Authentication"
      centered
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <Text size="sm">Enter the 6-digit code from your authenticator app to finish signing in.</Text>
        <PasscodeField
          value={passcode}
          onChange={(value) => {
            setPasscode(value);
            if (value) setWasWrong(false);
          }}
          onSubmit={handleSubmit}
          isSubmitting={verify.isPending}
          hasError={wasWrong}
          allowRecoveryCode
        />
      </Stack>
    </Modal>
  );
}
