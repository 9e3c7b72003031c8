import { AppError, TRADING_TEXTS, type OpenOrder, type Position } from '@florin/contracts';
import { priceDecimals } from '@florin/domain';
import {
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState, type ReactNode, type UIEvent } from 'react';
import { reportError, statusText } from '../../../../lib/errors';
import { COIN_DECIMALS, formatDecimal, formatFiat } from '../../../../lib/format';
import { showErrorToast, showSuccessToast } from '../../../../lib/toasts';
import { useCancelOrder } from '../api/cancel-order';
import { useOpenOrders } from '../api/list-open-orders';
import { usePositions } from '../api/list-positions';
import { isNearEnd } from '../list-scroll';

/** Spec 002 section 2.4: the filter values of the list under the form. */
export const LIST_FILTERS = { current_positions: 'Current Positions', open_orders: 'Open Orders' } as const;
export type ListFilter = keyof typeof LIST_FILTERS;

const LIST_MAX_HEIGHT = 420;

function formatPrice(value: string, coinId: string): string {
  return `£${formatDecimal(value, priceDecimals(coinId)) ?? value}`;
}

function formatQuantity(value: string): string {
  return formatDecimal(value, COIN_DECIMALS) ?? value;
}

/** The list under the order form: the customer's positions or open orders. */
export function OrdersPanel() {
  const [filter, setFilter] = useState<ListFilter>('current_positions');
  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="orders-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} fz={{ base: 18, sm: 20 }} id="orders-heading">
            {LIST_FILTERS[filter]}
          </Title>
          <SegmentedControl
            aria-label="Show"
            value={filter}
            onChange={(value) => setFilter(value as ListFilter)}
            data={Object.entries(LIST_FILTERS).map(([value, label]) => ({ value, label }))}
          />
        </Group>
        {filter === 'open_orders' ? <OpenOrdersList /> : <PositionsList />}
      </Stack>
    </Paper>
  );
}

function EmptyList() {
  return (
    <Text c="dimmed" fz="sm" py="sm">
      {TRADING_TEXTS.noTransactions}
    </Text>
  );
}

function ListState({
  isPending,
  isError,
  onRetry,
  what,
}: {
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  what: string;
}) {
  if (isPending)
    return (
      <Group justify="center" p="md">
        <Loader aria-label={`Loading your ${what}`} />
      </Group>
    );
  if (isError)
    return (
      <Group justify="center" gap="sm" p="md" role="alert">
        <Text c="dimmed">Your {what} could not be loaded.</Text>
        <Button size="compact-sm" variant="light" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    );
  return null;
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text component="dt" fz="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" fz="sm" fw={600} m={0} ff="monospace" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

function PositionsList() {
  const positions = usePositions();
  const items = positions.data ?? [];
  return (
    <>
      <ListState
        isPending={positions.isPending}
        isError={positions.isError && !positions.data}
        onRetry={() => void positions.refetch()}
        what="positions"
      />
      {positions.data && items.length === 0 && <EmptyList />}
      {items.length > 0 && (
        <Box mah={LIST_MAX_HEIGHT} style={{ overflowY: 'auto' }}>
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label="Current positions"
          >
            {items.map((position) => (
              <PositionRow key={position.coin_id} position={position} />
            ))}
          </Stack>
        </Box>
      )}
    </>
  );
}

const DIRECTIONS = {
  up: { arrow: '▲', colour: 'teal.8', words: 'up' },
  down: { arrow: '▼', colour: 'red.8', words: 'down' },
  flat: { arrow: '', colour: undefined, words: 'flat' },
} as const;

function PositionRow({ position }: { position: Position }) {
  const direction = DIRECTIONS[position.direction ?? 'flat'];
  const pnl = position.unrealised_pnl === null ? null : formatFiat(position.unrealised_pnl, 'GBP');
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={`Position ${position.symbol}`}>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 3, md: 6 }} spacing="sm" verticalSpacing="xs" my={0}>
        <Field label="Asset">{position.symbol}</Field>
        <Field label="Quantity" testId="position-quantity">
          {formatQuantity(position.quantity)}
        </Field>
        <Field label="Order type">{position.order_type}</Field>
        <Field label="Average cost" testId="position-average-cost">
          {position.average_cost === null ? '—' : formatPrice(position.average_cost, position.coin_id)}
        </Field>
        <Field label="Price" testId="position-price">
          {position.price === null ? '—' : formatPrice(position.price, position.coin_id)}
        </Field>
        <Stack gap={0}>
          <Text component="dt" fz="xs" c="dimmed">
            Unrealised P&amp;L
          </Text>
          <Text component="dd" fz="sm" fw={700} m={0} ff="monospace" c={direction.colour}>
            {direction.arrow && (
              <span aria-hidden="true" data-testid="position-pnl-arrow">
                {direction.arrow}{' '}
              </span>
            )}
            <span data-testid="position-pnl">{pnl ?? '—'}</span>
            <VisuallyHidden>{` ${direction.words}`}</VisuallyHidden>
          </Text>
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}

