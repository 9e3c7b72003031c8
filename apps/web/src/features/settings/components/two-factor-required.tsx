import { WHITELIST_TEXTS } from '@florin/contracts';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SETTINGS_TABS, settingsTabPath } from '../../../lib/paths';

/** Spec 001 §5: whitelisting needs 2FA; without it a warning shows instead of the form. */
export function TwoFactorRequired() {
  return (
    <Alert color="orange" title="Two-factor authentication needed" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{WHITELIST_TEXTS.twoFactorRequired}</Text>
        <Button
          component={Link}
          to={settingsTabPath(SETTINGS_TABS.twoFactor)}
          size="compact-sm"
          variant="light"
          color="orange"
        >
          Set up two-factor authentication
        </Button>
      </Stack>
    </Alert>
  );
}
