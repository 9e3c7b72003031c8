import {
  BENEFICIARY_TYPE_LABELS,
  BENEFICIARY_TYPES,
  CRYPTO_WITHDRAW_DECIMALS,
  DESTINATION_TYPE_LABELS,
  DESTINATION_TYPES,
  type CoinId,
  type CryptoWithdrawRequest,
  type WhitelistedWallet,
} from '@florin/contracts';
import { trimZeros } from '@florin/domain';
import { Button, Checkbox, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Ref } from 'react';
import { LoadFailed } from '../../../components/load-failed';
import { formatDateTime } from '../../../lib/format';
import type { useSavedAddresses } from '../api/list-saved-addresses';
import {
  cleanCryptoAmountInput,
  cleanTagInput,
  formatCoinAmount,
  type CryptoWithdrawErrors,
} from '../crypto-amounts';

type BeneficiaryType = CryptoWithdrawRequest['beneficiary_type'];
type DestinationType = CryptoWithdrawRequest['destination_type'];
type SavedAddresses = ReturnType<typeof useSavedAddresses>;

/** The whole balance as the amount field takes it: at most 8 decimals, none for xrp. */
function maxAmount(available: string, coin: CoinId): string {
  const [whole = '0', fraction = ''] = available.split('.');
  if (coin === 'xrp') return whole;
  return trimZeros(`${whole}.${fraction.slice(0, CRYPTO_WITHDRAW_DECIMALS)}`);
}

function savedAddressLabel(wallet: WhitelistedWallet, usable: boolean): string {
  const tag = wallet.tag ? ` · tag ${wallet.tag}` : '';
  const wait = usable ? '' : ` · usable from ${formatDateTime(wallet.usable_from) ?? wallet.usable_from}`;
  return `${wallet.label} (${wallet.address})${tag}${wait}`;
}

/** Where the coins go: a saved (whitelisted) address, or one typed in with its XRP tag. */
export function WithdrawDestinationFields({
  coin,
  useSaved,
  saved,
  savedId,
  wallet,
  tag,
  tagRef,
  errors,
  isUsable,
  onUseSavedChange,
  onSavedIdChange,
  onWalletChange,
  onTagChange,
}: {
  coin: CoinId;
  useSaved: boolean;
  saved: SavedAddresses;
  savedId: string | null;
  wallet: string;
  tag: string;
  tagRef: Ref<HTMLInputElement>;
  errors: CryptoWithdrawErrors;
  isUsable: (entry: WhitelistedWallet) => boolean;
  onUseSavedChange: (checked: boolean) => void;
  onSavedIdChange: (value: string | null) => void;
  onWalletChange: (value: string) => void;
  onTagChange: (value: string) => void;
}) {
  const code = coin.toUpperCase();
  const usableSaved = (saved.data ?? []).filter(isUsable);
  return (
    <>
      <Checkbox
        label="Select from saved addresses"
        checked={useSaved}
        onChange={(event) => {
          const checked = event.currentTarget.checked;
          onUseSavedChange(checked);
        }}
      />
      {useSaved ? (
        <Stack gap={4}>
          <Select
            label="Saved address"
            placeholder={saved.isPending ? 'Loading your saved addresses…' : 'Choose a saved address'}
            data={(saved.data ?? []).map((entry) => ({
              value: entry.id,
              label: savedAddressLabel(entry, isUsable(entry)),
              disabled: !isUsable(entry),
            }))}
            value={savedId}
            onChange={(value) => onSavedIdChange(value)}
            error={errors.wallet}
            disabled={saved.isPending}
            comboboxProps={{ withinPortal: true }}
          />
          {saved.isError && (
            <LoadFailed what={`Your saved ${code} addresses`} onRetry={() => void saved.refetch()} />
          )}
          {saved.isSuccess && saved.data.length === 0 && (
            <Text size="xs" c="dimmed">
              You have no saved {code} addresses. Add one under Settings, Wallet Whitelisting.
            </Text>
          )}
          {saved.isSuccess && saved.data.length > 0 && usableSaved.length === 0 && (
            <Text size="xs" c="dimmed">
              A newly whitelisted address can receive withdrawals 24 hours after it is added.
            </Text>
          )}
        </Stack>
      ) : (
        <TextInput
          label="Destination address"
          placeholder={`The ${code} address to send to`}
          autoComplete="off"
          spellCheck={false}
          value={wallet}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onWalletChange(value);
          }}
          error={errors.wallet}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      )}
      {coin === 'xrp' && !useSaved && (
        <TextInput
          ref={tagRef}
          label="Destination tag"
          description="The tag the receiving exchange or wallet gave you."
          inputMode="numeric"
          autoComplete="off"
          value={tag}
          onChange={(event) => {
            const value = cleanTagInput(event.currentTarget.value);
            onTagChange(value);
          }}
          error={errors.xrp_tag}
        />
      )}
    </>
  );
}

