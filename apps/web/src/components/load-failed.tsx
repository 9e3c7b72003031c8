import { Button, Stack, Text } from '@mantine/core';

/** A part of a page that could not be loaded ("Your referrals could not be loaded."), and a way to ask again. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Stack align="center" gap="xs" p="md" role="alert">
      <Text size="sm">{what} could not be loaded.</Text>
      <Button size="compact-sm" variant="light" onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}
