import type { FiatCurrency } from '@florin/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDepositInfo } from '../api/get-deposit-info';

export function CopyIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      aria-hidden
    >
      <path d="M5 12l5 5L20 7" />
    </svg>
  );
}

function Detail({ label, value, canCopy = false }: { label: string; value: string; canCopy?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap={6} wrap="nowrap">
        <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }} aria-label={label}>
          {value || '—'}
        </Text>
        {canCopy && value && (
          <CopyButton value={value} timeout={2_000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : `Copy the ${label.toLowerCase()}`} withArrow>
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : 'gray'}
                  onClick={copy}
                  aria-label={copied ? `${label} copied` : `Copy ${label}`}
                >
                  {copied ? <CheckIcon /> : <CopyIcon />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </Stack>
  );
}

/**
 * Where to send a bank transfer (spec 001 section 2, Fiat deposit view): for
 * GBP the provider's account, for EUR and USD the company name, BIC and IBAN
 * (DECISIONS.md: configured in the back office), and the customer's
 * reference, without which the money cannot be matched to them.
 */
export function FiatDepositView({ currency, isLive }: { currency: FiatCurrency; isLive: boolean }) {
  const info = useDepositInfo(isLive);

  // Not live or on hold: the page says so above; our bank details are not given to send money we could not
  // credit.
  if (!isLive)
    return (
      <Text size="sm" c="dimmed">
        Our bank details and your payment reference show here once your account is live.
      </Text>
    );
  if (info.isPending)
    return (
      <Stack gap="sm" role="status" aria-label="Loading the deposit details">
        <Skeleton height={20} width="50%" />
        <Skeleton height={60} />
        <Skeleton height={40} />
      </Stack>
    );
  if (info.isError)
    return (
      <Alert color="red" title="Failed!" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Our bank details could not be loaded. Please try again.</Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => void info.refetch()}
            loading={info.isFetching}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );

  const data = info.data;
  const international = data.international.find((entry) => entry.currency === currency);
  const isConfigured =
    currency === 'GBP'
      ? Boolean(data['Account Number'] && data['Sort Code'])
      : Boolean(international?.iban && international.bic);

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="deposit-details-heading"
    >
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz={{ base: 18, sm: 20 }} id="deposit-details-heading">
            Deposit {currency} by bank transfer
          </Title>
          <Text size="sm" c="dimmed">
            Send a transfer from your bank to the account below. Deposits are free.
          </Text>
        </Stack>
        {!isConfigured && (
          <Alert color="orange" title="Bank details unavailable">
            Our {currency} bank details are not available just now. Please contact support before sending
            money.
          </Alert>
        )}
        {isConfigured && currency === 'GBP' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <Detail label="Account Name" value={data['Account Name']} />
            <Detail label="Bank" value={data.Bank} />
            <Detail label="Account Number" value={data['Account Number']} canCopy />
            <Detail label="Sort Code" value={data['Sort Code']} canCopy />
          </SimpleGrid>
        )}
        {isConfigured && currency !== 'GBP' && international && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <Detail label="Company Name" value={international.company_name} />
            <Detail label="BIC" value={international.bic} canCopy />
            <Detail label="IBAN" value={international.iban} canCopy />
          </SimpleGrid>
        )}
        <Paper radius="md" p="sm" bg="var(--mantine-color-blue-light)">
          <Stack gap={4}>
            <Detail label="Reference" value={data.reference} canCopy />
            <Text size="sm">
              Put this reference on every transfer: it is how we know the money is yours. A transfer without
              it waits until our team can match it.
            </Text>
          </Stack>
        </Paper>
        <Alert color="yellow" title="Only from your own account" variant="light">
          Deposits must come from a bank account in your own name. Money from anyone else’s account is
          returned to the sender (UK anti-money-laundering rules).
        </Alert>
      </Stack>
    </Paper>
  );
}
