import { AppError, type CoinId, TRADING_TEXTS, type PriceUpdate, type TradingTerms } from '@florin/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState, type ChangeEvent } from 'react';
import { STALE_PRICES_TEXT } from '../../../../lib/price-feed';
import { showSuccessToast } from '../../../../lib/toasts';
import { usePlaceLimitOrder } from '../api/place-limit-order';
import { usePlaceMarketOrder } from '../api/place-market-order';
import {
  buyShare,
  isNumericInput,
  isPositiveDecimal,
  isWholeUnitCoin,
  orderValues,
  sellShare,
  validateOrder,
  type OrderErrors,
  type OrderKind,
  type OrderShare,
} from '../order-math';
import { formatPrice, OrderSummary } from './order-summary';

type TradeSide = 'buy' | 'sell';
type CoinTerms = TradingTerms['coins'][number];

export type OrderFormProps = {
  coin: CoinId;
  kind: OrderKind;
  /** The customer's fee and limits for the coin; undefined while loading. */
  terms: CoinTerms | undefined;
  /** What may be spent now, decimal strings; undefined while loading. */
  gbpAvailable: string | undefined;
  coinAvailable: string | undefined;
  live: PriceUpdate | undefined;
  isStale: boolean;
};

function newIdempotencyKey(): string {
  return `trade-${crypto.randomUUID()}`;
}

const SHARES: readonly { side: TradeSide; percent: OrderShare }[] = [
  { side: 'sell', percent: 100 },
  { side: 'sell', percent: 50 },
  { side: 'buy', percent: 100 },
  { side: 'buy', percent: 50 },
];

/**
 * The order form of the trading screen (spec 002 sections 2.4, 4, 5, 8):
 * quantity, a price for limit orders, the percent buttons, the order's value
 * and the balances, and SELL and BUY. Market orders are priced by the server
 * now, within a maximum slippage from the price shown; limit orders wait for
 * the house price to reach theirs.
 */
