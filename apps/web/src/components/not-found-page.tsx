import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';

/** Any address that names no page, and any lookup a page cannot find (a referral code, later). */
export function NotFoundPage() {
  return (
    <Container size="sm" py={{ base: 48, sm: 96 }}>
      <title>404 Not Found · Florin</title>
      <Stack align="center" gap="md" ta="center">
        <Text fz={64} fw={800} c="florin.7" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1}>404 Not Found</Title>
        <Text c="dimmed" maw={420}>
          We could not find the page you asked for. It may have moved, or the address may be mistyped.
        </Text>
        <Button component={Link} to={PATHS.home} size="md" mt="sm">
          Back to home
        </Button>
      </Stack>
    </Container>
  );
}
