import {
  AFFILIATE_CLAIM_PURPOSE,
  REFERRALS_TEXTS,
  type AffiliateEarnings,
  type ReferralOverview,
} from '@florin/contracts';
import {
  Alert,
  Button,
  CopyButton,
  Group,
  Image,
  Paper,
  PinInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { LoadFailed } from '../../components/load-failed';
import { SendCodeButton } from '../../components/send-code-button';
import { describeError, reportError, toAppError } from '../../lib/errors';
import { formatPounds } from '../../lib/format';
import { showErrorToast, showSuccessToast } from '../../lib/toasts';
import { useAffiliateEarnings } from './api/get-affiliate-earnings';
import { useReferralOverview } from './api/get-referral-overview';
import { newClaimKey, useClaimEarnings } from './api/claim-affiliate-earnings';
import { useCustomReferral, useSaveCustomReferral } from './api/custom-referral';

const CODE_LENGTH = 6;

/** The Account page's Referrals tab (spec 002 §2.2): the link, the partner's slug, the earnings and Claim. */
export function ReferralsTab() {
  const overview = useReferralOverview();
  if (!overview.data)
    return overview.isError ? (
      <LoadFailed what="Your referrals" onRetry={() => void overview.refetch()} />
    ) : (
      <Skeleton h={220} radius="md" />
    );
  const data = overview.data;
  return (
    <Stack gap="lg">
      <ReferralLink
        label={REFERRALS_TEXTS.linkLabel}
        link={`${window.location.origin}${data.referral_path}`}
      />
      {data.has_custom_referral ? <CustomReferralForm /> : null}
      <Earnings overview={data} />
    </Stack>
  );
}

function ReferralLink({ label, link }: { label: string; link: string }) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label={label} value={link} readOnly style={{ flex: 1, minWidth: 0 }} />
      <CopyButton value={link}>
        {({ copied, copy }) => (
          <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
            {copied ? REFERRALS_TEXTS.copied : REFERRALS_TEXTS.copy}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function CustomReferralForm() {
  const custom = useCustomReferral(true);
  const save = useSaveCustomReferral();
  const [slug, setSlug] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const value = slug ?? custom.data?.slug ?? '';

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    save.mutate(value.trim(), {
      onSuccess: (response) => {
        setSlug(null);
        showSuccessToast({
          id: 'referral-slug',
          title: REFERRALS_TEXTS.customTitle,
          message: response.message,
        });
      },
      onError: (failure) => {
        const appError = toAppError(failure);
        if (appError.status === 422) setError(describeError(appError));
        else reportError(appError);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {REFERRALS_TEXTS.customTitle}
          </Title>
          {custom.data?.logo_url ? (
            <Image src={custom.data.logo_url} alt="" h={48} w="auto" fit="contain" />
          ) : null}
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label={REFERRALS_TEXTS.slugLabel}
              description={REFERRALS_TEXTS.slugHint}
              value={value}
              onChange={(event) => setSlug(event.currentTarget.value)}
              error={error}
              style={{ flex: 1, minWidth: 0 }}
            />
          </Group>
          <Group>
            <Button type="submit" loading={save.isPending} disabled={value.trim() === ''}>
              {REFERRALS_TEXTS.save}
            </Button>
          </Group>
          {custom.data?.slug ? (
            <ReferralLink
              label={REFERRALS_TEXTS.customTitle}
              link={`${window.location.origin}/${custom.data.slug}`}
            />
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

function Amount({ label, value }: { label: string; value: string | undefined }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value === undefined ? '—' : (formatPounds(value) ?? value)}
      </Text>
    </Paper>
  );
}

function Earnings({ overview }: { overview: ReferralOverview }) {
  const earnings = useAffiliateEarnings(0);
  const data = earnings.data;
  const hasEarned = data !== undefined && Number(data.amount_total) > 0;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} fz="h4">
          {REFERRALS_TEXTS.earningsTitle}
        </Title>
        {overview.is_eligible ? (
          <Text size="sm" c="dimmed">
            {REFERRALS_TEXTS.commissionExplained} ({overview.commission_percent}%)
          </Text>
        ) : (
          <Alert color="gray" role="note">
            {REFERRALS_TEXTS.notEligible}
          </Alert>
        )}
        {/* An excluded customer sees the explanation only, unless they earned before the policy changed. */}
        {overview.is_eligible || hasEarned ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
              <Amount label={REFERRALS_TEXTS.earned} value={data?.amount_total} />
              <Amount label={REFERRALS_TEXTS.earnedUnpaid} value={data?.amount_available} />
              <Amount label={REFERRALS_TEXTS.earnedPaid} value={data?.amount_withdrawn} />
              <Amount label={REFERRALS_TEXTS.earnedWaiting} value={data?.amount_pending} />
            </SimpleGrid>
            {data ? (
              <ClaimForm overview={overview} earnings={data} />
            ) : earnings.isError ? (
              <LoadFailed what="Your earnings" onRetry={() => void earnings.refetch()} />
            ) : null}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ClaimForm({ overview, earnings }: { overview: ReferralOverview; earnings: AffiliateEarnings }) {
  const claim = useClaimEarnings();
  const [passcode, setPasscode] = useState('');
  const [passcodeError, setPasscodeError] = useState<string | undefined>();
  const [isBankMissing, setIsBankMissing] = useState(false);
  // One key per attempt; a retry after a network failure sends the same one.
  const key = useRef(newClaimKey());
  const unpaid = Number(earnings.amount_available);

  const handleClaim = (event: FormEvent) => {
    event.preventDefault();
    setPasscodeError(undefined);
    // Spec 002 §5: without a registered bank the claim warns first.
    if (!overview.has_bank_account) {
      setIsBankMissing(true);
      return;
    }
    if (overview.passcode_required && passcode.length !== CODE_LENGTH) {
      setPasscodeError(REFERRALS_TEXTS.passcodeRequired);
      return;
    }
    claim.mutate(
      {
        body: {
          withdraw_amount: earnings.amount_available,
          passcode: overview.passcode_required ? passcode : null,
        },
        idempotencyKey: key.current,
      },
      {
        onSuccess: (response) => {
          key.current = newClaimKey();
          setPasscode('');
          showSuccessToast({
            id: 'affiliate-claim',
            title: REFERRALS_TEXTS.claim,
            message: response.message,
          });
        },
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status < 500) key.current = newClaimKey();
          if (appError.code === 'BANK_ACCOUNT_NOT_SET' && appError.message === REFERRALS_TEXTS.bankRequired) {
            setIsBankMissing(true);
            return;
          }
          if (appError.data?.passcode) {
            setPasscodeError(appError.message);
            return;
          }
          // 400 the message, 422 the list, anything else the generic text.
          showErrorToast({
            id: 'affiliate-claim-failed',
            title: REFERRALS_TEXTS.claim,
            message: describeError(appError),
          });
        },
      },
    );
  };

  return (
    <form onSubmit={handleClaim} noValidate>
      <Stack gap="sm" align="flex-start">
        {isBankMissing ? (
          <Alert color="orange" title={REFERRALS_TEXTS.bankRequiredTitle} role="alert">
            {REFERRALS_TEXTS.bankRequired}
          </Alert>
        ) : null}
        {overview.passcode_required ? (
          <Stack gap={4}>
            <Text component="label" htmlFor="claim-passcode" size="sm" fw={500}>
              {REFERRALS_TEXTS.passcodeLabel}
            </Text>
            <Group gap="xs" align="center">
              <PinInput
                id="claim-passcode"
                length={CODE_LENGTH}
                type="number"
                oneTimeCode
                value={passcode}
                onChange={setPasscode}
                error={passcodeError !== undefined}
                aria-label={REFERRALS_TEXTS.passcodeLabel}
              />
              {overview.email_codes ? (
                <SendCodeButton purpose={AFFILIATE_CLAIM_PURPOSE} size="compact-sm" />
              ) : null}
            </Group>
            {passcodeError ? (
              <Text size="sm" c="red" role="alert">
                {passcodeError}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        <Button type="submit" disabled={!(unpaid > 0)} loading={claim.isPending}>
          {REFERRALS_TEXTS.claim}
        </Button>
      </Stack>
    </form>
  );
}
