import type { User } from '@florin/contracts';
import {
  Anchor,
  Badge,
  Box,
  Button,
  CopyButton,
  Group,
  List,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { PasscodeField } from '../../components/passcode-field';
import { hasTwoFactor, useRefreshCurrentUser } from '../../lib/current-user';
import { reportError, toAppError } from '../../lib/errors';
import { showSuccessToast } from '../../lib/toasts';
import { useCreateTwoFactorSecret, useSwitchTwoFactor, type TwoFactorSecret } from './api/two-factor';
import { DisableTwoFactorModal } from './components/disable-two-factor-modal';
import { RecoveryCodesModal } from './components/recovery-codes-modal';

const AUTHENTICATOR_APPS = [
  {
    name: 'Google Authenticator',
    links: [
      {
        store: 'Android',
        href: 'https://play.google.com/store/apps/details?id=com.google.android.apps.authenticator2',
      },
      { store: 'iPhone', href: 'https://apps.apple.com/gb/app/google-authenticator/id388497605' },
    ],
  },
  {
    name: 'Microsoft Authenticator',
    links: [
      { store: 'Android', href: 'https://play.google.com/store/apps/details?id=com.azure.authenticator' },
      { store: 'iPhone', href: 'https://apps.apple.com/gb/app/microsoft-authenticator/id983156458' },
    ],
  },
] as const;

/** The secret in groups of four, as authenticator apps print it, so it is easier to type. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function PageHeading({ step, title }: { step?: string; title: string }) {
  return (
    <Stack gap={4}>
      {step && (
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {step}
        </Text>
      )}
      <Title order={2} fz="lg">
        {title}
      </Title>
    </Stack>
  );
}

/** p1: what 2FA is, and the apps to install. */
function IntroPage({ onNext, isLoading }: { onNext: () => void; isLoading: boolean }) {
  return (
    <Stack gap="md" maw={560}>
      <PageHeading step="Step 1 of 3" title="Protect your account with an authenticator app" />
      <Text size="sm">
        Two-factor authentication asks for a 6-digit code from an app on your phone each time you sign in, so
        your password alone is not enough to get into your account. You need it to whitelist IP addresses and
        withdrawal wallets.
      </Text>
      <Text size="sm">Install an authenticator app if you do not have one yet:</Text>
      <List spacing="xs" size="sm">
        {AUTHENTICATOR_APPS.map((app) => (
          <List.Item key={app.name}>
            {app.name}:{' '}
            {app.links.map((link, index) => (
              <span key={link.store}>
                {index > 0 && ' · '}
                <Anchor href={link.href} target="_blank" rel="noreferrer" inherit>
                  {link.store}
                </Anchor>
              </span>
            ))}
          </List.Item>
        ))}
      </List>
      <Group>
        <Button onClick={onNext} loading={isLoading}>
          Set up two-factor authentication
        </Button>
      </Group>
    </Stack>
  );
}

/** p2: the QR code, drawn here from the otpauth address, and the secret to type in instead. */
function ScanPage({
  secret,
  onNext,
  onBack,
}: {
  secret: TwoFactorSecret;
  onNext: () => void;
  onBack: () => void;
}) {
  const grouped = groupSecret(secret.secret);
  return (
    <Stack gap="md" maw={560}>
      <PageHeading step="Step 2 of 3" title="Scan the QR code" />
      <Text size="sm">Open your authenticator app, add an account and scan this code.</Text>
      <Box
        p="sm"
        bg="white"
        w="fit-content"
        bd="1px solid var(--mantine-color-gray-3)"
        style={{ borderRadius: 8 }}
      >
        <QRCodeSVG
          value={secret.qr_url}
          size={184}
          marginSize={2}
          role="img"
          aria-label="QR code for your authenticator app"
        />
      </Box>
      <Text size="sm">Can&apos;t scan it? Type this key into the app instead:</Text>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          label="Secret key"
          value={grouped}
          readOnly
          autosize
          minRows={1}
          spellCheck={false}
          style={{ flex: 1, maxWidth: 460 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.05em' } }}
        />
        <CopyButton value={secret.secret}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group>
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onNext}>Next</Button>
      </Group>
    </Stack>
  );
}

/** p3: a code from the new secret turns 2FA on. */
function ConfirmPage({
  onSubmit,
  onBack,
  isSubmitting,
}: {
  onSubmit: (passcode: string) => Promise<boolean>;
  onBack: () => void;
  isSubmitting: boolean;
}) {
  const [passcode, setPasscode] = useState('');
  const [wasWrong, setWasWrong] = useState(false);

  const handleSubmit = async (code: string) => {
    if (!(await onSubmit(code))) {
      setPasscode('');
      setWasWrong(true);
    }
  };

  return (
    <Stack gap="md" maw={560}>
      <PageHeading step="Step 3 of 3" title="Enter the code from the app" />
      <Text size="sm">
        Type the 6-digit code your authenticator app shows for Florin. It changes every 30 seconds.
      </Text>
      <PasscodeField
        value={passcode}
        onChange={(value) => {
          setPasscode(value);
          if (value) setWasWrong(false);
        }}
        onSubmit={(code) => void handleSubmit(code)}
        isSubmitting={isSubmitting}
        hasError={wasWrong}
      />
      <Group>
        <Button variant="default" onClick={onBack} disabled={isSubmitting}>
          Back
        </Button>
      </Group>
    </Stack>
  );
}

/** p4: secured, with the way to turn it off. */
function SecuredPage({ user, onDisable }: { user: User; onDisable: () => void }) {
  return (
    <Stack gap="md" maw={560}>
      <Group gap="sm">
        <PageHeading title="Your account is secured" />
        <Badge color="teal" variant="light">
          2FA on
        </Badge>
      </Group>
      <Text size="sm">Signing in and sensitive actions ask for a code from your authenticator app.</Text>
      <Text size="sm" c={user.recovery_codes_left <= 2 ? 'red.8' : undefined}>
        {user.recovery_codes_left === 1
          ? '1 recovery code left.'
          : `${user.recovery_codes_left} recovery codes left.`}
      </Text>
      <Group>
        <Button color="red" variant="outline" onClick={onDisable}>
          Disable 2FA
        </Button>
      </Group>
    </Stack>
  );
}

type SetupPage = 'intro' | 'scan' | 'confirm';

/**
 * The 2FA tab's state, kept by the Settings page rather than the tab: the
 * tabs turn into an accordion (and back) when the window crosses 768 px,
 * which remounts the tab, and a half-done setup must survive that.
 */
export function useTwoFactorSetup() {
  const [page, setPage] = useState<SetupPage>('intro');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [isDisabling, setIsDisabling] = useState(false);
  const createSecret = useCreateTwoFactorSecret();
  const toggle = useSwitchTwoFactor();
  const refreshUser = useRefreshCurrentUser();

  const start = () => createSecret.mutate(undefined, { onSuccess: () => setPage('scan') });

  /** True when the server took the code; a wrong one shows "Wrong passcode." and the digits clear. */
  const submitCode = async (passcode: string, disable_2fa: 0 | 1): Promise<boolean> => {
    try {
      const result = await toggle.mutateAsync({ passcode, disable_2fa });
      showSuccessToast({ title: 'Two-Factor Authentication', message: result.message });
      if (result.recovery_codes) setRecoveryCodes(result.recovery_codes);
      setPage('intro');
      createSecret.reset();
      await refreshUser();
      return true;
    } catch (error) {
      const appError = toAppError(error);
      reportError(appError);
      // The setup expired (a newer secret was generated elsewhere): start again.
      if (appError.code === 'CONFLICT' && disable_2fa === 0) setPage('intro');
      return false;
    }
  };

  return {
    page,
    setPage,
    secret: createSecret.data,
    isCreatingSecret: createSecret.isPending,
    start,
    submitCode,
    isSubmittingCode: toggle.isPending,
    recoveryCodes,
    dismissRecoveryCodes: () => setRecoveryCodes(null),
    isDisabling,
    setIsDisabling,
  };
}

export type TwoFactorSetup = ReturnType<typeof useTwoFactorSetup>;

/** The Two-Factor Authentication tab (spec 001 section 2): pages p1 to p4. */
export function TwoFactorTab({ user, setup }: { user: User; setup: TwoFactorSetup }) {
  let content;
  if (hasTwoFactor(user)) {
    content = <SecuredPage user={user} onDisable={() => setup.setIsDisabling(true)} />;
  } else if (setup.page === 'scan' && setup.secret) {
    content = (
      <ScanPage
        secret={setup.secret}
        onNext={() => setup.setPage('confirm')}
        onBack={() => setup.setPage('intro')}
      />
    );
  } else if (setup.page === 'confirm' && setup.secret) {
    content = (
      <ConfirmPage
        onSubmit={(passcode) => setup.submitCode(passcode, 0)}
        onBack={() => setup.setPage('scan')}
        isSubmitting={setup.isSubmittingCode}
      />
    );
  } else {
    content = <IntroPage onNext={setup.start} isLoading={setup.isCreatingSecret} />;
  }

  return (
    <>
      {content}
      <DisableTwoFactorModal
        opened={setup.isDisabling}
        onClose={() => setup.setIsDisabling(false)}
        onSubmit={(passcode) => setup.submitCode(passcode, 1)}
        isSubmitting={setup.isSubmittingCode}
      />
      <RecoveryCodesModal codes={setup.recoveryCodes} onDone={setup.dismissRecoveryCodes} />
    </>
  );
}
