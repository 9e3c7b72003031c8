import {
  COMPLIANCE_ROLES,
  CUSTOMER_ACTION_ROLES,
  CLOSURE_TEXTS,
  CUSTOMER_READ_ROLES,
  type CustomerProfile,
} from '@florin/contracts';
import { Alert, Anchor, Badge, Button, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { reportError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { ADMIN_PATHS, complianceCasePath } from '../admin-paths';
import { AccountBadges } from '../compliance/account-badges';
import {
  CustomerFacts,
  DocumentStatusBadge,
  Fact,
  Section,
  VerificationStepList,
} from '../compliance/components/customer-facts';
import { ReasonModal } from '../compliance/components/reason-modal';
import { AdminNotFound } from '../components/admin-not-found';
import { FIAT_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useSetLegalHold, useTerminateAccount } from './api/account-end';
import { useCustomer } from './api/get-customer';
import { useResetCustomerTwoFactor } from './api/reset-two-factor';
import { useSetEmailCodes } from './api/set-email-codes';
import { useSignOutCustomer } from './api/sign-out';
import { BankAccountsTab } from './components/bank-accounts-tab';
import { EditIdentityModal } from './components/edit-identity-modal';
import {
  Loading,
  Failed,
  BalancesTab,
  HistoryTab,
  SessionsTab,
  InvestorEvidenceTab,
} from './components/customer-tabs';

const TABS = [
  'profile',
  'verification',
  'investor',
  'balances',
  'bank-accounts',
  'history',
  'sessions',
] as const;
type CustomerTab = (typeof TABS)[number];
const TAB_LABELS: Record<CustomerTab, string> = {
  profile: 'Profile',
  verification: 'Verification',
  investor: 'Investor journey',
  balances: 'Balances',
  'bank-accounts': 'Bank accounts',
  history: 'History',
  sessions: 'Sessions',
};

function tabFrom(value: string | null, tabs: readonly CustomerTab[]): CustomerTab {
  return tabs.find((tab) => tab === value) ?? 'profile';
}

function userIdFrom(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

function yesNo(value: boolean): string {
  return value ? 'On' : 'Off';
}

function ProfileTab({ customer }: { customer: CustomerProfile }) {
  return (
    <Stack gap="md">
      <Section title="Personal details">
        <CustomerFacts customer={customer} />
      </Section>
      <Section title="Sign-in and security">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Fact label="Email confirmed">{customer.email_verified ? 'Yes' : 'No'}</Fact>
          <Fact label="New email awaiting confirmation">{customer.pending_email}</Fact>
          <Fact label="Authenticator (2FA)">{yesNo(customer.two_factor_enabled)}</Fact>
          <Fact label="Recovery codes left">{String(customer.recovery_codes_left)}</Fact>
          <Fact label="E-mailed sign-in codes">{yesNo(customer.email_codes)}</Fact>
          <Fact label="Last sign-in">
            {customer.last_login_at ? formatDateTime(customer.last_login_at) : null}
          </Fact>
          <Fact label="2FA last reset by staff">
            {customer.two_factor_reset_at ? formatDateTime(customer.two_factor_reset_at) : null}
          </Fact>
          <Fact label="Withdrawals blocked until">
            {customer.withdrawals_blocked_until ? formatDateTime(customer.withdrawals_blocked_until) : null}
          </Fact>
        </SimpleGrid>
      </Section>
      <Section title="Account">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Fact label="Account type">{customer.account_type}</Fact>
          <Fact label="Platform">{customer.platform === 2 ? 'Trading account' : 'Instant account'}</Fact>
          <Fact label="Live since">{customer.live_since ? formatDateTime(customer.live_since) : null}</Fact>
          <Fact label="Hold reason">{customer.block_reason}</Fact>
        </SimpleGrid>
      </Section>
    </Stack>
  );
}

function VerificationTab({ customer, canReview }: { customer: CustomerProfile; canReview: boolean }) {
  return (
    <Stack gap="md">
      {canReview && (
        <Anchor component={Link} to={complianceCasePath(customer.id)} size="sm">
          Open the compliance case to review documents
        </Anchor>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Steps">
          <VerificationStepList steps={customer.steps} />
        </Section>
        <Section title="Documents">
          {customer.documents.length === 0 ? (
            <Text size="sm" c="dimmed">
              No documents uploaded yet.
            </Text>
          ) : (
            <Stack gap="xs">
              {customer.documents.map((document) => (
                <Stack key={document.id} gap={2}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm">
                      {document.label}
                      {document.director_name ? ` — ${document.director_name}` : ''}
                    </Text>
                    <DocumentStatusBadge status={document.status} />
                  </Group>
                  {document.disapprove_note && (
                    <Text size="xs" c="red">
                      {document.disapprove_note}
                    </Text>
                  )}
                </Stack>
              ))}
            </Stack>
          )}
        </Section>
      </SimpleGrid>
    </Stack>
  );
}

/** Where the account's end stands now: notice running, withdraw-only, or closed. */
function accountEndTitle(terminatedAt: string, accessEndsAt: string): string {
  const now = Date.now();
  if (Date.parse(accessEndsAt) <= now) return 'Closed';
  return Date.parse(terminatedAt) <= now ? 'Terminated: withdraw-only' : 'Notice of termination given';
}

type ComplianceModal = 'terminate' | 'legal-hold' | null;

/** Compliance's actions on the account's end (issue 13): termination with notice, and the legal hold. */
function AccountEndActions({ customer }: { customer: CustomerProfile }) {
  const [open, setOpen] = useState<ComplianceModal>(null);
  const terminate = useTerminateAccount(customer.id);
  const legalHold = useSetLegalHold(customer.id);
  const close = () => setOpen(null);
  const name = `${customer.first_name} ${customer.last_name}`;

  return (
    <>
      <Group gap="xs">
        {!customer.terminated_at && (
          <Button variant="default" color="red" onClick={() => setOpen('terminate')}>
            Terminate account
          </Button>
        )}
        {customer.legal_hold_reason ? (
          <Button
            variant="default"
            loading={legalHold.isPending}
            onClick={() =>
              legalHold.mutate(null, {
                onSuccess: (answer) =>
                  showSuccessToast({ title: 'Legal hold lifted', message: answer.message }),
                onError: (error) => reportError(error, { title: 'Legal hold not lifted' }),
              })
            }
          >
            Lift legal hold
          </Button>
        ) : (
          <Button variant="default" onClick={() => setOpen('legal-hold')}>
            Place legal hold
          </Button>
        )}
      </Group>
      <ReasonModal
        opened={open === 'terminate'}
        onClose={close}
        title={CLOSURE_TEXTS.terminateHeading}
        description={`${name}: ${CLOSURE_TEXTS.terminateIntro}`}
        reasonLabel="Reason (kept in the audit log)"
        confirmLabel="Give notice"
        color="red"
        isPending={terminate.isPending}
        onSubmit={(reason) => terminate.mutateAsync(reason)}
        successTitle="Notice given"
        errorTitle="Not terminated"
      />
      <ReasonModal
        opened={open === 'legal-hold'}
        onClose={close}
        title="Place a legal hold"
        description={`${name}'s personal data will be kept past the retention period until the hold is lifted.`}
        reasonLabel="Legal reason (kept in the audit log)"
        confirmLabel="Place legal hold"
        isPending={legalHold.isPending}
        onSubmit={(reason) => legalHold.mutateAsync(reason)}
        successTitle="Legal hold placed"
        errorTitle="Legal hold not placed"
      />
    </>
  );
}

type ActionModal = 'reset-2fa' | 'email-codes' | 'identity' | 'sign-out' | null;

function CustomerActions({ customer }: { customer: CustomerProfile }) {
  const [open, setOpen] = useState<ActionModal>(null);
  const resetTwoFactor = useResetCustomerTwoFactor(customer.id);
  const emailCodes = useSetEmailCodes(customer.id);
  const signOut = useSignOutCustomer(customer.id);
  const name = `${customer.first_name} ${customer.last_name}`;
  const close = () => setOpen(null);

  return (
    <>
      <Group gap="xs">
        {customer.two_factor_enabled && (
          <Button variant="light" color="red" onClick={() => setOpen('reset-2fa')}>
            Reset 2FA
          </Button>
        )}
        <Button variant="default" onClick={() => setOpen('email-codes')}>
          {customer.email_codes ? 'Switch off e-mailed codes' : 'Switch on e-mailed codes'}
        </Button>
        <Button variant="default" onClick={() => setOpen('identity')}>
          Edit name or date of birth
        </Button>
        <Button variant="default" color="red" onClick={() => setOpen('sign-out')}>
          Force sign-out
        </Button>
      </Group>
      <ReasonModal
        opened={open === 'reset-2fa'}
        onClose={close}
        title="Reset two-factor authentication"
        description={`Only after you have confirmed who is asking. ${name}'s authenticator and recovery codes are removed and every session signed out; withdrawals wait 24 hours.`}
        reasonLabel="How you confirmed who is asking"
        confirmLabel="Reset 2FA"
        color="red"
        isPending={resetTwoFactor.isPending}
        onSubmit={(reason) => resetTwoFactor.mutateAsync(reason)}
        successTitle="2FA reset"
        errorTitle="2FA not reset"
      />
      <ReasonModal
        opened={open === 'email-codes'}
        onClose={close}
        title={customer.email_codes ? 'Switch off e-mailed codes' : 'Switch on e-mailed codes'}
        description={
          customer.email_codes
            ? `${name} will no longer receive sign-in codes by e-mail. Withdrawals then wait 24 hours.`
            : `${name} will receive sign-in codes by e-mail instead of using an authenticator app. Withdrawals then wait 24 hours, and afterwards a withdrawal to an address first used in the last 24 hours waits for staff approval.`
        }
        confirmLabel={customer.email_codes ? 'Switch off' : 'Switch on'}
        isPending={emailCodes.isPending}
        onSubmit={(reason) => emailCodes.mutateAsync({ enabled: !customer.email_codes, reason })}
        successTitle="E-mailed codes"
        errorTitle="Not changed"
      />
      <ReasonModal
        opened={open === 'sign-out'}
        onClose={close}
        title="Force sign-out"
        description={`Every session of ${name} ends now, on every device.`}
        confirmLabel="Sign out everywhere"
        color="red"
        isPending={signOut.isPending}
        onSubmit={(reason) => signOut.mutateAsync(reason)}
        successTitle="Signed out"
        errorTitle="Not signed out"
      />
      <EditIdentityModal customer={customer} opened={open === 'identity'} onClose={close} />
    </>
  );
}

/** `/admin/customers/:userId` (support, compliance, finance): one customer, with support's actions. */
export function CustomerPage() {
  const me = useSignedInStaff();
  const userId = userIdFrom(useParams().userId);
  if (!mayOpen(me.role, CUSTOMER_READ_ROLES) || userId === null) return <AdminNotFound />;
  return (
    <CustomerScreen
      userId={userId}
      canAct={mayOpen(me.role, CUSTOMER_ACTION_ROLES)}
      canReview={mayOpen(me.role, COMPLIANCE_ROLES)}
      canSeeBankAccounts={mayOpen(me.role, FIAT_SCREEN_ROLES)}
    />
  );
}

function CustomerScreen({
  userId,
  canAct,
  canReview,
  canSeeBankAccounts,
}: {
  userId: number;
  canAct: boolean;
  canReview: boolean;
  /** Finance's: the bank accounts and their verification (the server answers 404 to others). */
  canSeeBankAccounts: boolean;
}) {
  const { data: customer, isError } = useCustomer(userId);
  const [searchParams, setSearchParams] = useSearchParams();
  // Bank accounts are finance's; the investor journey's evidence is compliance's (the server answers 404 to others).
  const tabs = TABS.filter(
    (value) => (value !== 'bank-accounts' || canSeeBankAccounts) && (value !== 'investor' || canReview),
  );
  const tab = tabFrom(searchParams.get('tab'), tabs);

  if (!customer) {
    return isError ? (
      <Stack gap="md">
        <Failed what="This customer" />
        <Anchor component={Link} to={ADMIN_PATHS.customers}>
          Back to customers
        </Anchor>
      </Stack>
    ) : (
      <Loading label="Loading the customer" />
    );
  }

  const name = `${customer.first_name} ${customer.last_name}`;
  const panels: Record<CustomerTab, ReactNode> = {
    profile: <ProfileTab customer={customer} />,
    verification: <VerificationTab customer={customer} canReview={canReview} />,
    investor: <InvestorEvidenceTab userId={userId} />,
    balances: <BalancesTab userId={userId} />,
    'bank-accounts': <BankAccountsTab userId={userId} customerName={name} />,
    history: <HistoryTab userId={userId} />,
    sessions: <SessionsTab userId={userId} />,
  };
  return (
    <Stack gap="md" maw={1200}>
      <title>{`${name} · Customers · Florin back office`}</title>
      <Anchor component={Link} to={ADMIN_PATHS.customers} size="sm">
        ← Customers
      </Anchor>
      <Stack gap="sm">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {name}
          </Title>
          <Group gap="xs">
            <Text size="sm" ff="monospace">
              {customer.user_identification}
            </Text>
            <Text size="sm" c="dimmed">
              {customer.email}
            </Text>
            <AccountBadges status={customer.status} blockStatus={customer.block_status} />
            {customer.withdrawals_blocked_until && (
              <Badge color="orange" variant="light">
                Withdrawals paused
              </Badge>
            )}
          </Group>
        </Stack>
        {canAct && <CustomerActions customer={customer} />}
        {canReview && <AccountEndActions customer={customer} />}
      </Stack>
      {customer.terminated_at && customer.access_ends_at && (
        <Alert color="orange" title={accountEndTitle(customer.terminated_at, customer.access_ends_at)}>
          {`Withdraw-only from ${formatDateTime(customer.terminated_at) ?? ''}; sign-in ends ${formatDateTime(customer.access_ends_at) ?? ''}.`}
        </Alert>
      )}
      {customer.legal_hold_reason && (
        <Alert color="gray" title="Legal hold">
          {customer.legal_hold_reason}
        </Alert>
      )}
      {customer.block_status === 2 && (
        <Alert color="red" title="On hold">
          {customer.block_reason ?? 'No reason recorded.'}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams({ tab: tabFrom(value, tabs) }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            {panels[value]}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
