import { Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PasscodeField } from '../../../components/passcode-field';
import { reportError, statusText, toAppError } from '../../../lib/errors';
import { showErrorToast } from '../../../lib/toasts';
import { useSignInSecondFactor } from '../api/login';

/** The first step's answer: its token, and whether the code was e-mailed (no authenticator). */
export type SignInChallenge = { loginToken: string; emailCode: boolean };

type TwoFactorLoginModalProps = {
  /** The modal is open while there is one. */
  challenge: SignInChallenge | null;
  onSignedIn: (session: { upgraded: number }) => void;
  /** Closed, or the sign-in has to start again (token expired, too many wrong codes). */
  onClose: () => void;
};

/**
 * The second sign-in step: six digits that submit themselves, from the authenticator app (or a
 * recovery code instead), or, for a customer on e-mailed codes, from the mail this sign-in sent.
 */
export function TwoFactorLoginModal({ challenge, onSignedIn, onClose }: TwoFactorLoginModalProps) {
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
    if (!challenge || verify.isPending) return;
    verify.mutate(
      { login_token: challenge.loginToken, passcode: code },
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
      opened={challenge !== null}
      onClose={handleClose}
      title="Two-Factor Authentication"
      centered
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <Text size="sm">
          {challenge?.emailCode
            ? 'We have e-mailed you a 6-digit code. Enter it to finish signing in: it works once, for this sign-in only.'
            : 'Enter the 6-digit code from your authenticator app to finish signing in.'}
        </Text>
        <PasscodeField
          value={passcode}
          onChange={(value) => {
            setPasscode(value);
            if (value) setWasWrong(false);
          }}
          onSubmit={handleSubmit}
          isSubmitting={verify.isPending}
          hasError={wasWrong}
          allowRecoveryCode={!challenge?.emailCode}
          label={challenge?.emailCode ? 'E-mailed code' : undefined}
        />
      </Stack>
    </Modal>
  );
}
