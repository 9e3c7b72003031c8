import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { PATHS } from '../lib/paths';

/** A page's code that failed to download: after a deploy, the old chunk names are gone. */
function isStaleChunk(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

/**
 * Shown in place of a page (or the whole app, at the root) when it throws.
 * Each page route has it, so the header, the risk warning and the footer stay.
 */
export function RouteErrorBoundary() {
  const stale = isStaleChunk(useRouteError());
  return (
    <Container size="sm" py={{ base: 48, sm: 96 }}>
      <title>Something went wrong · Florin</title>
      <Stack align="center" gap="md" ta="center" role="alert">
        <Title order={1}>{stale ? 'Florin has been updated' : 'Something went wrong'}</Title>
        <Text c="dimmed" maw={440}>
          {stale
            ? 'A newer version of Florin is available. Reload the page to continue.'
            : 'This page could not be shown. Please try again; if it keeps happening, contact support.'}
        </Text>
        <Group justify="center">
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button component={Link} to={PATHS.home} variant="default">
            Back to home
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
