import {
  CreateBankAccountBodySchema,
  FIAT_TEXTS,
  waitUntilText,
  type BankAccount,
  type FiatCurrency,
  parseCustomerInputAsync,
} from '@florin/contracts';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useForm, type FieldError, type Resolver } from 'react-hook-form';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { isWaiting, useNowPassing } from '../../../lib/use-now-passing';
import { useBankAccount } from '../api/get-bank-account';
import { useSaveBankAccount } from '../api/save-bank-account';

type BankForm = { name_of_account: string; bank_account_number: string; bank_sort_code: string };

const FIELDS = ['name_of_account', 'bank_account_number', 'bank_sort_code'] as const;

/** The spec's 500 text for this form (001 section 8). */
const SAVE_FAILED_TEXT = 'Something went wrong. Please contact the support';

/** For EUR and USD the "Sort Code or IBAN" field holds the IBAN; the contract also wants it as international_iban. */
function toBody(values: BankForm, currency: FiatCurrency) {
  return {
    name_of_account: values.name_of_account,
    currency_code: currency,
    bank_account_number: values.bank_account_number,
    bank_sort_code: values.bank_sort_code,
    ...(currency === 'GBP' ? {} : { international_iban: values.bank_sort_code }),
  };
}

/** The contract's own checks (formats, IBAN mod-97), their messages put under the field the customer typed in. */
function bankResolver(currency: FiatCurrency): Resolver<BankForm> {
  return async (values) => {
    const result = await parseCustomerInputAsync(CreateBankAccountBodySchema, toBody(values, currency));
    if (result.success) return { values, errors: {} };
    const errors: Partial<Record<keyof BankForm, FieldError>> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0]);
      const field = (key === 'international_iban' ? 'bank_sort_code' : key) as keyof BankForm;
      if (FIELDS.includes(field)) errors[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors };
  };
}

const LABELS = {
  name: 'Bank Name',
  number: 'Account Number or BIC Code',
  sortCode: 'Sort Code or IBAN',
} as const;

/** A stored sort code (123456) as people write it (12-34-56). */
function formatSortCode(value: string): string {
  return /^\d{6}$/.test(value) ? value.replace(/(\d{2})(\d{2})(\d{2})/, '$1-$2-$3') : value;
}

function valuesOf(account: BankAccount | null | undefined): BankForm {
  const sortCode = account?.bank_sort_code ?? '';
  return {
    name_of_account: account?.name_of_account ?? '',
    bank_account_number: account?.bank_account_number ?? '',
    bank_sort_code: account?.currency_code === 'GBP' ? formatSortCode(sortCode) : sortCode,
  };
}

function AccountState({ account }: { account: BankAccount }) {
  const now = useNowPassing([account.withdrawals_allowed_from]);
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm">Status:</Text>
        {account.verified ? (
          <Badge color="teal" variant="light">
            Verified
          </Badge>
        ) : (
          <Badge color="orange" variant="light">
            Not verified yet
          </Badge>
        )}
      </Group>
      {!account.verified && (
        <Text size="sm" c="dimmed">
          {FIAT_TEXTS.bankAccountUnverified}
        </Text>
      )}
      {isWaiting(account.withdrawals_allowed_from, now) && (
        <Text size="sm" c="dimmed">
          {waitUntilText(FIAT_TEXTS.bankDetailsChanged, new Date(account.withdrawals_allowed_from))}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The customer's own bank account for one currency (spec 001 section 2):
 * GBP takes an account number and sort code, EUR and USD a BIC and IBAN
 * under the spec's combined labels. Formats are checked here with the
 * contract's rules and again by the server.
 */
export function BankAccountForm({ currency }: { currency: FiatCurrency }) {
  const account = useBankAccount(currency);
  const save = useSaveBankAccount();
  const form = useForm<BankForm>({ resolver: bankResolver(currency), defaultValues: valuesOf(undefined) });
  const { errors } = form.formState;
  const existing = account.data ?? null;
  const isGbp = currency === 'GBP';

  useEffect(() => {
    if (account.isSuccess) form.reset(valuesOf(account.data));
  }, [account.isSuccess, account.data, form]);

  const handleSubmit = (values: BankForm) => {
    save.mutate(
      { ...toBody(values, currency), id: existing?.id },
      {
        onSuccess: ({ message }) =>
          showSuccessToast({
            title: message,
            message: 'Withdrawals can go to this account once it is verified and 24 hours have passed.',
          }),
        onError: (error) => {
          const appError = toAppError(error);
          if (appError.status >= 500) {
            showErrorToast({ id: 'bank-save', title: 'Failed!', message: SAVE_FAILED_TEXT });
            return;
          }
          for (const [key, messages] of Object.entries(appError.errors ?? {})) {
            const field = (key === 'international_iban' ? 'bank_sort_code' : key) as keyof BankForm;
            if (FIELDS.includes(field) && messages[0])
              form.setError(field, { type: 'server', message: messages[0] });
          }
          if (appError.errors)
            showErrorToast({ id: 'bank-save', title: 'Failed!', message: describeError(appError) });
          else reportError(appError, { title: 'Failed!' });
        },
      },
    );
  };

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby={`bank-account-heading-${currency}`}
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={{ base: 18, sm: 20 }} id={`bank-account-heading-${currency}`}>
            Your {currency} bank account
          </Title>
          <Text size="sm" c="dimmed">
            Withdrawals go only to this account. It must be in your own name.
          </Text>
        </Stack>
        {account.isPending && <Skeleton height={120} aria-label="Loading your bank account" />}
        {account.isError && (
          <Alert color="red" title="Failed!">
            <Group gap="xs">
              <Text size="sm">Your bank account could not be loaded.</Text>
              <Button size="compact-sm" variant="light" onClick={() => void account.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        )}
        {account.isSuccess && (
          <>
            {existing ? (
              <AccountState account={existing} />
            ) : (
              <Alert color="blue" variant="light">
                {FIAT_TEXTS.noBankAccount}
              </Alert>
            )}
            <TextInput
              label={LABELS.name}
              description="The name on the account, as your bank shows it."
              autoComplete="name"
              maxLength={100}
              error={errors.name_of_account?.message}
              {...form.register('name_of_account')}
            />
            <TextInput
              label={LABELS.number}
              description={
                isGbp ? 'Your 8-digit account number.' : 'The BIC (SWIFT code) of your bank, e.g. DEUTDEFF.'
              }
              inputMode={isGbp ? 'numeric' : 'text'}
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
              error={errors.bank_account_number?.message}
              {...form.register('bank_account_number')}
            />
            <TextInput
              label={LABELS.sortCode}
              description={
                isGbp
                  ? 'Your 6-digit sort code, e.g. 12-34-56.'
                  : 'Your IBAN, e.g. DE89 3704 0044 0532 0130 00.'
              }
              inputMode={isGbp ? 'numeric' : 'text'}
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
              error={errors.bank_sort_code?.message}
              {...form.register('bank_sort_code')}
            />
            {existing && (
              <Text size="xs" c="dimmed">
                Changing these details means the account is verified again, and withdrawals wait 24 hours.
              </Text>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {existing ? 'Update Account' : 'Add Account'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
