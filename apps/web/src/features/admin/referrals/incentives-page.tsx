import {
  INCENTIVES_POLICIES,
  INCENTIVES_POLICY_LABELS,
  type IncentivesPolicy,
  type IncentivesPolicyName,
  type ReferralPartner,
} from '@florin/contracts';
import {
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Radio,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { INCENTIVES_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useIncentivesPolicy, useSaveIncentivesPolicy } from './api/incentives-policy';
import { useAdminPromoCodes, useCreatePromoCode, useSetPromoCodeActive } from './api/promo-codes';
import { useReferralPartner, useSaveReferralPartner } from './api/referral-partner';

/**
 * Referrals and promo codes in the back office (issue 10): the incentives
 * policy and commission rate, partner accounts' custom links, and promo codes.
 * A superadmin's screen: incentives to invest are a regulatory matter.
 */
export function IncentivesPage() {
  const staff = useSignedInStaff();
  if (!mayOpen(staff.role, INCENTIVES_SCREEN_ROLES)) return <AdminNotFound />;
  return (
    <Stack gap="xl">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        Referrals and promo codes
      </Title>
      <PolicySection />
      <PartnerSection />
      <PromoSection />
    </Stack>
  );
}

function PolicySection() {
  const policy = useIncentivesPolicy();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} fz="h3">
          Incentives policy
        </Title>
        <Text size="sm" c="dimmed">
          UK rules ban inducements to invest for UK retail customers. The policy decides who earns referral
          commission and who may use promo benefits.
        </Text>
        {policy.data ? <PolicyForm policy={policy.data} /> : <Skeleton h={160} />}
      </Stack>
    </Paper>
  );
}

function PolicyForm({ policy }: { policy: IncentivesPolicy }) {
  const save = useSaveIncentivesPolicy();
  const [name, setName] = useState<IncentivesPolicyName>(policy.policy);
  const [percent, setPercent] = useState<string>(policy.commission_percent);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { policy: name, commission_percent: percent },
      { onSuccess: (answer) => showSuccessToast({ id: 'policy', title: 'Saved', message: answer.message }) },
    );
  };

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap="md" align="flex-start">
        <Radio.Group
          label="Who may earn commission and use promo benefits"
          value={name}
          onChange={(value) => setName(value)}
        >
          <Stack gap={6} mt="xs">
            {INCENTIVES_POLICIES.map((value) => (
              <Radio key={value} value={value} label={INCENTIVES_POLICY_LABELS[value]} />
            ))}
          </Stack>
        </Radio.Group>
        <NumberInput
          label="Commission (percent of the referred customer's trading fees)"
          value={percent}
          onChange={(value) => setPercent(String(value))}
          min={0}
          max={100}
          decimalScale={4}
          suffix=" %"
          w={{ base: '100%', sm: 360 }}
        />
        {policy.updated_at ? (
          <Text size="xs" c="dimmed">
            Last changed {formatDateTime(policy.updated_at)}
          </Text>
        ) : null}
        <Button type="submit" loading={save.isPending}>
          Save policy
        </Button>
      </Stack>
    </form>
  );
}

function PartnerSection() {
  const [idText, setIdText] = useState('');
  const [userId, setUserId] = useState<number | null>(null);
  const partner = useReferralPartner(userId);

  const handleFind = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(idText);
    setUserId(Number.isInteger(id) && id > 0 ? id : null);
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} fz="h3">
          Partner accounts
        </Title>
        <Text size="sm" c="dimmed">
          Switch on a custom referral link (slug and logo) for a partner account.
        </Text>
        <form onSubmit={handleFind}>
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Customer id"
              value={idText}
              onChange={(event) => setIdText(event.currentTarget.value)}
              inputMode="numeric"
              w={160}
            />
            <Button type="submit" variant="light">
              Find
            </Button>
          </Group>
        </form>
        {partner.data ? <PartnerForm key={partner.data.user_id} partner={partner.data} /> : null}
      </Stack>
    </Paper>
  );
}

