import {
  UPGRADES_PAGE_SIZE,
  UpgradeWebhookBodySchema,
  type PlatformUpgrade,
  type PlatformUpgradeWebhookStatus,
} from '@florin/contracts';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { reportError, toAppError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { customerPath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { UPGRADES_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useUpgrades } from './api/list-upgrades';
import { useSaveUpgradeWebhook, useUpgradeWebhook } from './api/upgrade-webhook';

const PLATFORM_NAMES: Record<number, string> = { 1: 'Instant', 2: 'Trading' };

const WEBHOOK_LABELS: Record<PlatformUpgradeWebhookStatus, { label: string; color: string }> = {
  pending: { label: 'Sending', color: 'blue' },
  delivered: { label: 'Delivered', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'No webhook', color: 'gray' },
};

function platformChange(upgrade: PlatformUpgrade): string {
  const name = (platform: number) => PLATFORM_NAMES[platform] ?? `Platform ${platform}`;
  return `${name(upgrade.from_platform)} → ${name(upgrade.to_platform)}`;
}

function WebhookBadge({ upgrade }: { upgrade: PlatformUpgrade }) {
  const { label, color } = WEBHOOK_LABELS[upgrade.webhook_status];
  const detail =
    upgrade.webhook_status === 'failed' && upgrade.webhook_error
      ? `${upgrade.webhook_error} (${upgrade.webhook_attempts} ${upgrade.webhook_attempts === 1 ? 'attempt' : 'attempts'})`
      : null;
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={color} variant="light">
        {label}
      </Badge>
      {detail && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      )}
    </Stack>
  );
}

function CustomerCell({ upgrade }: { upgrade: PlatformUpgrade }) {
  const { user } = upgrade;
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={customerPath(user.id)} size="sm" fw={600}>
        {user.first_name} {user.last_name}
      </Anchor>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {user.email} · #{user.id}
      </Text>
    </Stack>
  );
}

function UpgradeList({ upgrades }: { upgrades: PlatformUpgrade[] }) {
  if (upgrades.length === 0) {
    return (
      <Text c="dimmed" size="sm" p="md">
        No upgrades yet.
      </Text>
    );
  }
  return (
    <>
      <Box visibleFrom="sm">
        <Table verticalSpacing="sm" aria-label="Upgrades">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Webhook</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {upgrades.map((upgrade) => (
              <Table.Tr key={upgrade.id}>
                <Table.Td>
                  <CustomerCell upgrade={upgrade} />
                </Table.Td>
                <Table.Td>{platformChange(upgrade)}</Table.Td>
                <Table.Td>{formatDateTime(upgrade.created_at)}</Table.Td>
                <Table.Td>
                  <WebhookBadge upgrade={upgrade} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack
        hiddenFrom="sm"
        gap="xs"
        component="ul"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label="Upgrades"
      >
        {upgrades.map((upgrade) => (
          <Paper key={upgrade.id} component="li" withBorder radius="md" p="sm">
            <Stack gap={6}>
              <CustomerCell upgrade={upgrade} />
              <Text size="sm">
                {platformChange(upgrade)} · {formatDateTime(upgrade.created_at)}
              </Text>
              <WebhookBadge upgrade={upgrade} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

type WebhookForm = { url: string };

function WebhookSettings() {
  const { data: webhook, isError } = useUpgradeWebhook(true);
  const save = useSaveUpgradeWebhook();
  const form = useForm<WebhookForm>({
    resolver: contractResolver<WebhookForm>(UpgradeWebhookBodySchema),
    defaultValues: { url: '' },
  });
  const { errors } = form.formState;
  const { reset } = form;

  useEffect(() => {
    if (webhook) reset({ url: webhook.url ?? '' });
  }, [webhook, reset]);

  const submit = (url: string | null) =>
    save.mutate(
      { url },
      {
        onSuccess: (answer) => showSuccessToast({ title: 'Webhook', message: answer.message }),
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, ['url']);
          if (!appError.errors) reportError(appError, { title: 'Webhook not saved' });
        },
      },
    );

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      onSubmit={(event) => void form.handleSubmit((values) => submit(values.url))(event)}
      noValidate
      aria-labelledby="upgrade-webhook-heading"
    >
      <Stack gap="sm">
        <Title order={2} fz={18} id="upgrade-webhook-heading">
          Chat webhook
        </Title>
        {isError && <Text c="dimmed">The webhook could not be loaded.</Text>}
        <TextInput
          label="Webhook URL"
          description="Each upgrade is posted here as JSON ({ text, user_id, email, at }). Leave empty to only list upgrades."
          placeholder="https://chat.example.com/hooks/…"
          error={errors.url?.message}
          {...form.register('url')}
        />
        <Group justify="flex-end" gap="sm">
          {webhook?.url && (
            <Button variant="default" color="red" onClick={() => submit(null)} disabled={save.isPending}>
              Remove webhook
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            Save webhook
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** `/admin/upgrades` (support, finance, superadmin): every move to the trading platform, newest first. */
export function UpgradesPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, UPGRADES_SCREEN_ROLES)) return <AdminNotFound />;
  return <UpgradesScreen isSuperadmin={me.role === 'superadmin'} />;
}

function UpgradesScreen({ isSuperadmin }: { isSuperadmin: boolean }) {
  const [skip, setSkip] = useState(0);
  const { data: page, isError, refetch } = useUpgrades(skip);
  const total = page?.total ?? 0;

  return (
    <Stack gap="md" maw={1100}>
      <title>Upgrades · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Upgrades
        </Title>
        <Text size="sm" c="dimmed">
          Customers who moved to a trading account, from the Account page or when they finished verification.
        </Text>
      </Stack>
      {isSuperadmin && <WebhookSettings />}
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !page && (
          <Group justify="center" p="md" gap="sm">
            <Text c="dimmed">The upgrades could not be loaded.</Text>
            <Button variant="light" size="compact-sm" onClick={() => void refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {!isError && !page && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading upgrades" />
          </Group>
        )}
        {page && <UpgradeList upgrades={page.data} />}
        {total > UPGRADES_PAGE_SIZE && (
          <Group justify="space-between" p="sm">
            <Text size="sm" c="dimmed">
              {skip + 1}–{Math.min(skip + UPGRADES_PAGE_SIZE, total)} of {total}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="compact-sm"
                disabled={skip === 0}
                onClick={() => setSkip(Math.max(0, skip - UPGRADES_PAGE_SIZE))}
              >
                Newer
              </Button>
              <Button
                variant="default"
                size="compact-sm"
                disabled={skip + UPGRADES_PAGE_SIZE >= total}
                onClick={() => setSkip(skip + UPGRADES_PAGE_SIZE)}
              >
                Older
              </Button>
            </Group>
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
