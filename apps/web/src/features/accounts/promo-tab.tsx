import { REFERRALS_TEXTS } from '@florin/contracts';
import { Button, Group, Paper, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LoadFailed } from '../../components/load-failed';
import { describeError, reportError, toAppError } from '../../lib/errors';
import { showSuccessToast } from '../../lib/toasts';
import { useAssignPromoCode, usePromoCodes } from './api/promo-codes';

/** DD/MM/YYYY (spec 002 §2.2), in the customer's time zone. */
export function formatDayMonthYear(value: string): string {
  const date = new Date(value);
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** The Account page's Promo tab (spec 002 §2.2): add a code, and the table of codes added. */
export function PromoTab({ userId }: { userId: number }) {
  const codes = usePromoCodes();
  const assign = useAssignPromoCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (code.trim() === '') {
      setError(REFERRALS_TEXTS.promoInvalid);
      return;
    }
    assign.mutate(
      { userId, code: code.trim() },
      {
        onSuccess: (response) => {
          setCode('');
          showSuccessToast({
            id: 'promo-added',
            title: REFERRALS_TEXTS.promoTitle,
            message: response.message,
          });
        },
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status >= 500) reportError(appError);
          else setError(appError.status === 422 ? REFERRALS_TEXTS.promoInvalid : describeError(appError));
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <form onSubmit={handleSubmit} noValidate>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label={REFERRALS_TEXTS.promoLabel}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
            autoComplete="off"
            style={{ flex: 1, minWidth: 0, maxWidth: 360 }}
          />
          <Button type="submit" mt={25} loading={assign.isPending}>
            {REFERRALS_TEXTS.promoAdd}
          </Button>
        </Group>
      </form>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {!codes.data ? (
          codes.isError ? (
            <LoadFailed what="Your promo codes" onRetry={() => void codes.refetch()} />
          ) : (
            <Skeleton h={80} />
          )
        ) : codes.data.length === 0 ? (
          <Text c="dimmed" size="sm">
            {REFERRALS_TEXTS.promoEmpty}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={260}>
            <Table striped fz="sm" horizontalSpacing="xs" aria-label={REFERRALS_TEXTS.promoTitle}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{REFERRALS_TEXTS.code}</Table.Th>
                  <Table.Th>{REFERRALS_TEXTS.expiresAt}</Table.Th>
                  <Table.Th>{REFERRALS_TEXTS.createdAt}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {codes.data.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {row.affiliate_code}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {REFERRALS_TEXTS.discount}: {row.discount_percent}%
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDayMonthYear(row.expires_at)}</Table.Td>
                    <Table.Td>{formatDayMonthYear(row.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