export function OrderForm({ coin, kind, terms, gbpAvailable, coinAvailable, live, isStale }: OrderFormProps) {
  const code = coin.toUpperCase();
  const symbol = `${code}/GBP`;
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const [isStop, setIsStop] = useState(false);
  const [errors, setErrors] = useState<OrderErrors>({});
  const [pendingSide, setPendingSide] = useState<TradeSide | null>(null);
  /** Kept while the same order is retried after a lost answer; a new one once the server has answered. */
  const idempotencyKey = useRef<string | null>(null);
  const market = usePlaceMarketOrder();
  const limit = usePlaceLimitOrder();
  const isLoading = pendingSide !== null;
  const isMarket = kind === 'market';
  const isStopOrder = !isMarket && isStop;
  const hasLivePrice = live !== undefined && !isStale;
  const feePercent = terms?.fee_percent;

  const buyPrice = isMarket ? live?.ask : price;
  const sellPrice = isMarket ? live?.bid : price;
  const values =
    feePercent === undefined
      ? null
      : orderValues({
          coin,
          quantity,
          referencePrice: isMarket ? live?.mid : price,
          buyPrice,
          sellPrice,
          feePercent,
        });

  const canBuy = (terms?.can_buy ?? true) && !isStopOrder;
  const canSell = terms?.can_sell ?? true;
  const isPriceMissing = isMarket && !hasLivePrice;

  function changeInput(setter: (value: string) => void, field: keyof OrderErrors) {
    return (event: ChangeEvent<HTMLInputElement>) => {
      const text = event.currentTarget.value;
      if (!isNumericInput(text) || (field === 'quantity' && isWholeUnitCoin(coin) && text.includes('.')))
        return;
      setter(text);
      idempotencyKey.current = null;
      setErrors((current) => ({ ...current, [field]: undefined }));
    };
  }

  function fillShare(side: TradeSide, percent: OrderShare) {
    if (!terms) return;
    const amountMax = terms.amount_max;
    let next: string | null = null;
    if (side === 'sell' && coinAvailable !== undefined) {
      next = sellShare({ coin, percent, amountMax, coinAvailable });
    } else if (side === 'buy' && gbpAvailable !== undefined) {
      const at = isMarket || !isPositiveDecimal(price) ? live?.ask : price;
      if (isPositiveDecimal(at)) {
        next = buyShare({
          coin,
          percent,
          amountMax,
          fiatAvailable: gbpAvailable,
          price: at,
          feePercent: terms.fee_percent,
        });
      }
    }
    if (next === null) return;
    setQuantity(next);
    idempotencyKey.current = null;
    setErrors((current) => ({ ...current, quantity: undefined }));
  }

  function resetForm() {
    setQuantity('');
    setPrice('');
    setErrors({});
    idempotencyKey.current = null;
  }

  async function handleSubmit(side: TradeSide) {
    const found = validateOrder(kind, quantity, price, coin);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    idempotencyKey.current ??= newIdempotencyKey();
    const key = idempotencyKey.current;
    setPendingSide(side);
    try {
      let message: string;
      if (isMarket) {
        const shown = side === 'buy' ? live?.ask : live?.bid;
        ({ message } = await market.mutateAsync({
          side,
          idempotencyKey: key,
          body: { coin_id: coin, crypto_amount: quantity, crypto_price: shown, currency: 'gbp' },
        }));
      } else {
        ({ message } = await limit.mutateAsync({
          idempotencyKey: key,
          body: {
            coin_id: coin,
            order_qty: quantity,
            price,
            symbol,
            side: side === 'buy' ? 1 : 2,
            order_type: isStopOrder ? 3 : 2,
            currency: 'gbp',
          },
        }));
      }
      resetForm();
      // The server may say the title again; then the toast says what was done instead.
      const done = isMarket
        ? `${side === 'buy' ? 'Bought' : 'Sold'} ${quantity} ${code}.`
        : TRADING_TEXTS.orderPlaced;
      showSuccessToast({
        title: TRADING_TEXTS.transactionSuccessful,
        message: message === TRADING_TEXTS.transactionSuccessful ? done : message,
      });
    } catch (error) {
      // The toast has said what went wrong; a lost answer keeps its key so a retry cannot trade twice.
      if (!(error instanceof AppError) || error.code !== 'UNAVAILABLE') idempotencyKey.current = null;
      if (error instanceof AppError && error.errors) {
        const fieldErrors = error.errors;
        setErrors({
          quantity: fieldErrors.crypto_amount?.[0] ?? fieldErrors.order_qty?.[0],
          price: fieldErrors.price?.[0],
        });
      }
    } finally {
      setPendingSide(null);
    }
  }

  const sideDisabled = (side: TradeSide) =>
    isLoading || isPriceMissing || (side === 'buy' ? !canBuy : !canSell);

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      h="100%"
      aria-labelledby="order-form-heading"
    >
      <form
        noValidate
        onSubmit={(event) => {
          // Enter in a field does nothing: the customer chooses SELL or BUY.
          event.preventDefault();
        }}
      >
        <Stack gap="sm">
          <Title order={2} fz={{ base: 18, sm: 20 }} id="order-form-heading">
            {isMarket ? 'Market order' : 'Limit order'} {symbol}
          </Title>
          <TextInput
            label="Quantity"
            inputMode="decimal"
            autoComplete="off"
            value={quantity}
            onChange={changeInput(setQuantity, 'quantity')}
            error={errors.quantity}
            rightSection={<Text fz="xs">{code}</Text>}
            rightSectionWidth={48}
          />
          {!isMarket && (
            <>
              <TextInput
                label="Price (GBP)"
                inputMode="decimal"
                autoComplete="off"
                value={price}
                onChange={changeInput(setPrice, 'price')}
                error={errors.price}
                description={
                  live
                    ? `Market: buy ${formatPrice(live.ask, coin)} · sell ${formatPrice(live.bid, coin)}`
                    : undefined
                }
              />
              <Checkbox
                label="Stop order: sell when the price falls to it"
                checked={isStop}
                onChange={(event) => {
                  setIsStop(event.currentTarget.checked);
                  idempotencyKey.current = null;
                }}
              />
            </>
          )}
          <SimpleGrid cols={2} spacing="xs">
            {SHARES.map(({ side, percent }) => (
              <Button
                key={`${side}-${percent}`}
                size="compact-sm"
                variant="light"
                color={side === 'buy' ? 'teal' : 'red'}
                disabled={
                  isLoading ||
                  !terms ||
                  (side === 'buy'
                    ? !canBuy || gbpAvailable === undefined
                    : !canSell || coinAvailable === undefined)
                }
                onClick={() => fillShare(side, percent)}
              >
                {side.toUpperCase()} {percent}%
              </Button>
            ))}
          </SimpleGrid>
          <OrderSummary
            coin={coin}
            isMarket={isMarket}
            live={live}
            feePercent={feePercent}
            values={values}
            gbpAvailable={gbpAvailable}
            coinAvailable={coinAvailable}
          />
          {isMarket && isStale && (
            <Alert color="yellow" p="xs" role="status">
              {STALE_PRICES_TEXT}
            </Alert>
          )}
          <Group grow gap="sm">
            <Button
              color="red"
              size="md"
              disabled={sideDisabled('sell')}
              loading={pendingSide === 'sell'}
              onClick={() => void handleSubmit('sell')}
            >
              SELL
            </Button>
            <Button
              color="teal"
              size="md"
              disabled={sideDisabled('buy')}
              loading={pendingSide === 'buy'}
              onClick={() => void handleSubmit('buy')}
            >
              BUY
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
