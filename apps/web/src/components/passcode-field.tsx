import { Anchor, Button, Group, Loader, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';

export const PASSCODE_LENGTH = 6;
const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-[a-z0-9]{5}$/i;

type PasscodeFieldProps = {
  /** The 6 digits typed so far; the owner clears it after a wrong code. */
  value: string;
  onChange: (value: string) => void;
  /** Called as soon as the sixth digit is typed, or with a recovery code when one is submitted. */
  onSubmit: (passcode: string) => void;
  isSubmitting: boolean;
  /** Offers "Use a recovery code" (xxxxx-xxxxx) instead of the app's 6 digits. */
  allowRecoveryCode?: boolean;
  /** Marks the digits in error (the last code was wrong). */
  hasError?: boolean;
  label?: string;
};

/**
 * Six single-digit boxes for an authenticator code that submit themselves
 * when full (spec 002 section 4), optionally switching to a recovery code.
 */
export function PasscodeField({
  value,
  onChange,
  onSubmit,
  isSubmitting,
  allowRecoveryCode = false,
  hasError = false,
  label = 'Authentication code',
}: PasscodeFieldProps) {
  const [mode, setMode] = useState<'app' | 'recovery'>('app');
  const [recoveryCode, setRecoveryCode] = useState('');
  const firstDigit = useRef<HTMLInputElement>(null);

  // After a wrong code the owner empties the boxes: the cursor goes back to the first one.
  useEffect(() => {
    if (mode === 'app' && value === '' && !isSubmitting) firstDigit.current?.focus();
  }, [mode, value, isSubmitting]);

  const isRecoveryCodeValid = RECOVERY_CODE_PATTERN.test(recoveryCode.trim());
  const handleRecoverySubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isRecoveryCodeValid) onSubmit(recoveryCode.trim().toLowerCase());
  };

  if (mode === 'recovery') {
    return (
      <form onSubmit={handleRecoverySubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Recovery code"
            description="One of the ten codes you saved when you turned on two-factor authentication."
            placeholder="xxxxx-xxxxx"
            autoComplete="off"
            autoFocus
            spellCheck={false}
            value={recoveryCode}
            onChange={(event) => setRecoveryCode(event.currentTarget.value)}
            disabled={isSubmitting}
          />
          <Group justify="space-between" wrap="wrap-reverse">
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('app')}>
              Use the authenticator app
            </Anchor>
            <Button type="submit" loading={isSubmitting} disabled={!isRecoveryCodeValid}>
              Verify
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="sm">
      <Text size="sm" fw={500} aria-hidden>
        {label}
      </Text>
      <PinInput
        ref={firstDigit}
        length={PASSCODE_LENGTH}
        type="number"
        oneTimeCode
        autoFocus
        size="md"
        gap="xs"
        placeholder=""
        value={value}
        onChange={onChange}
        onComplete={onSubmit}
        disabled={isSubmitting}
        error={hasError}
        aria-label={label}
        getInputProps={(index) => ({ 'aria-label': `${label}, digit ${index + 1} of ${PASSCODE_LENGTH}` })}
      />
      {isSubmitting && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking the code…
          </Text>
        </Group>
      )}
      {allowRecoveryCode && (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setMode('recovery')}
          w="fit-content"
        >
          Use a recovery code
        </Anchor>
      )}
    </Stack>
  );
}