/** The quantity to send, with a Max button that takes the whole balance. */
export function WithdrawAmountField({
  coin,
  amount,
  error,
  minimum,
  available,
  onAmountChange,
}: {
  coin: CoinId;
  amount: string;
  error: string | undefined;
  minimum: string;
  available: string;
  onAmountChange: (value: string) => void;
}) {
  const code = coin.toUpperCase();
  return (
    <TextInput
      label="Quantity"
      inputMode={coin === 'xrp' ? 'numeric' : 'decimal'}
      autoComplete="off"
      placeholder={coin === 'xrp' ? '0' : '0.00000000'}
      value={amount}
      onChange={(event) => {
        const value = cleanCryptoAmountInput(event.currentTarget.value, coin);
        onAmountChange(value);
      }}
      error={error}
      description={`Minimum withdrawal: ${trimZeros(minimum)} ${code}`}
      rightSectionWidth={64}
      rightSection={
        <Button size="compact-xs" variant="light" onClick={() => onAmountChange(maxAmount(available, coin))}>
          Max
        </Button>
      }
    />
  );
}

/** Who owns the receiving wallet and where it is held. */
export function WalletOwnerFields({
  beneficiaryType,
  beneficiaryName,
  destinationType,
  exchangeName,
  errors,
  onBeneficiaryTypeChange,
  onBeneficiaryNameChange,
  onDestinationTypeChange,
  onExchangeNameChange,
}: {
  beneficiaryType: BeneficiaryType | null;
  beneficiaryName: string;
  destinationType: DestinationType | null;
  exchangeName: string;
  errors: CryptoWithdrawErrors;
  onBeneficiaryTypeChange: (value: BeneficiaryType | null) => void;
  onBeneficiaryNameChange: (value: string) => void;
  onDestinationTypeChange: (value: DestinationType | null) => void;
  onExchangeNameChange: (value: string) => void;
}) {
  return (
    <>
      <Radio.Group
        label="Who owns this wallet?"
        value={beneficiaryType}
        onChange={(value) =>
          onBeneficiaryTypeChange(BENEFICIARY_TYPES.find((type) => type === value) ?? null)
        }
        error={errors.beneficiary_type}
      >
        <Stack gap={6} mt={6}>
          {BENEFICIARY_TYPES.map((type) => (
            <Radio key={type} value={type} label={BENEFICIARY_TYPE_LABELS[type]} />
          ))}
        </Stack>
      </Radio.Group>
      {(beneficiaryType === 'person' || beneficiaryType === 'business') && (
        <TextInput
          label={beneficiaryType === 'person' ? 'Full name of the owner' : 'Name of the business'}
          autoComplete="off"
          value={beneficiaryName}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onBeneficiaryNameChange(value);
          }}
          error={errors.beneficiary_name}
        />
      )}
      <Radio.Group
        label="Where is the wallet held?"
        value={destinationType}
        onChange={(value) =>
          onDestinationTypeChange(DESTINATION_TYPES.find((type) => type === value) ?? null)
        }
        error={errors.destination_type}
      >
        <Stack gap={6} mt={6}>
          {DESTINATION_TYPES.map((type) => (
            <Radio key={type} value={type} label={DESTINATION_TYPE_LABELS[type]} />
          ))}
        </Stack>
      </Radio.Group>
      {destinationType === 'exchange' && (
        <TextInput
          label="Name of the exchange"
          autoComplete="off"
          value={exchangeName}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onExchangeNameChange(value);
          }}
          error={errors.exchange_name}
        />
      )}
    </>
  );
}

/** The balance now and what is left of it after this withdrawal, in red below zero. */
export function WithdrawBalanceRows({
  code,
  available,
  after,
}: {
  code: string;
  available: string;
  after: string;
}) {
  const isAfterNegative = after.startsWith('-');
  return (
    <>
      <Group justify="space-between" gap="xs">
        <Text size="sm">Total balance</Text>
        <Text size="sm" fw={600} ff="monospace" data-testid="crypto-withdraw-balance">
          {formatCoinAmount(available, code)}
        </Text>
      </Group>
      <Group justify="space-between" gap="xs">
        <Text size="sm">Balance after withdraw</Text>
        <Text
          size="sm"
          ff="monospace"
          c={isAfterNegative ? 'red.8' : undefined}
          data-testid="crypto-withdraw-balance-after"
        >
          {formatCoinAmount(after, code)}
        </Text>
      </Group>
    </>
  );
}
