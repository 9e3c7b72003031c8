import type { AdminBankAccount } from '@florin/contracts';
import { Alert, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime } from '../../../../lib/format';
import { Fact } from '../../compliance/components/customer-facts';
import { ReasonModal } from '../../compliance/components/reason-modal';
import { useCustomerBankAccounts } from '../api/get-bank-accounts';
import { useVerifyBankAccount } from '../api/verify-bank-account';

const VERIFIED_BY_LABELS: Record<NonNullable<AdminBankAccount['verified_by']>, string> = {
  deposit: 'a deposit from this account in the customer’s name',
  staff: 'staff, by hand',
};

function currencyOf(account: AdminBankAccount): string {
  return account.currency_code ?? 'GBP';
}

/** Enough of a number to match it against a statement without showing all of it. */
function endingOf(value: string | null): string | null {
  const digits = (value ?? '').replace(/[\s-]/g, '');
  return digits ? `•••• ${digits.slice(-4)}` : null;
}

function formatSortCode(value: string): string {
  return /^\d{6}$/.test(value) ? value.replace(/(\d{2})(\d{2})(\d{2})/, '$1-$2-$3') : value;
}

/** Unverified accounts take no withdrawals at all, whatever the 24-hour wait says. */
function withdrawalsFrom(account: AdminBankAccount): string {
  const after = account.withdrawals_allowed_from ? formatDateTime(account.withdrawals_allowed_from) : null;
  if (account.verified) return after ?? 'Now';
  return after ? `${after}, once verified` : 'Once verified';
}

function BankAccountEntry({
  account,
  onVerify,
}: {
  account: AdminBankAccount;
  onVerify: (account: AdminBankAccount) => void;
}) {
  const currency = currencyOf(account);
  const isGbp = currency === 'GBP';
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={`${currency} bank account`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {currency} · {account.name_of_account}
            </Text>
            <Text size="xs" c="dimmed">
              Registered {formatDateTime(account.created_at)} · details last changed{' '}
              {formatDateTime(account.updated_at)}
            </Text>
          </Stack>
          {account.verified ? (
            <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
              Verified
            </Badge>
          ) : (
            <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
              Not verified
            </Badge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          {isGbp ? (
            <>
              <Fact label="Sort code">{formatSortCode(account.bank_sort_code)}</Fact>
              <Fact label="Account number">{endingOf(account.bank_account_number)}</Fact>
            </>
          ) : (
            <>
              <Fact label="IBAN">{endingOf(account.international_iban ?? account.bank_sort_code)}</Fact>
              <Fact label="BIC">{account.bank_account_number}</Fact>
            </>
          )}
          <Fact label="Verification">
            {account.verified
              ? `By ${VERIFIED_BY_LABELS[account.verified_by ?? 'staff']}${
                  account.verified_at ? `, ${formatDateTime(account.verified_at)}` : ''
                }`
              : 'Not yet'}
          </Fact>
          <Fact label="Withdrawals allowed from">{withdrawalsFrom(account)}</Fact>
        </SimpleGrid>
        {!account.verified && (
          <Group justify="flex-end">
            <Button size="compact-sm" color="teal" onClick={() => onVerify(account)}>
              Verify
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The customer's bank accounts for finance (DECISIONS.md [7]): an account is
 * verified by a deposit from the account in the customer's name, or here by staff
 * after checking it is theirs; withdrawals go only to a verified account.
 */
export function BankAccountsTab({ userId, customerName }: { userId: number; customerName: string }) {
  const accounts = useCustomerBankAccounts(userId);
  const verify = useVerifyBankAccount(userId);
  const [verifying, setVerifying] = useState<AdminBankAccount | null>(null);

  if (accounts.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading bank accounts" />
      </Group>
    );
  }
  if (accounts.isError) {
    return (
      <Alert color="red" title="The bank accounts could not be loaded">
        <Button size="compact-sm" variant="light" color="red" onClick={() => void accounts.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (accounts.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {customerName} has not registered a bank account.
      </Text>
    );
  }

  const handleVerify = async (reason: string) => {
    if (!verifying) throw new Error('No bank account is being verified.');
    return verify.mutateAsync({ id: verifying.id, reason });
  };

  const currency = verifying ? currencyOf(verifying) : '';
  return (
    <Stack gap="xs">
      <Group gap="xs" justify="space-between">
        <Text size="sm" c="dimmed">
          Withdrawals go only to a verified account. Verify one by hand only after checking it is in{' '}
          {customerName}’s name.
        </Text>
        {accounts.isFetching && <Loader size="xs" aria-label="Updating bank accounts" />}
      </Group>
      <Stack component="ul" aria-label="Bank accounts" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {accounts.data.map((account) => (
          <BankAccountEntry key={account.id} account={account} onVerify={setVerifying} />
        ))}
      </Stack>
      <ReasonModal
        opened={verifying !== null}
        onClose={() => setVerifying(null)}
        title="Verify bank account"
        description={`Only after you have checked that ${customerName}’s ${currency} account ${
          verifying?.name_of_account ? `“${verifying.name_of_account}” ` : ''
        }is in their name, for example on a bank statement. Withdrawals can then go to it once any 24-hour wait after a change of details has passed.`}
        reasonLabel="How you checked the account is theirs"
        confirmLabel="Verify"
        color="teal"
        isPending={verify.isPending}
        onSubmit={handleVerify}
        successTitle="Bank account verified"
        errorTitle="Not verified"
      />
    </Stack>
  );
}
