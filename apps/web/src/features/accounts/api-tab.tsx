import {
  API_TOKEN_PERMISSION_HINTS,
  API_TOKEN_PERMISSION_IDS,
  API_TOKEN_PERMISSIONS,
  API_TOKEN_TEXTS,
  GENERIC_FAILURE_TITLE,
  GenerateApiTokenBodySchema,
  type ApiToken,
  type NewApiToken,
  parseCustomerInput,
} from '@florin/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../lib/toasts';
import { useDeleteApiToken } from './api/delete-api-token';
import { useGenerateApiToken } from './api/generate-api-token';
import { useApiTokens } from './api/get-api-tokens';

type RevealedToken = NewApiToken['data'];

/**
 * The token just generated, kept by the Account page rather than the tab: the tabs turn into an accordion
 * (and back) when the window crosses 768 px, which remounts the tab, and a token shown only once must still
 * show after a phone is turned.
 */
export function useRevealedToken() {
  const [token, setToken] = useState<RevealedToken | null>(null);
  return { token, reveal: setToken, dismiss: () => setToken(null) };
}

export type RevealedTokenState = ReturnType<typeof useRevealedToken>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const londonDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: 'numeric',
  year: 'numeric',
});

/** DD-MMM-YYYY (spec 002 §2.2), in UK time: `24-Nov-2026`. Month names fixed, not the locale's ("Sept"). */
export function formatCreatedDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    londonDate.formatToParts(date).find((entry) => entry.type === type)?.value ?? '';
  return `${part('day')}-${MONTHS[Number(part('month')) - 1] ?? ''}-${part('year')}`;
}

function permissionName(id: number): string {
  return id in API_TOKEN_PERMISSIONS
    ? API_TOKEN_PERMISSIONS[id as keyof typeof API_TOKEN_PERMISSIONS]
    : `#${id}`;
}

/**
 * Spec 002 §8: a failure reads "Something went wrong. Please contact the admin.". A 4xx
 * that says what to do (the most tokens allowed) says it; a 401 goes to sign-in.
 */
function reportTokenFailure(failure: unknown, id: string): void {
  const appError = toAppError(failure);
  if (appError.code === 'UNAUTHENTICATED') {
    reportError(appError);
    return;
  }
  showErrorToast({
    id,
    title: GENERIC_FAILURE_TITLE,
    message: appError.status >= 500 ? API_TOKEN_TEXTS.failed : describeError(appError),
  });
}

