import { Button, Container, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { hasTwoFactor, useCurrentUser } from '../../lib/current-user';
import { PATHS, SETTINGS_TABS, settingsTabPath } from '../../lib/paths';

/**
 * What a signed-in customer who is not live yet sees instead of the page they
 * asked for (spec 000 section 2). The verification wizard replaces its middle
 * with issue 4; Settings stays reachable so 2FA can be set up meanwhile.
 */
export function GettingStartedPage() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const isSecured = hasTwoFactor(user);

  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }}>
      <title>Getting Started · Florin</title>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={{ base: 26, sm: 32 }}>
              Getting Started
            </Title>
            <Text c="dimmed">Welcome to Florin, {user.first_name}.</Text>
          </Stack>
          <Text>
            Your account is being set up. Identity verification comes next: we will ask for a few details, an
            identity document and a proof of address, as UK rules require before you can deposit, buy or sell.
          </Text>
          <List
            spacing="sm"
            center
            icon={
              <ThemeIcon size={24} radius="xl" variant="light" aria-hidden>
                <Text fz="xs" fw={800}>
                  ✓
                </Text>
              </ThemeIcon>
            }
          >
            <List.Item>Email address confirmed</List.Item>
            <List.Item
              icon={
                <ThemeIcon size={24} radius="xl" variant={isSecured ? 'light' : 'outline'} aria-hidden>
                  <Text fz="xs" fw={800}>
                    {isSecured ? '✓' : '2'}
                  </Text>
                </ThemeIcon>
              }
            >
              {isSecured ? 'Two-factor authentication on' : 'Turn on two-factor authentication'}
            </List.Item>
            <List.Item
              icon={
                <ThemeIcon size={24} radius="xl" variant="outline" aria-hidden>
                  <Text fz="xs" fw={800}>
                    3
                  </Text>
                </ThemeIcon>
              }
            >
              Verify your identity
            </List.Item>
          </List>
          <Group>
            {isSecured ? (
              <Button component={Link} to={PATHS.settings} variant="default">
                Go to Settings
              </Button>
            ) : (
              <Button component={Link} to={settingsTabPath(SETTINGS_TABS.twoFactor)}>
                Set up two-factor authentication
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
