import { ALERTS_TEXTS, NOTIFICATION_FLAGS, type NotificationFlags, type User } from '@florin/contracts';
import { Group, List, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useUpdateNotifications } from './api/update-notifications';

type Flag = keyof NotificationFlags;

const SWITCHES: Record<Flag, { label: string; hint: string }> = {
  login_notifications: { label: ALERTS_TEXTS.login, hint: ALERTS_TEXTS.loginHint },
  loginout_notifications: { label: ALERTS_TEXTS.logout, hint: ALERTS_TEXTS.logoutHint },
  marketing_notifications: { label: ALERTS_TEXTS.marketing, hint: ALERTS_TEXTS.marketingHint },
  trade_notifications: { label: ALERTS_TEXTS.trading, hint: ALERTS_TEXTS.tradingHint },
};

function flagsOf(user: User): NotificationFlags {
  return {
    login_notifications: user.login_notifications,
    loginout_notifications: user.loginout_notifications,
    marketing_notifications: user.marketing_notifications,
    trade_notifications: user.trade_notifications,
  };
}

/** The Account page's Alerts tab (spec 002 §2.2): four switches saved together, and what is always sent. */
export function AlertsTab({ user }: { user: User }) {
  const update = useUpdateNotifications();
  const [savingFlag, setSavingFlag] = useState<Flag | null>(null);
  const flags = flagsOf(user);

  const handleToggle = (flag: Flag, checked: boolean) => {
    setSavingFlag(flag);
    update.mutate(
      { userId: user.id, flags: { ...flags, [flag]: checked } },
      { onSettled: () => setSavingFlag(null) },
    );
  };

  return (
    <Stack gap="lg">
      <Text c="dimmed">{ALERTS_TEXTS.intro}</Text>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="md">
          {NOTIFICATION_FLAGS.map((flag) => (
            <Group key={flag} justify="space-between" wrap="nowrap" align="flex-start">
              <Switch
                size="md"
                checked={flags[flag]}
                disabled={update.isPending}
                onChange={(event) => handleToggle(flag, event.currentTarget.checked)}
                label={SWITCHES[flag].label}
                description={SWITCHES[flag].hint}
              />
              {update.isPending && savingFlag === flag ? (
                <Loader size="xs" aria-label={ALERTS_TEXTS.saving} />
              ) : null}
            </Group>
          ))}
        </Stack>
      </Paper>
      <Stack gap="xs">
        <Title order={2} fz="h4">
          {ALERTS_TEXTS.compulsoryTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {ALERTS_TEXTS.compulsoryIntro}
        </Text>
        <List size="sm" spacing={4} aria-label={ALERTS_TEXTS.compulsoryTitle}>
          {ALERTS_TEXTS.compulsory.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      </Stack>
    </Stack>
  );
}
