import { Box, Button, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LivePriceStrip } from '../../components/live-price-strip';
import { PATHS } from '../../lib/paths';

const HERO_BACKGROUND =
  'linear-gradient(160deg, var(--mantine-color-florin-8) 0%, var(--mantine-color-florin-9) 100%)';

const POINTS = [
  {
    mark: '£',
    title: 'Pounds sterling first',
    text: 'Deposit GBP from your UK bank account by Faster Payments, then buy and sell cryptoassets against it.',
  },
  {
    mark: '✓',
    title: 'Protected sign-in',
    text: 'Two-factor authentication, whitelisted withdrawal addresses and alerts for every movement of your money.',
  },
  {
    mark: '%',
    title: 'Fees you can read',
    text: 'One published fee schedule, and the full cost of a trade, fee included, shown before you confirm it.',
  },
] as const;

export function HomePage() {
  return (
    <>
      <title>Florin · Buy, sell and store crypto in pounds</title>
      <Box
        component="section"
        aria-labelledby="hero-title"
        py={{ base: 48, sm: 96 }}
        style={{ background: HERO_BACKGROUND }}
      >
        <Container size="lg">
          <Stack gap="lg" maw={640}>
            <Title id="hero-title" order={1} c="white" fz={{ base: 44, sm: 64 }} lh={1.05}>
              Florin
            </Title>
            <Text c="florin.0" fz={{ base: 'lg', sm: 'xl' }} lh={1.5}>
              A UK crypto wallet and exchange: buy, sell and store cryptoassets in pounds sterling, with clear
              prices and your security first.
            </Text>
            <Group gap="sm">
              <Button component={Link} to={PATHS.register} size="md" variant="white">
                Create an account
              </Button>
              <Button component={Link} to={PATHS.login} size="md" variant="outline" color="white">
                Log in
              </Button>
            </Group>
          </Stack>
        </Container>
      </Box>

      <LivePriceStrip />

      <Container size="lg" py={{ base: 'xl', sm: 48 }}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          {POINTS.map((point) => (
            <Stack key={point.title} gap="xs">
              <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                <Text fw={800} fz="lg">
                  {point.mark}
                </Text>
              </ThemeIcon>
              <Title order={2} fz="lg">
                {point.title}
              </Title>
              <Text c="dimmed" fz="sm">
                {point.text}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}
