import {
  ActionIcon,
  Box,
  Button,
  Group,
  Paper,
  Popover,
  Progress,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from 'react-router';
import type { MoneyActions } from '../../../lib/current-user';
import { COIN_DECIMALS, FIAT_DECIMALS, formatDecimal, formatPounds } from '../../../lib/format';
import { PATHS, tradePath, withdrawDepositPath, type AssetNavigationState } from '../../../lib/paths';
import { balanceDetails, HIDDEN_FUNDS_TEXT, portfolioShare, type AssetRow } from '../assets';
import classes from './assets-table.module.css';

type AssetsTableProps = {
  rows: readonly AssetRow[];
  isHidden: boolean;
  onToggleHidden: () => void;
  /** What the customer may do with money (lib/current-user's moneyActions). */
  actions: MoneyActions;
};

function balanceText(row: AssetRow, isHidden: boolean): string {
  if (isHidden) return HIDDEN_FUNDS_TEXT;
  const places = row.kind === 'fiat' ? FIAT_DECIMALS : COIN_DECIMALS;
  return `${formatDecimal(row.amount, places) ?? row.amount} ${row.code}`;
}

function valueText(row: AssetRow, isHidden: boolean): string | null {
  if (row.kind === 'fiat' && row.asset === 'GBP') return null;
  if (isHidden) return HIDDEN_FUNDS_TEXT;
  return row.gbpValue === null ? 'Value unavailable' : `≈ ${formatPounds(row.gbpValue) ?? row.gbpValue}`;
}

/** The eye: hides every amount on the screen, remembered on this device. */
export function HideFundsToggle({ isHidden, onToggle }: { isHidden: boolean; onToggle: () => void }) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="sm"
      aria-label={isHidden ? 'Show funds' : 'Hide funds'}
      onClick={onToggle}
    >
      {isHidden ? <EyeOffIcon /> : <EyeIcon />}
    </ActionIcon>
  );
}

function EyeIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function EyeOffIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M3 3l18 18" />
      <path d="M10.6 5.1A10.8 10.8 0 0 1 12 5c6.5 0 10 7 10 7a17.6 17.6 0 0 1-3.2 4.1M6.6 6.6C3.8 8.4 2 12 2 12s3.5 7 10 7a10.3 10.3 0 0 0 5.4-1.6" />
      <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
    </svg>
  );
}