function PartnerForm({ partner }: { partner: ReferralPartner }) {
  const save = useSaveReferralPartner();
  const [isOn, setIsOn] = useState(partner.has_custom_referral);
  const [slug, setSlug] = useState(partner.slug ?? '');
  const [logo, setLogo] = useState(partner.logo_url ?? '');
  const [error, setError] = useState<string | undefined>();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    save.mutate(
      {
        userId: partner.user_id,
        body: {
          has_custom_referral: isOn,
          slug: slug.trim() === '' ? null : slug.trim(),
          logo_url: logo.trim() === '' ? null : logo.trim(),
        },
      },
      {
        onSuccess: (answer) => showSuccessToast({ id: 'partner', title: 'Saved', message: answer.message }),
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status === 422) setError(describeError(appError));
          else reportError(appError);
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {partner.email} · referral code {partner.referral_code}
        </Text>
        <Switch
          label="Custom referral link (has_custom_referral)"
          checked={isOn}
          onChange={(event) => setIsOn(event.currentTarget.checked)}
        />
        <TextInput
          label="Slug"
          value={slug}
          onChange={(event) => setSlug(event.currentTarget.value)}
          error={error}
          w={{ base: '100%', sm: 360 }}
        />
        <TextInput
          label="Logo URL"
          value={logo}
          onChange={(event) => setLogo(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button type="submit" loading={save.isPending}>
          Save partner
        </Button>
      </Stack>
    </form>
  );
}

function PromoSection() {
  const codes = useAdminPromoCodes();
  const create = useCreatePromoCode();
  const setActive = useSetPromoCodeActive();
  const [code, setCode] = useState('');
  const [discount, setDiscount] = useState<string>('25');
  const [days, setDays] = useState<number>(30);
  const [validUntil, setValidUntil] = useState('');
  const [error, setError] = useState<string | undefined>();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    create.mutate(
      {
        code: code.trim(),
        discount_percent: discount,
        duration_days: days,
        valid_until: validUntil === '' ? null : validUntil,
      },
      {
        onSuccess: (answer) => {
          setCode('');
          showSuccessToast({ id: 'promo', title: 'Saved', message: answer.message });
        },
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status === 422) setError(describeError(appError));
          else reportError(appError);
        },
      },
    );
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} fz="h3">
          Promo codes
        </Title>
        <Text size="sm" c="dimmed">
          A code gives a fee discount for a number of days from the day a customer applies it. Each customer
          applies a code once.
        </Text>
        <form onSubmit={handleSubmit}>
          <Group align="flex-start" gap="sm">
            <TextInput
              label="Code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={error}
              w={{ base: '100%', sm: 200 }}
            />
            <NumberInput
              label="Fee discount"
              value={discount}
              onChange={(value) => setDiscount(String(value))}
              min={0}
              max={100}
              suffix=" %"
              w={{ base: '100%', sm: 140 }}
            />
            <NumberInput
              label="Days"
              value={days}
              onChange={(value) => setDays(Number(value))}
              min={1}
              max={3650}
              allowDecimal={false}
              w={{ base: '100%', sm: 110 }}
            />
            <TextInput
              label="Last day to apply"
              type="date"
              value={validUntil}
              onChange={(event) => setValidUntil(event.currentTarget.value)}
              w={{ base: '100%', sm: 180 }}
            />
          </Group>
          <Button type="submit" mt="sm" loading={create.isPending}>
            Create code
          </Button>
        </form>
        {!codes.data ? (
          <Skeleton h={80} />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label="Promo codes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Discount</Table.Th>
                  <Table.Th>Days</Table.Th>
                  <Table.Th>Last day</Table.Th>
                  <Table.Th>Applied</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {codes.data.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{row.code}</Table.Td>
                    <Table.Td>{row.discount_percent}%</Table.Td>
                    <Table.Td>{row.duration_days}</Table.Td>
                    <Table.Td>{row.valid_until ?? '—'}</Table.Td>
                    <Table.Td>{row.times_applied}</Table.Td>
                    <Table.Td>
                      <Badge color={row.is_active ? 'teal' : 'gray'} variant="light">
                        {row.is_active ? 'Active' : 'Stopped'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        onClick={() => setActive.mutate({ id: row.id, isActive: !row.is_active })}
                      >
                        {row.is_active ? 'Stop' : 'Restart'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
