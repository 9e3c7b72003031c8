import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** A page's code that failed to download: after a deploy, the old chunk names are gone. */
function isStaleChunk(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

/** Shown in place of a back-office screen that throws; the shell around it stays. */
export function AdminErrorBoundary() {
  const stale = isStaleChunk(useRouteError());
  return (
    <Stack align="center" gap="md" ta="center" py={{ base: 48, sm: 96 }} role="alert">
      <title>Something went wrong · Florin back office</title>
      <Title order={1}>{stale ? 'Florin has been updated' : 'Something went wrong'}</Title>
      <Text c="dimmed" maw={440}>
        {stale
          ? 'A newer version of Florin is available. Reload the page to continue.'
          : 'This screen could not be shown. Reload the page; if it keeps happening, tell the engineering team.'}
      </Text>
      <Group justify="center">
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Group>
    </Stack>
  );
}