/** Balance, what holds it back, term deposit and total to 5 decimals, whatever the asset (spec 000 section 2). */
function DetailsPopover({ row, isHidden }: { row: AssetRow; isHidden: boolean }) {
  const show = (value: string) =>
    isHidden ? HIDDEN_FUNDS_TEXT : `${formatDecimal(value, COIN_DECIMALS) ?? value} ${row.code}`;
  return (
    <Popover position="bottom" withArrow shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <Button variant="subtle" size="compact-sm" aria-label={`Details ${row.name}`}>
          Details
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4}>
          {balanceDetails(row).map((line) => (
            <Group key={line.label} justify="space-between" gap="lg">
              <Text size="sm" c="dimmed">
                {line.label}
              </Text>
              <Text size="sm" ff="monospace">
                {show(line.value)}
              </Text>
            </Group>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Whole percentages; a holding under 10 % and an empty one are styled apart (spec 000 section 9). */
function PortfolioBar({ row }: { row: AssetRow }) {
  const share = portfolioShare(row.percentage);
  if (!share) {
    return (
      <Text size="sm" c="dimmed">
        Unavailable
      </Text>
    );
  }
  const color = share.style === 'normal' ? 'teal' : share.style === 'small' ? 'yellow' : 'gray';
  return (
    <Group gap="xs" wrap="nowrap" className={classes.share} data-share={share.style}>
      <Progress
        value={share.percent}
        color={color}
        size="md"
        radius="xl"
        className={classes.bar}
        aria-label={`${row.name} share of portfolio`}
      />
      <Text
        size="sm"
        fw={share.style === 'normal' ? 600 : 500}
        c={share.style === 'zero' ? 'dimmed' : share.style === 'small' ? 'yellow.9' : undefined}
        className={classes.percent}
      >
        {share.percent}%
      </Text>
    </Group>
  );
}

/** A link when the action is allowed, a disabled button (not a dead link) when not. */
function ActionButton({
  label,
  name,
  to,
  state,
  isEnabled,
  variant = 'light',
}: {
  label: string;
  name: string;
  to: string;
  state?: AssetNavigationState;
  isEnabled: boolean;
  variant?: 'light' | 'default';
}) {
  const accessibleName = `${label} ${name}`;
  if (!isEnabled) {
    return (
      <Button size="compact-sm" variant={variant} disabled aria-label={accessibleName}>
        {label}
      </Button>
    );
  }
  return (
    <Button
      component={Link}
      to={to}
      state={state}
      size="compact-sm"
      variant={variant}
      aria-label={accessibleName}
    >
      {label}
    </Button>
  );
}

function RowActions({ row, actions }: { row: AssetRow; actions: MoneyActions }) {
  const state: AssetNavigationState = { name: row.asset, type: row.kind };
  const canAct = actions === 'all';
  const canWithdraw = actions !== 'none';
  if (row.kind === 'fiat') {
    return (
      <Group gap={6} wrap="nowrap" justify="flex-end">
        <ActionButton
          label="Deposit"
          name={row.name}
          to={withdrawDepositPath('deposit')}
          state={state}
          isEnabled={canAct && row.canDeposit}
        />
        <ActionButton
          label="Withdraw"
          name={row.name}
          to={withdrawDepositPath('withdraw')}
          state={state}
          isEnabled={canWithdraw && row.canWithdraw}
        />
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <ActionButton
        label="Buy"
        name={row.name}
        to={tradePath('buy', row.asset)}
        isEnabled={canAct && row.canBuy}
      />
      <ActionButton
        label="Sell"
        name={row.name}
        to={tradePath('sell', row.asset)}
        isEnabled={canAct && row.canSell}
      />
      <ActionButton
        label="Wallets"
        name={row.name}
        to={PATHS.wallets}
        state={state}
        isEnabled={canWithdraw}
        variant="default"
      />
    </Group>
  );
}

function AssetName({ row }: { row: AssetRow }) {
  return (
    <Stack gap={0}>
      <Text fw={600} size="sm">
        {row.name}
      </Text>
      {row.kind === 'coin' && (
        <Text size="xs" c="dimmed">
          {row.code}
        </Text>
      )}
    </Stack>
  );
}

function BalanceCell({ row, isHidden }: { row: AssetRow; isHidden: boolean }) {
  const value = valueText(row, isHidden);
  return (
    <Stack gap={0}>
      <Text size="sm" ff="monospace" data-testid={`balance-${row.asset}`}>
        {balanceText(row, isHidden)}
      </Text>
      {value && (
        <Text size="xs" c="dimmed" data-testid={`value-${row.asset}`}>
          {value}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The Assets table (spec 000 section 2): a table from 768 px, one card per
 * asset on a phone. Rows are named by their asset so each reads on its own.
 */
export function AssetsTable({ rows, isHidden, onToggleHidden, actions }: AssetsTableProps) {
  return (
    <>
      <Box visibleFrom="sm">
        <Table verticalSpacing="sm" aria-label="Assets" className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Asset</Table.Th>
              <Table.Th>
                <Group gap={4} wrap="nowrap">
                  Balance
                  <HideFundsToggle isHidden={isHidden} onToggle={onToggleHidden} />
                </Group>
              </Table.Th>
              <Table.Th>Details</Table.Th>
              <Table.Th>Portfolio Percentage</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.asset} aria-label={row.name}>
                <Table.Td>
                  <AssetName row={row} />
                </Table.Td>
                <Table.Td>
                  <BalanceCell row={row} isHidden={isHidden} />
                </Table.Td>
                <Table.Td>
                  <DetailsPopover row={row} isHidden={isHidden} />
                </Table.Td>
                <Table.Td>
                  <PortfolioBar row={row} />
                </Table.Td>
                <Table.Td>
                  <RowActions row={row} actions={actions} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack
        hiddenFrom="sm"
        gap="xs"
        component="ul"
        m={0}
        p={0}
        className={classes.cards}
        aria-label="Assets"
      >
        {rows.map((row) => (
          <Paper key={row.asset} component="li" withBorder radius="md" p="sm" aria-label={row.name}>
            <Stack gap="xs">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <AssetName row={row} />
                <Box ta="right">
                  <BalanceCell row={row} isHidden={isHidden} />
                </Box>
              </Group>
              <PortfolioBar row={row} />
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <DetailsPopover row={row} isHidden={isHidden} />
                <RowActions row={row} actions={actions} />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
