import { TERM_DEPOSIT_TEXTS, termDepositDecimals, type TermDepositCoin } from '@florin/contracts';
import { Alert, Button, Container, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { describeError, isClientError, toAppError } from '../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../lib/toasts';
import { newIdempotencyKey, useCreateTermDeposit } from './api/create-term-deposit';
import { useTermDepositCoins } from './api/get-term-deposit-coins';
import { useTermDepositHistory } from './api/get-term-deposit-transactions';
import { ConfirmModal, type PendingDeposit } from './components/confirm-modal';
import { DepositTable, selectedOption, type RowInput } from './components/deposit-table';
import { formatDay } from './components/format-day';
import { HistoryTable } from './components/history-table';
import { amountForRequest, cleanAmountInput, previewDeposit, transferErrors } from './term-deposit-math';
import { InvestorGate } from '../../components/investor-gate';

/** Spec 002 section 2.6 (/user/term-deposit): lock coins for a term, and the deposits made. */
export function TermDepositPage() {
  const coins = useTermDepositCoins();
  const history = useTermDepositHistory();
  const create = useCreateTermDeposit();
  const [inputs, setInputs] = useState<Record<string, RowInput>>({});
  const [pending, setPending] = useState<PendingDeposit | null>(null);
  // One key per confirmation: a retry of the same Confirm cannot lock twice.
  const idempotencyKey = useRef<string | null>(null);

  const handleAmountChange = (coin: TermDepositCoin, text: string) =>
    setInputs((current) => ({
      ...current,
      [coin.coin_id]: {
        optionId: current[coin.coin_id]?.optionId ?? null,
        amount: cleanAmountInput(text, coin.coin_id),
      },
    }));

  const handleOptionChange = (coin: TermDepositCoin, optionId: string | null) =>
    setInputs((current) => ({
      ...current,
      [coin.coin_id]: { amount: current[coin.coin_id]?.amount ?? '', optionId },
    }));

  const handleTransfer = (coin: TermDepositCoin) => {
    const input = inputs[coin.coin_id];
    const option = selectedOption(coin, input);
    const amount = input?.amount ?? '';
    const errors = transferErrors(
      amount,
      coin.balance,
      option && {
        coinId: coin.coin_id,
        decimals: termDepositDecimals(coin.coin_id),
        min: option.min_amount,
        max: option.max_amount,
      },
    );
    if (!option) errors.push(TERM_DEPOSIT_TEXTS.chooseTerm);
    if (errors.length > 0 || !option) {
      showErrorToast({
        // Keyed by the text: the same mistake twice shows once, a different one shows too.
        id: `term-deposit-transfer-${errors.join('-')}`,
        title: TERM_DEPOSIT_TEXTS.failedTitle,
        message: errors.join('\n'),
      });
      return;
    }
    idempotencyKey.current = newIdempotencyKey();
    setPending({
      coin,
      option,
      amount: amountForRequest(amount),
      preview: previewDeposit(amount, coin.balance, option.interest_rate, {
        coinId: coin.coin_id,
        scale: coin.scale,
      }),
    });
  };

  const handleConfirm = () => {
    if (!pending) return;
    idempotencyKey.current ??= newIdempotencyKey();
    create.mutate(
      {
        idempotencyKey: idempotencyKey.current,
        body: {
          coin: pending.coin.coin_id,
          amount: pending.amount,
          day: pending.option.id,
          rate: pending.option.interest_rate,
        },
      },
      {
        onSuccess: () => {
          idempotencyKey.current = null;
          setPending(null);
          setInputs((current) => ({ ...current, [pending.coin.coin_id]: { amount: '', optionId: null } }));
          showSuccessToast({
            title: TERM_DEPOSIT_TEXTS.success,
            message: `${pending.amount} ${pending.coin.coin_id.toUpperCase()} is locked until ${formatDay(pending.option.expiry)}.`,
          });
        },
        onError: (error) => {
          const appError = toAppError(error);
          // A refusal is final for this confirmation: the next one gets a new key. A failure on the way
          // (network, 5xx) may have locked the coins all the same, so the modal stays open and Confirm
          // sends the same key again: the server answers with the deposit it made, never a second one.
          if (isClientError(appError)) {
            idempotencyKey.current = null;
            setPending(null);
          }
          showErrorToast({
            id: 'term-deposit-submit',
            title: TERM_DEPOSIT_TEXTS.failedTitle,
            message: describeError(appError),
          });
        },
      },
    );
  };

  const rows = history.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Title order={1}>{TERM_DEPOSIT_TEXTS.pageTitle}</Title>
        <InvestorGate />
        <Paper withBorder p="md" radius="md">
          {coins.isPending ? (
            <Skeleton height={180} />
          ) : coins.isError ? (
            <Alert color="red" title="Term deposits could not be loaded">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{describeError(toAppError(coins.error))}</Text>
                <Button size="xs" variant="light" onClick={() => void coins.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ) : coins.data.every((coin) => coin.options.length === 0) ? (
            <Text c="dimmed">{TERM_DEPOSIT_TEXTS.noOptions}</Text>
          ) : (
            <DepositTable
              coins={coins.data}
              inputs={inputs}
              onAmountChange={handleAmountChange}
              onOptionChange={handleOptionChange}
              onTransfer={handleTransfer}
              isSubmitting={create.isPending}
            />
          )}
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h3">
              {TERM_DEPOSIT_TEXTS.historyTitle}
            </Title>
            {history.isPending ? (
              <Skeleton height={120} />
            ) : history.isError ? (
              <Alert color="red" title="Your term deposits could not be loaded">
                <Button size="xs" variant="light" onClick={() => void history.refetch()}>
                  Try again
                </Button>
              </Alert>
            ) : (
              <HistoryTable
                rows={rows}
                hasMore={history.hasNextPage}
                isLoadingMore={history.isFetchingNextPage}
                onViewMore={() => void history.fetchNextPage()}
              />
            )}
          </Stack>
        </Paper>
      </Stack>
      <ConfirmModal
        pending={pending}
        isSubmitting={create.isPending}
        onConfirm={handleConfirm}
        onClose={() => {
          if (!create.isPending) setPending(null);
        }}
      />
    </Container>
  );
}
