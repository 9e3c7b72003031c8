import { CLOSURE_TEXTS } from '@florin/contracts';
import { Alert, Button, Modal, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError, toAppError } from '../../lib/errors';
import { useCloseAccount } from './api/close-account';

/**
 * Closing the account (issue 13): final, only once it holds nothing (the
 * server checks), confirmed with the password in a dialog.
 */
export function CloseAccountSection() {
  const [isOpen, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const close = useCloseAccount();

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!password) {
      setPasswordError('Enter your password.');
      return;
    }
    setPasswordError(undefined);
    close.mutate(password, {
      onError: (error) => {
        const appError = toAppError(error);
        const fieldError = appError.errors?.password?.[0];
        if (fieldError) setPasswordError(fieldError);
        else setFailure(describeError(appError));
      },
    });
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="xs" align="flex-start">
        <Title order={2} size="h4">
          {CLOSURE_TEXTS.closeHeading}
        </Title>
        <Text size="sm" c="dimmed">
          {CLOSURE_TEXTS.closeIntro}
        </Text>
        <Button color="red" variant="light" onClick={() => setOpen(true)}>
          {CLOSURE_TEXTS.closeConfirm}
        </Button>
      </Stack>
      <Modal
        opened={isOpen}
        onClose={() => setOpen(false)}
        title={CLOSURE_TEXTS.closeHeading}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <form onSubmit={handleSubmit} noValidate aria-label={CLOSURE_TEXTS.closeHeading}>
          <Stack gap="md">
            <Text size="sm">{CLOSURE_TEXTS.closeIntro}</Text>
            {failure && (
              <Alert color="red" variant="light" title="Not closed" role="alert">
                {failure}
              </Alert>
            )}
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={passwordError}
            />
            <Button type="submit" color="red" loading={close.isPending}>
              {CLOSURE_TEXTS.closeConfirm}
            </Button>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
