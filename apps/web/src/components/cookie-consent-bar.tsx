import { Anchor, Button, Container, Group, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import { chooseCookieConsent, useCookieConsent } from '../lib/cookie-consent';
import { PATHS } from '../lib/paths';

/** Spec 002 §2.13: a bar at the bottom offering Allow Cookies or No Thanks., until the visitor chooses. */
export function CookieConsentBar() {
  const consent = useCookieConsent();
  if (consent !== null) return null;
  return (
    <Paper
      component="section"
      aria-label="Cookie consent"
      shadow="md"
      radius={0}
      withBorder
      pos="fixed"
      bottom={0}
      left={0}
      right={0}
      py="sm"
      style={{ zIndex: 200 }}
    >
      <Container size="lg">
        <Group justify="space-between" gap="sm">
          <Text fz="sm" maw={720}>
            We use cookies that keep you signed in and secure. With your permission we also remember a
            referral code for 14 days. Read our{' '}
            <Anchor component={Link} to={PATHS.cookies} inherit underline="always">
              Cookie Policy
            </Anchor>
            .
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" onClick={() => chooseCookieConsent('deny')}>
              No Thanks.
            </Button>
            <Button onClick={() => chooseCookieConsent('allow')}>Allow Cookies</Button>
          </Group>
        </Group>
      </Container>
    </Paper>
  );
}
