import { Container, Text, Title } from '@mantine/core';
import { useCurrentUser } from '../../lib/current-user';

/**
 * `/user` for a live customer: a greeting until the dashboard itself (assets
 * table, recent activity; spec 000 section 2) is built with the wallets.
 */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Dashboard · Florin</title>
      <Title order={1} fz={{ base: 26, sm: 32 }}>
        Dashboard
      </Title>
      {user && <Text c="dimmed">Welcome back, {user.first_name}.</Text>}
    </Container>
  );
}
