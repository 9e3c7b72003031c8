import {
  WHITELIST_PAGE_STEP,
  WHITELIST_TEXTS,
  WhitelistIpBodySchema,
  type User,
  type WhitelistedIp,
} from '@florin/contracts';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { hasTwoFactor } from '../../lib/current-user';
import { formatDateTime } from '../../lib/format';
import { contractResolver } from '../../lib/forms';
import { showSuccessToast } from '../../lib/toasts';
import { useWhitelistedIps, type WhitelistedIpPage } from './api/list-whitelisted-ips';
import { useAddWhitelistedIp } from './api/whitelist-ip';
import { IpRemovalModal } from './components/ip-removal-modal';
import { TwoFactorRequired } from './components/two-factor-required';
import { ViewMore } from './components/view-more';
import { reportIpError } from './whitelist-errors';

const CODE_LENGTH = 6;
const IP_FIELDS = ['ip_address', 'passcode'] as const;

type IpForm = { ip_address: string; passcode: string };

const ipResolver = contractResolver<IpForm>(WhitelistIpBodySchema);

function AddIpForm({ owner, currentIp }: { owner: string; currentIp: string | undefined }) {
  const add = useAddWhitelistedIp();
  const form = useForm<IpForm>({ resolver: ipResolver, defaultValues: { ip_address: '', passcode: '' } });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    add.mutate(
      { owner, ...values },
      {
        onSuccess: () => {
          form.reset();
          showSuccessToast({ title: 'IP Whitelisting', message: WHITELIST_TEXTS.ipAdded });
        },
        onError: (error) => {
          form.setValue('passcode', '');
          reportIpError(error, { setError: form.setError, fields: IP_FIELDS });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-labelledby="add-ip-title">
      <Stack gap="md" maw={480}>
        <Title order={2} fz="lg" id="add-ip-title">
          Whitelist an IP address
        </Title>
        <TextInput
          label="IP Address"
          placeholder="203.0.113.7"
          autoComplete="off"
          spellCheck={false}
          error={errors.ip_address?.message}
          description={
            currentIp ? (
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={() => form.setValue('ip_address', currentIp, { shouldValidate: false })}
              >
                Use my current IP address
              </Anchor>
            ) : undefined
          }
          {...form.register('ip_address')}
        />
        <TextInput
          label="2FA Code"
          description="The 6-digit code from your authenticator app."
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          error={errors.passcode?.message}
          {...form.register('passcode')}
        />
        <Group>
          <Button type="submit" loading={add.isPending}>
            Whitelist IP
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function IpRow({ ip, onRemove }: { ip: WhitelistedIp; onRemove: () => void }) {
  // The server looks the place up in its own database; a private or unlisted address has none.
  const place = [ip.city, ip.country].filter(Boolean).join(', ') || 'Unknown';
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={ip.ip_address}>
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
        <Stack gap={2} miw={0}>
          <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {ip.ip_address}
          </Text>
          <Text size="xs" c="dimmed">
            {place} · Added {formatDateTime(ip.created_at)}
          </Text>
        </Stack>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={onRemove}
          aria-label={`Remove ${ip.ip_address}`}
          style={{ flexShrink: 0 }}
        >
          Remove
        </Button>
      </Group>
    </Paper>
  );
}

function IpList({
  owner,
  page,
  onViewMore,
  isLoadingMore,
}: {
  owner: string;
  page: WhitelistedIpPage;
  onViewMore: () => void;
  isLoadingMore: boolean;
}) {
  const [removing, setRemoving] = useState<WhitelistedIp | null>(null);
  return (
    <>
      {page.total === 0 && (
        <Text size="sm" c="dimmed">
          No whitelisted IP addresses yet: you can sign in from anywhere.
        </Text>
      )}
      {page.data.length > 0 && (
        <Stack
          component="ul"
          gap="xs"
          aria-label="Whitelisted IP addresses"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {page.data.map((ip) => (
            <IpRow key={ip.id} ip={ip} onRemove={() => setRemoving(ip)} />
          ))}
        </Stack>
      )}
      <ViewMore
        shown={page.data.length}
        total={page.total}
        noun="IP addresses"
        onViewMore={onViewMore}
        isLoading={isLoadingMore}
      />
      <IpRemovalModal owner={owner} ip={removing} onClose={() => setRemoving(null)} />
    </>
  );
}

/** The IP Whitelisting tab (spec 001 §2): what it does, the IP in use now, the form (2FA needed) and the list. */
export function IpWhitelistTab({ user }: { user: User }) {
  const owner = user.user_identification;
  const [limit, setLimit] = useState(WHITELIST_PAGE_STEP);
  const ips = useWhitelistedIps(owner, limit);

  return (
    <Stack gap="xl">
      <Stack gap="xs" maw={640}>
        <Text size="sm">{WHITELIST_TEXTS.ipExplainer}</Text>
        {ips.isPending ? (
          <Skeleton height={20} width={260} role="status" aria-label="Loading your current IP address" />
        ) : (
          ips.isSuccess && (
            <Text size="sm">
              Your current IP address:{' '}
              <Text span fw={700} ff="monospace" data-testid="current-ip">
                {ips.data.current_ip}
              </Text>
            </Text>
          )
        )}
      </Stack>
      {hasTwoFactor(user) ? (
        <AddIpForm owner={owner} currentIp={ips.data?.current_ip} />
      ) : (
        <TwoFactorRequired />
      )}
      <Divider />
      <Stack gap="sm" component="section" aria-labelledby="whitelisted-ips-title">
        <Title order={2} fz="lg" id="whitelisted-ips-title">
          Whitelisted IP addresses
        </Title>
        {ips.isPending && (
          <Stack gap="sm" role="status" aria-label="Loading whitelisted IP addresses">
            <Skeleton height={56} />
            <Skeleton height={56} />
          </Stack>
        )}
        {ips.isError && (
          <Alert color="red" title="Failed!" role="alert">
            <Group gap="xs">
              <Text size="sm">Your whitelisted IP addresses could not be loaded.</Text>
              <Button size="compact-sm" variant="light" onClick={() => void ips.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        )}
        {ips.isSuccess && (
          <IpList
            owner={owner}
            page={ips.data}
            onViewMore={() => setLimit((current) => current + WHITELIST_PAGE_STEP)}
            isLoadingMore={ips.isPlaceholderData}
          />
        )}
      </Stack>
    </Stack>
  );
}