/** The Account page's API tab (spec 002 §2.2): generate tokens, shown once; the table of tokens; delete. */
export function ApiTab({ userId, revealed }: { userId: number; revealed: RevealedTokenState }) {
  const tokens = useApiTokens(userId);
  const generateFirst = useGenerateApiToken(userId);
  const [isAnotherOpen, setIsAnotherOpen] = useState(false);
  const [toDelete, setToDelete] = useState<ApiToken | null>(null);
  const hasLiveToken = tokens.data?.some((token) => token.deleted_at === null) ?? false;

  const handleGenerateFirst = () =>
    generateFirst.mutate(undefined, {
      onSuccess: (response) => revealed.reveal(response.data),
      onError: (failure) => reportTokenFailure(failure, 'api-token-generate'),
    });

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Text size="sm">{API_TOKEN_TEXTS.intro}</Text>
        <Code w="fit-content">{API_TOKEN_TEXTS.headerExample}</Code>
        <Anchor href="/api/docs" target="_blank" rel="noopener" size="sm" w="fit-content">
          {API_TOKEN_TEXTS.docsLink}
        </Anchor>
      </Stack>

      {tokens.isPending ? (
        <Center py="md" role="status" aria-label="Loading your API tokens">
          <Loader size="sm" />
        </Center>
      ) : tokens.isError ? (
        <Alert color="red" title={GENERIC_FAILURE_TITLE} role="alert">
          <Group gap="xs">
            <Text size="sm">{API_TOKEN_TEXTS.failed}</Text>
            <Button size="compact-sm" variant="light" onClick={() => void tokens.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : (
        <>
          {hasLiveToken ? (
            <Group>
              <Button onClick={() => setIsAnotherOpen(true)} w={{ base: '100%', xs: 'auto' }}>
                {API_TOKEN_TEXTS.generateAnother}
              </Button>
            </Group>
          ) : (
            <Stack gap="xs" align="flex-start">
              <Button
                onClick={handleGenerateFirst}
                loading={generateFirst.isPending}
                w={{ base: '100%', xs: 'auto' }}
              >
                {API_TOKEN_TEXTS.generateFirst}
              </Button>
              <Text size="sm" c="dimmed">
                {API_TOKEN_TEXTS.firstIsRead}
              </Text>
            </Stack>
          )}
          <TokenList tokens={tokens.data} onDelete={setToDelete} />
        </>
      )}

      <Modal
        opened={isAnotherOpen}
        onClose={() => setIsAnotherOpen(false)}
        title={API_TOKEN_TEXTS.anotherTitle}
        centered
      >
        <GenerateAnotherForm
          userId={userId}
          onCancel={() => setIsAnotherOpen(false)}
          onGenerated={(token) => {
            setIsAnotherOpen(false);
            revealed.reveal(token);
          }}
        />
      </Modal>
      <RevealModal token={revealed.token} onClose={revealed.dismiss} />
      <DeleteModal userId={userId} token={toDelete} onClose={() => setToDelete(null)} />
    </Stack>
  );
}

type GenerateErrors = { permission?: string; ips?: string };

function GenerateAnotherForm({
  userId,
  onCancel,
  onGenerated,
}: {
  userId: number;
  onCancel: () => void;
  onGenerated: (token: RevealedToken) => void;
}) {
  const generate = useGenerateApiToken(userId);
  const [permission, setPermission] = useState<string | null>(null);
  const [ips, setIps] = useState('');
  const [errors, setErrors] = useState<GenerateErrors>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const addresses = ips.split(/[\s,]+/).filter((entry) => entry !== '');
    const parsed = parseCustomerInput(GenerateApiTokenBodySchema, {
      permission_id: permission ?? undefined,
      ip_allowlist: addresses.length > 0 ? addresses : null,
    });
    if (!parsed.success) {
      const next: GenerateErrors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'permission_id') next.permission ??= issue.message;
        else if (issue.path[0] === 'ip_allowlist') next.ips ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    generate.mutate(parsed.data, {
      onSuccess: (response) => onGenerated(response.data),
      onError: (failure) => {
        const appError = toAppError(failure);
        const fields = Object.entries(appError.errors ?? {});
        const fieldError = (prefix: string) =>
          fields.find(([key]) => key.startsWith(prefix))?.[1]?.[0] ?? undefined;
        if (appError.status === 422 && fields.length > 0) {
          setErrors({ permission: fieldError('permission_id'), ips: fieldError('ip_allowlist') });
          return;
        }
        reportTokenFailure(appError, 'api-token-generate');
      },
    });
  };

  const chosen = permission === null ? undefined : Number(permission);
  return (
    <form onSubmit={handleSubmit} noValidate aria-label={API_TOKEN_TEXTS.anotherTitle}>
      <Stack gap="md">
        <Select
          label={API_TOKEN_TEXTS.permissionLabel}
          placeholder={API_TOKEN_TEXTS.permissionPlaceholder}
          data={API_TOKEN_PERMISSION_IDS.map((id) => ({
            value: String(id),
            label: API_TOKEN_PERMISSIONS[id],
          }))}
          value={permission}
          onChange={(value) => {
            setPermission(value);
            setErrors((current) => ({ ...current, permission: undefined }));
          }}
          description={
            chosen !== undefined && chosen in API_TOKEN_PERMISSION_HINTS
              ? API_TOKEN_PERMISSION_HINTS[chosen as keyof typeof API_TOKEN_PERMISSION_HINTS]
              : undefined
          }
          error={errors.permission}
          allowDeselect={false}
          withAsterisk
        />
        <Textarea
          label={API_TOKEN_TEXTS.ipLabel}
          description={API_TOKEN_TEXTS.ipHint}
          value={ips}
          onChange={(event) => {
            setIps(event.currentTarget.value);
            setErrors((current) => ({ ...current, ips: undefined }));
          }}
          error={errors.ips}
          autosize
          minRows={2}
          maxRows={6}
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={generate.isPending}>
            {API_TOKEN_TEXTS.cancel}
          </Button>
          <Button type="submit" loading={generate.isPending}>
            {API_TOKEN_TEXTS.generate}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The new token, the only time it is shown: copy it now or never. */
function RevealModal({ token, onClose }: { token: RevealedToken | null; onClose: () => void }) {
  return (
    <Modal
      opened={token !== null}
      onClose={onClose}
      title={API_TOKEN_TEXTS.generated}
      centered
      closeOnClickOutside={false}
    >
      {token ? (
        <Stack gap="md">
          <Alert color="yellow" title={API_TOKEN_TEXTS.shownOnce} role="alert">
            {API_TOKEN_TEXTS.shownOnceDetail}
          </Alert>
          <Textarea
            label={API_TOKEN_TEXTS.tokenLabel}
            value={token.token}
            readOnly
            autosize
            minRows={1}
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
            styles={{
              input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' },
            }}
          />
          <Text size="sm">
            {API_TOKEN_TEXTS.permission}: <b>{permissionName(token.api_token.api_token_permission_id)}</b>
            {token.api_token.ip_allowlist
              ? ` · ${API_TOKEN_TEXTS.allowedIps}: ${token.api_token.ip_allowlist.join(', ')}`
              : null}
          </Text>
          <Group justify="space-between" gap="sm">
            <CopyButton value={token.token}>
              {({ copied, copy }) => (
                <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                  {copied ? API_TOKEN_TEXTS.copied : API_TOKEN_TEXTS.copy}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              {API_TOKEN_TEXTS.done}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function DeleteModal({
  userId,
  token,
  onClose,
}: {
  userId: number;
  token: ApiToken | null;
  onClose: () => void;
}) {
  const remove = useDeleteApiToken(userId);

  const handleConfirm = () => {
    if (!token) return;
    remove.mutate(token.id, {
      onSuccess: (response) => {
        showSuccessToast({ id: 'api-token-deleted', title: API_TOKEN_TEXTS.api, message: response.message });
        onClose();
      },
      onError: (failure) => {
        reportTokenFailure(failure, 'api-token-delete');
        onClose();
      },
    });
  };

  return (
    <Modal opened={token !== null} onClose={onClose} title={API_TOKEN_TEXTS.deleteTitle} centered>
      <Stack gap="md">
        <Text size="sm" ff="monospace">
          {token ? `${token.api_token} · ${permissionName(token.api_token_permission_id)}` : null}
        </Text>
        <Text size="sm">{API_TOKEN_TEXTS.deleteQuestion}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            {API_TOKEN_TEXTS.deleteKeep}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={handleConfirm}>
            {API_TOKEN_TEXTS.deleteConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Deleted tokens stay listed, struck through (spec 002 §4). */
const struck = (token: ApiToken) =>
  token.deleted_at === null ? undefined : ({ textDecoration: 'line-through' } as const);

function IpLine({ token }: { token: ApiToken }) {
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {token.ip_allowlist
        ? `${API_TOKEN_TEXTS.allowedIps}: ${token.ip_allowlist.join(', ')}`
        : API_TOKEN_TEXTS.anyIp}
    </Text>
  );
}

function DeleteCell({ token, onDelete }: { token: ApiToken; onDelete: (token: ApiToken) => void }) {
  if (token.deleted_at !== null)
    return (
      <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
        {API_TOKEN_TEXTS.deletedLabel}
      </Badge>
    );
  return (
    <Button
      size="compact-sm"
      variant="light"
      color="red"
      onClick={() => onDelete(token)}
      style={{ flexShrink: 0 }}
      aria-label={`${API_TOKEN_TEXTS.delete} ${token.api_token}`}
    >
      {API_TOKEN_TEXTS.delete}
    </Button>
  );
}

function TokenList({ tokens, onDelete }: { tokens: ApiToken[]; onDelete: (token: ApiToken) => void }) {
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4" id="api-tokens-title">
        {API_TOKEN_TEXTS.tableTitle}
      </Title>
      {tokens.length === 0 ? (
        <Text size="sm" c="dimmed">
          {API_TOKEN_TEXTS.empty}
        </Text>
      ) : (
        <>
          <Table visibleFrom="sm" aria-labelledby="api-tokens-title" fz="sm" verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{API_TOKEN_TEXTS.api}</Table.Th>
                <Table.Th>{API_TOKEN_TEXTS.created}</Table.Th>
                <Table.Th>{API_TOKEN_TEXTS.permission}</Table.Th>
                <Table.Th>{API_TOKEN_TEXTS.delete}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((token) => (
                <Table.Tr key={token.id} c={token.deleted_at === null ? undefined : 'dimmed'}>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={struck(token)} data-testid="api-token-prefix">
                      {token.api_token}
                    </Text>
                    <IpLine token={token} />
                  </Table.Td>
                  <Table.Td style={struck(token)}>{formatCreatedDate(token.created_at)}</Table.Td>
                  <Table.Td style={struck(token)}>{permissionName(token.api_token_permission_id)}</Table.Td>
                  <Table.Td>
                    <DeleteCell token={token} onDelete={onDelete} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {/* Below 768 px: one card per token, the table's columns as labelled lines. */}
          <Stack hiddenFrom="sm" gap="xs" role="list" aria-labelledby="api-tokens-title">
            {tokens.map((token) => (
              <Paper key={token.id} withBorder radius="md" p="sm" role="listitem">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack
                    gap={2}
                    style={{ minWidth: 0, flex: 1 }}
                    c={token.deleted_at === null ? undefined : 'dimmed'}
                  >
                    <Text
                      size="sm"
                      fw={600}
                      ff="monospace"
                      style={struck(token)}
                      data-testid="api-token-prefix"
                    >
                      {token.api_token}
                    </Text>
                    <Text size="xs" style={struck(token)}>
                      {API_TOKEN_TEXTS.permission}: {permissionName(token.api_token_permission_id)}
                    </Text>
                    <Text size="xs" style={struck(token)}>
                      {API_TOKEN_TEXTS.created}: {formatCreatedDate(token.created_at)}
                    </Text>
                    <IpLine token={token} />
                  </Stack>
                  <DeleteCell token={token} onDelete={onDelete} />
                </Group>
              </Paper>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
