import { TERM_DEPOSIT_TEXTS, type TermDepositCoin, type TermDepositOption } from '@florin/contracts';
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { decimalPlaces } from '@florin/domain';
import { COIN_DECIMALS, formatDecimal } from '../../../lib/format';
import type { DepositPreview } from '../term-deposit-math';
import { formatDay } from './format-day';

export type PendingDeposit = {
  coin: TermDepositCoin;
  option: TermDepositOption;
  amount: string;
  preview: DepositPreview | null;
};

type ConfirmModalProps = {
  pending: PendingDeposit | null;
  isSubmitting: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * Spec 002 section 2.6: deposited balances cannot be withdrawn or traded
 * until expiry; with the risks a UK customer is told before a lock-up
 * (docs/decisions/055-term-deposits.md).
 */
export function ConfirmModal({ pending, isSubmitting, onConfirm, onClose }: ConfirmModalProps) {
  const code = pending?.coin.coin_id.toUpperCase() ?? '';
  const show = (value: string | undefined) =>
    value === undefined ? '—' : `${formatDecimal(value, COIN_DECIMALS) ?? value} ${code}`;
  return (
    <Modal
      opened={pending !== null}
      onClose={onClose}
      title={TERM_DEPOSIT_TEXTS.confirmTitle}
      centered
      size="lg"
    >
      {pending ? (
        <Stack gap="sm">
          <Text fw={600}>{TERM_DEPOSIT_TEXTS.lockedUntilExpiry}</Text>
          <Stack gap={4}>
            {/* Exactly what is locked, every decimal of it; the figures worked out from it show 5. */}
            <Row
              label="Amount"
              value={`${formatDecimal(pending.amount, decimalPlaces(pending.amount) ?? 0) ?? pending.amount} ${code}`}
            />
            <Row label="Term" value={`${pending.option.no_days} days`} />
            <Row label="Rate" value={`${pending.option.interest_rate}%`} />
            <Row label="Expiry" value={formatDay(pending.option.expiry)} />
            <Row label="Deposit Earn" value={show(pending.preview?.earn)} />
            <Row label="Deposit Balance" value={show(pending.preview?.total)} />
          </Stack>
          <Alert color="yellow" title={TERM_DEPOSIT_TEXTS.riskTitle}>
            <List size="sm" spacing={4}>
              <List.Item>{TERM_DEPOSIT_TEXTS.riskValue}</List.Item>
              <List.Item>{TERM_DEPOSIT_TEXTS.riskNotSavings}</List.Item>
              <List.Item>{TERM_DEPOSIT_TEXTS.riskNotProtected}</List.Item>
            </List>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={isSubmitting}>
              {TERM_DEPOSIT_TEXTS.cancel}
            </Button>
            <Button onClick={onConfirm} loading={isSubmitting}>
              {TERM_DEPOSIT_TEXTS.confirm}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ff="monospace">
        {value}
      </Text>
    </Group>
  );
}
