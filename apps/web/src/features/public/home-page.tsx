import { Box, Button, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LivePriceStrip } from '../../components/live-price-strip';
import { PageMeta } from '../../components/page-meta';
import { PATHS } from '../../lib/paths';
import { NewsletterForm } from './newsletter/newsletter-form';

const HERO_BACKGROUND =
  'linear-gradient(160deg, var(--mantine-color-florin-8) 0%, var(--mantine-color-florin-9) 100%)';

const STEPS = [
  {
    title: 'Create your account',
    text: 'Register with your e-mail address and confirm it. It takes a minute.',
  },
  {
    title: 'Verify your identity',
    text: 'UK law asks us to know our customers: upload an identity document and answer a few questions.',
  },
  {
    title: 'Add pounds and trade',
    text: 'Send GBP from your own bank account, then buy at a price you see before you confirm.',
  },
] as const;

const FEATURES = [
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
  {
    mark: '⇅',
    title: 'Instant or advanced',
    text: 'Buy in two taps at a quoted price, or upgrade to trading with market and limit orders and lower fees.',
  },
  {
    mark: '◷',
    title: 'Term deposits',
    text: 'Lock coins for a fixed term at a fixed rate, and see what you will earn before you commit.',
  },
  {
    mark: '▣',
    title: 'Accounts for businesses',
    text: 'Corporate accounts with company verification, several directors and an API for your own systems.',
  },
] as const;

/** `/home` (spec 002 §2.7): the marketing page; `/` stays the login screen (DECISIONS.md, Routes). */
export function HomePage() {
  return (
    <>
      <PageMeta
        title="Buy, sell and store crypto in pounds"
        description="Florin is a UK crypto wallet and exchange: buy, sell and store Bitcoin, Ether and other cryptoassets in pounds sterling, with fees shown before you trade."
      />
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

      <Container component="section" aria-labelledby="how-title" size="lg" py={{ base: 'xl', sm: 56 }}>
        <Title id="how-title" order={2} mb="lg">
          How it works
        </Title>
        <SimpleGrid
          component="ol"
          cols={{ base: 1, sm: 3 }}
          spacing="xl"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {STEPS.map((step, index) => (
            <Stack component="li" key={step.title} gap="xs">
              <ThemeIcon size={40} radius="xl" aria-hidden>
                <Text fw={800}>{index + 1}</Text>
              </ThemeIcon>
              <Title order={3} fz="lg">
                {step.title}
              </Title>
              <Text c="dimmed" fz="sm">
                {step.text}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Button component={Link} to={PATHS.register} mt="xl">
          Get started
        </Button>
      </Container>

      <Box component="section" aria-labelledby="features-title" bg="gray.0" py={{ base: 'xl', sm: 56 }}>
        <Container size="lg">
          <Title id="features-title" order={2} mb="lg">
            Why Florin
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xl">
            {FEATURES.map((feature) => (
              <Stack key={feature.title} gap="xs">
                <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                  <Text fw={800} fz="lg">
                    {feature.mark}
                  </Text>
                </ThemeIcon>
                <Title order={3} fz="lg">
                  {feature.title}
                </Title>
                <Text c="dimmed" fz="sm">
                  {feature.text}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container component="section" aria-labelledby="newsletter-title" size="sm" py={{ base: 'xl', sm: 56 }}>
        <Title id="newsletter-title" order={2} mb="xs">
          Florin news
        </Title>
        <Text c="dimmed" fz="sm" mb="md">
          Product news and changes to our fees, at most once a month. We ask you to confirm by e-mail first,
          and every e-mail has a link to stop them.
        </Text>
        <NewsletterForm />
      </Container>
    </>
  );
}
