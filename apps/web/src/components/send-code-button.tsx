import type { Fiat2faPurpose } from '@florin/contracts';
import { Button, type ButtonProps } from '@mantine/core';
import { describeError, toAppError } from '../lib/errors';
import { useRequestTwoFactorCode } from '../lib/request-two-factor-code';
import { showErrorToast, showSuccessToast } from '../lib/toasts';

type SendCodeButtonProps = {
  /** What the mailed code confirms; a code for one purpose does not work for another. */
  purpose: Fiat2faPurpose;
  size?: ButtonProps['size'];
};

/**
 * The Send 2FA button of a form whose customer gets e-mailed codes (spec 002 §6: shown only
 * with platform_2fa_mobile). Spec 002 §8: the server's "2fa passcode sent please check email!",
 * or "Something went wrong".
 */
export function SendCodeButton({ purpose, size = 'compact-xs' }: SendCodeButtonProps) {
  const requestCode = useRequestTwoFactorCode();

  const handleClick = () =>
    requestCode.mutate(purpose, {
      onSuccess: ({ message }) => showSuccessToast({ title: 'Code sent', message }),
      onError: (error) => {
        const appError = toAppError(error);
        showErrorToast({
          id: 'send-code',
          title: 'Something went wrong',
          message: appError.status >= 500 ? 'Please try again in a moment.' : describeError(appError),
        });
      },
    });

  return (
    <Button size={size} variant="light" onClick={handleClick} loading={requestCode.isPending}>
      Send 2FA
    </Button>
  );
}
