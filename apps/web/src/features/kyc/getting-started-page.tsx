import {
  Alert,
  Button,
  Center,
  Container,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { User } from '@florin/contracts';
import {
  currentUserQuery,
  hasTwoFactor,
  isFullyVerified,
  isOnHold,
  useCurrentUser,
} from '../../lib/current-user';
import { PATHS, SETTINGS_TABS, settingsTabPath } from '../../lib/paths';
import { RejectedView } from './rejected-view';
import { SowResetScreen } from './sow-reset-screen';
import { declinedDocuments, hasDocumentsAwaitingReview, isAwaitingReview } from './verification';
import { VerificationWizard } from './wizard/verification-wizard';

/** DECISIONS.md, Routes: the contact page (live chat is not built). */
const CONTACT_US_PATH = '/contact-us';

type Tab = 'dashboard' | 'get-started';

function StepIcon({ children, isDone }: { children: ReactNode; isDone: boolean }) {
  return (
    <ThemeIcon size={24} radius="xl" variant={isDone ? 'light' : 'outline'} aria-hidden>
      <Text fz="xs" fw={800}>
        {isDone ? '✓' : children}
      </Text>
    </ThemeIcon>
  );
}

function verificationStatus(user: User): { text: string; isDone: boolean } {
  if (user.verification_completed !== 1) return { text: 'Verify your identity', isDone: false };
  if (hasDocumentsAwaitingReview(user))
    return { text: 'Identity verification: awaiting review', isDone: false };
  return { text: 'Identity verified: your account is being activated', isDone: true };
}

/** The Dashboard tab before the account is live: where the customer stands, and what comes next. */
function DashboardTab({ user }: { user: User }) {
  const isSecured = hasTwoFactor(user);
  const status = verificationStatus(user);
  return (
    <Stack gap="lg">
      {isAwaitingReview(user) && (
        <Alert color="florin" variant="light" title="We are reviewing your documents" role="status">
          Get Started is closed while our compliance team reviews what you sent. We usually finish within 1-2
          hours (24 hours at weekends) and email you when your account is live or if we need anything else.
        </Alert>
      )}
      <List spacing="sm" center>
        <List.Item icon={<StepIcon isDone>1</StepIcon>}>Email address confirmed</List.Item>
        <List.Item icon={<StepIcon isDone={isSecured}>2</StepIcon>}>
          {isSecured ? 'Two-factor authentication on' : 'Turn on two-factor authentication'}
        </List.Item>
        <List.Item icon={<StepIcon isDone={status.isDone}>3</StepIcon>}>{status.text}</List.Item>
      </List>
      {isSecured && (
        <Group>
          <Button component={Link} to={PATHS.settings} variant="default">
            Go to Settings
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Shown above the tabs until 2FA is on: it protects the account while verification goes on. */
function TwoFactorReminder() {
  return (
    <Alert color="yellow" variant="light" title="Protect your account" role="note">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          Turn on two-factor authentication so nobody else can sign in with your password.
        </Text>
        <Button
          component={Link}
          to={settingsTabPath(SETTINGS_TABS.twoFactor)}
          size="xs"
          variant="white"
          color="dark"
        >
          Set up two-factor authentication
        </Button>
      </Stack>
    </Alert>
  );
}

/** Finished and approved, waiting for staff to make the account live. */
function ActivationPending() {
  return (
    <Alert color="teal" variant="light" title="Verification complete" role="status">
      Thank you. Your documents are approved and we are activating your account; we will email you when it is
      ready.
    </Alert>
  );
}

type GettingStartedTabsProps = { user: User; onSignOut: () => void; onReload: () => Promise<void> };

function GettingStartedTabs({ user, onSignOut, onReload }: GettingStartedTabsProps) {
  const onHold = isOnHold(user);
  const isClosed = onHold || isAwaitingReview(user);
  // Chosen once: a refetch in the middle of a step (or its completion dialog) must not move the customer away.
  const [tab, setTab] = useState<Tab>(isClosed ? 'dashboard' : 'get-started');

  return (
    <Stack gap="md">
      {!hasTwoFactor(user) && <TwoFactorReminder />}
      <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
        <Group justify="space-between" align="flex-end" gap="sm" mb="md">
          <Tabs.List style={{ flex: 1 }}>
            <Tabs.Tab value="dashboard">Dashboard</Tabs.Tab>
            {!onHold && (
              <Tabs.Tab value="get-started" disabled={isAwaitingReview(user)}>
                Get Started
              </Tabs.Tab>
            )}
          </Tabs.List>
          {onHold && (
            <Button component={Link} to={CONTACT_US_PATH} size="sm">
              Contact Us
            </Button>
          )}
        </Group>
        <Tabs.Panel value="dashboard">
          {onHold && (
            <Text size="sm" mb="md">
              Your account is on hold, so verification cannot continue for now. Please contact us.
            </Text>
          )}
          <DashboardTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="get-started">
          {/* Handed in, but a step gone missing since (a new address needs its proof): the wizard asks for it. */}
          {user.verification_completed === 1 && isFullyVerified(user) && !hasDocumentsAwaitingReview(user) ? (
            <ActivationPending />
          ) : (
            <VerificationWizard user={user} onSignOut={onSignOut} onFinished={onReload} />
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

type GettingStartedPageProps = {
  /** Signs the customer out: the Trade choice ends with it (spec 000 section 4). */
  onSignOut: () => void;
};

/**
 * What a signed-in customer who is not live yet sees instead of the page they asked for (spec 000
 * section 2): the source-of-wealth reset screen when staff asked for it, the Rejected view while a
 * document is declined, otherwise the Dashboard and Get Started tabs with the wizard.
 */
export function GettingStartedPage({ onSignOut }: GettingStartedPageProps) {
  const queryClient = useQueryClient();
  const { data: user, isPending, refetch } = useCurrentUser();
  // A new key starts the tabs afresh after the wizard's "reload".
  const [reloadCount, setReloadCount] = useState(0);

  const handleReload = () =>
    queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }).then(() => {
      setReloadCount((count) => count + 1);
    });

  let content: ReactNode;
  let heading = 'Getting Started';
  if (!user) {
    content = isPending ? (
      <Center py="xl" role="status" aria-label="Loading your verification">
        <Loader />
      </Center>
    ) : (
      <Stack align="flex-start" role="alert">
        <Text>Your verification could not be loaded.</Text>
        <Button onClick={() => void refetch()}>Try again</Button>
      </Stack>
    );
  } else if (user.is_sow_reset === 1) {
    heading = 'Source of Wealth';
    content = <SowResetScreen user={user} />;
  } else {
    const declined = declinedDocuments(user);
    content =
      declined.length > 0 ? (
        <RejectedView user={user} declined={declined} />
      ) : (
        <GettingStartedTabs key={reloadCount} user={user} onSignOut={onSignOut} onReload={handleReload} />
      );
  }

  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'xs', sm: 'md' }}>
      <title>{`${heading} · Florin`}</title>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'xl' }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={{ base: 26, sm: 32 }}>
              {heading}
            </Title>
            {user && <Text c="dimmed">Welcome to Florin, {user.first_name}.</Text>}
          </Stack>
          {content}
        </Stack>
      </Paper>
    </Container>
  );
}