function OpenOrdersList() {
  const orders = useOpenOrders();
  const cancel = useCancelOrder();
  const items = orders.data?.pages.flatMap((page) => page.data) ?? [];

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    if (isNearEnd(event.currentTarget) && orders.hasNextPage && !orders.isFetchingNextPage) {
      void orders.fetchNextPage();
    }
  };

  const handleCancel = (order: OpenOrder) => {
    cancel.mutate(order.id, {
      onSuccess: ({ message }) =>
        showSuccessToast({
          title: TRADING_TEXTS.orderCancelled,
          // The server may say the title again; then the toast names the order instead.
          message:
            message === TRADING_TEXTS.orderCancelled
              ? `${order.order_type} ${order.side === 1 ? 'buy' : 'sell'} ${formatQuantity(order.order_qty)} ${order.symbol} at ${formatPrice(order.price, order.coin_id)}`
              : message,
        }),
      onError: (error) => {
        if (error instanceof AppError && error.status === 404) {
          showErrorToast({
            id: 'cancel-not-found',
            title: statusText(404),
            message: TRADING_TEXTS.orderNotFound,
          });
        } else {
          reportError(error);
        }
      },
    });
  };

  return (
    <>
      <ListState
        isPending={orders.isPending}
        isError={orders.isError && !orders.data}
        onRetry={() => void orders.refetch()}
        what="open orders"
      />
      {orders.data && items.length === 0 && <EmptyList />}
      {items.length > 0 && (
        <Box
          mah={LIST_MAX_HEIGHT}
          style={{ overflowY: 'auto' }}
          onScroll={handleScroll}
          data-testid="open-orders-scroll"
        >
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Open orders">
            {items.map((order) => (
              <OpenOrderRow
                key={order.id}
                order={order}
                isCancelling={cancel.isPending && cancel.variables === order.id}
                onCancel={handleCancel}
              />
            ))}
          </Stack>
          {orders.isFetchingNextPage && (
            <Group justify="center" p="xs">
              <Loader size="sm" aria-label="Loading more orders" />
            </Group>
          )}
        </Box>
      )}
    </>
  );
}

function OpenOrderRow({
  order,
  isCancelling,
  onCancel,
}: {
  order: OpenOrder;
  isCancelling: boolean;
  onCancel: (order: OpenOrder) => void;
}) {
  const side = order.side === 1 ? 'Buy' : 'Sell';
  const quantity = formatQuantity(order.order_qty);
  const price = formatPrice(order.price, order.coin_id);
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`${order.order_type} ${side} ${quantity} ${order.symbol} at ${price}`}
    >
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <SimpleGrid
          component="dl"
          cols={{ base: 2, sm: 4, md: 7 }}
          spacing="sm"
          verticalSpacing="xs"
          my={0}
          style={{ flex: '1 1 420px' }}
        >
          <Field label="Asset">{order.symbol}</Field>
          <Field label="Qty">{quantity}</Field>
          <Field label="Price">{price}</Field>
          <Field label="Order type">{order.order_type}</Field>
          <Stack gap={0}>
            <Text component="dt" fz="xs" c="dimmed">
              Direction
            </Text>
            <Box component="dd" m={0}>
              <Badge color={order.side === 1 ? 'teal' : 'red'} variant="light">
                {side}
              </Badge>
            </Box>
          </Stack>
          <Field label="Delta" testId="order-delta">
            {order.delta === null ? '—' : (formatFiat(order.delta, 'GBP') ?? order.delta)}
          </Field>
          <Field label="% Away" testId="order-percent-away">
            {order.percent_away === null
              ? '—'
              : `${formatDecimal(order.percent_away, 2) ?? order.percent_away} %`}
          </Field>
        </SimpleGrid>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          disabled={isCancelling}
          onClick={() => onCancel(order)}
          aria-label={isCancelling ? TRADING_TEXTS.cancelProcessing : `Cancel ${side.toLowerCase()} order`}
        >
          {isCancelling ? TRADING_TEXTS.cancelProcessing : 'Cancel'}
        </Button>
      </Group>
    </Paper>
  );
}
