import { NEWSLETTER_TEXTS } from '@florin/contracts';
import { Anchor, Container, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageMeta } from '../../../components/page-meta';
import { PATHS } from '../../../lib/paths';

export type OutcomeTone = 'waiting' | 'success' | 'error' | 'question';

const MARKS: Record<Exclude<OutcomeTone, 'waiting'>, { mark: string; color: string }> = {
  success: { mark: '✓', color: 'teal' },
  error: { mark: '!', color: 'red' },
  question: { mark: '?', color: 'florin' },
};

/**
 * The card the newsletter's mailed links land on: a spinner while the link is
 * checked, then what happened, with the way back to the home page. `children`
 * holds the message, and for a question the button that answers it.
 */
export function NewsletterOutcome({
  tone,
  title,
  children,
}: {
  tone: OutcomeTone;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Container size="xs" py={{ base: 'xl', sm: 64 }}>
      <PageMeta title="Newsletter" description="Confirm or end your subscription to the Florin newsletter." />
      <Paper withBorder radius="md" p={{ base: 'lg', sm: 'xl' }}>
        <Stack align="center" gap="md" ta="center" role={tone === 'question' ? undefined : 'status'}>
          {tone === 'waiting' ? (
            <Loader aria-hidden />
          ) : (
            <ThemeIcon size={48} radius="xl" variant="light" color={MARKS[tone].color} aria-hidden>
              <Text fw={800} fz="xl" inherit>
                {MARKS[tone].mark}
              </Text>
            </ThemeIcon>
          )}
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {title}
          </Title>
          {children && (typeof children === 'string' ? <Text>{children}</Text> : children)}
          {tone !== 'waiting' && (
            <Anchor component={Link} to={PATHS.home} fw={600}>
              {NEWSLETTER_TEXTS.backHome}
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
