import {
  assetOfCoinId,
  QUOTE_SECONDS,
  TRADING_TEXTS,
  type Quote,
  type QuoteRequest,
  type TradeFiat,
  type TradeSide,
} from '@florin/contracts';
import { scaleOf, trimZeros } from '@florin/domain';
import {
  Alert,
  Button,
  Divider,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LivePricePanel } from '../../../components/live-price-panel';
import { COIN_DECIMALS, formatDecimal, formatFiat } from '../../../lib/format';
import { priceSymbol, usePriceFeed } from '../../../lib/price-feed';
import { useLivePrice } from '../../../lib/price-stream';
import { RecentActivity } from '../../../components/recent-activity';
import { useBalances, useLivePortfolio } from '../../../lib/portfolio';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { useCreateQuote } from '../api/create-quote';
import { useTradingTerms } from '../api/get-trading-terms';
import { useExecuteQuote } from '../api/place-instant-order';
import {
  availableOf,
  cleanDecimalInput,
  COST_PLACES,
  estimateInstant,
  exceedsBalance,
  fiatChoices,
  formatTradePrice,
  limitsText,
  maxQuantity,
  normalizeDecimal,
  quantityPlaces,
  tradableCoins,
  tradeSummary,
  type AmountSource,
} from './instant-amounts';
import { QuoteModal } from './quote-modal';

type Amount = { source: AmountSource; text: string };
const NO_AMOUNT: Amount = { source: 'quantity', text: '' };

function showExceedingToast(): void {
  showErrorToast({
    id: 'instant-exceeding-balance',
    title: TRADING_TEXTS.insufficientFundsTitle,
    message: TRADING_TEXTS.exceedingBalance,
  });
}

function SummaryRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} ff="monospace" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

function readSide(value: string | null): TradeSide {
  return value === 'sell' ? 'sell' : 'buy';
}

/**
 * The instant trade page (spec 002 sections 2.3 and 4): Buy or Sell a coin
 * against a fiat the customer holds at a server quote. The figures before
 * Preview come from the live price and the domain's fee rules; Preview asks
 * the server for a quote good for QUOTE_SECONDS, renewed while the preview
 * stays open, and Execute executes that quote by id.
 */
export function InstantTrade() {
  const [searchParams, setSearchParams] = useSearchParams();
  const side = readSide(searchParams.get('side'));
  const terms = useTradingTerms();
  const balances = useBalances();
  const priceFeed = usePriceFeed();
  useLivePortfolio();

  const [fiat, setFiat] = useState<TradeFiat>('gbp');
  const [amount, setAmount] = useState<Amount>(NO_AMOUNT);
  // The figure a focused field showed when the customer entered it: the price ticks every second, and a field
  // worked out from the other must not change under their cursor (it would drop what they selected to type over).
  const [held, setHeld] = useState<{ field: AmountSource; text: string } | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(QUOTE_SECONDS);
  // What the open preview quotes, so each renewal asks for the same order; null once it closes.
  const previewRequest = useRef<QuoteRequest | null>(null);
  const createQuote = useCreateQuote();
  const execute = useExecuteQuote();

  const coins = terms.data ? tradableCoins(terms.data, side) : [];
  const coin = coins.find((entry) => entry.coin_id === searchParams.get('coin')) ?? coins[0];
  const coinId = coin?.coin_id;
  const live = useLivePrice(coinId ? priceSymbol(coinId, fiat) : null);
  const price = live ? (side === 'buy' ? live.ask : live.bid) : undefined;

  const balanceMap = balances.data?.balances ?? {};
  const fiats = fiatChoices(balanceMap);
  const fiatAvailable = availableOf(balanceMap, fiat.toUpperCase());
  const coinAvailable = coinId ? availableOf(balanceMap, coinId) : '0';

  const estimate =
    coin && price && amount.text
      ? estimateInstant({
          side,
          coin: coin.coin_id,
          fiat,
          price,
          feePercent: coin.fee_percent,
          source: amount.source,
          amount: amount.text,
        })
      : undefined;
  const isExceeding =
    coinId !== undefined &&
    estimate !== undefined &&
    balances.data !== undefined &&
    exceedsBalance({ side, coin: coinId, fiat, estimate, fiatAvailable, coinAvailable });
  const hasAmount = /[1-9]/.test(amount.text);

  // Spec 002 section 5: the toast appears as the order starts to exceed the balance, once. Not while a
  // preview is open: the quote's own answer (a renewal, Execute) says so there.
  const wasExceeding = useRef(false);
  const isPreviewOpen = quote !== null;
  useEffect(() => {
    if (isExceeding && !wasExceeding.current && !isPreviewOpen) showExceedingToast();
    wasExceeding.current = isExceeding;
  }, [isExceeding, isPreviewOpen]);

  const closePreview = () => {
    previewRequest.current = null;
    setQuote(null);
  };

  const showQuote = (next: Quote) => {
    // Closed while the quote was on its way: nothing to show.
    if (previewRequest.current === null) return;
    if (next.exceeds_balance) {
      closePreview();
      showExceedingToast();
      return;
    }
    setQuote(next);
    setSecondsLeft(QUOTE_SECONDS);
  };

  const requestQuote = () => {
    const request = previewRequest.current;
    if (!request) return;
    createQuote.mutate(request, { onSuccess: showQuote, onError: closePreview });
  };

  // The countdown: one second at a time while the preview is open and nothing is in flight; at zero, a new quote.
  const isRequoting = createQuote.isPending;
  const isExecuting = execute.isPending;
  useEffect(() => {
    if (quote === null || isRequoting || isExecuting) return;
    if (secondsLeft <= 0) {
      requestQuote();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1_000);
    return () => clearTimeout(timer);
    // requestQuote reads the open preview from a ref; the countdown restarts on these alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quote, secondsLeft, isRequoting, isExecuting]);

  const resetAmounts = () => setAmount(NO_AMOUNT);

  const changeSide = (next: string) => {
    const params = new URLSearchParams(searchParams);
    params.set('side', readSide(next));
    setSearchParams(params, { replace: true });
    resetAmounts();
  };

  const changeCoin = (next: string | null) => {
    if (!next) return;
    const params = new URLSearchParams(searchParams);
    params.set('coin', next);
    params.set('side', side);
    setSearchParams(params, { replace: true });
    resetAmounts();
  };

  const changeFiat = (next: string | null) => {
    const chosen = fiats.find((entry) => entry === next);
    if (!chosen) return;
    setFiat(chosen);
    resetAmounts();
  };

  const fillMax = () => {
    if (!coin) return;
    const max = maxQuantity({ side, coin, fiat, price, fiatAvailable, coinAvailable });
    if (max !== undefined) setAmount({ source: 'quantity', text: max === '0' ? '' : max });
  };

  const handlePreview = (event: FormEvent) => {
    event.preventDefault();
    if (!coinId || !hasAmount || isExceeding) return;
    const typed = normalizeDecimal(amount.text);
    previewRequest.current = {
      side,
      coin_id: coinId,
      currency: fiat,
      ...(amount.source === 'quantity' ? { quantity: typed } : { cost: typed }),
    };
    requestQuote();
  };

  const handleExecute = () => {
    if (!quote) return;
    execute.mutate(quote, {
      onSuccess: (answer) => {
        closePreview();
        resetAmounts();
        showSuccessToast({
          id: 'instant-order',
          title: TRADING_TEXTS.transactionSuccessful,
          message: tradeSummary(answer.data),
        });
      },
      onError: closePreview,
    });
  };

  if (terms.isPending || balances.isPending) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading the instant trade page">
        <Skeleton height={40} />
        <Skeleton height={220} />
      </Stack>
    );
  }
  if (!terms.data || !balances.data) {
    return (
      <Alert color="red" title="The trade page could not be loaded." role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Please try again; if it keeps happening, contact support.</Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => void Promise.all([terms.refetch(), balances.refetch()])}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  const fiatCode = fiat.toUpperCase();
  const coinCode = coinId?.toUpperCase() ?? '';
  const coinNames = priceFeed.data ?? {};
  const money = (value: string) => formatFiat(value, fiatCode) ?? value;
  const shown = (field: AmountSource, worked: string) =>
    amount.source === field ? amount.text : held?.field === field ? held.text : worked;
  const quantityShown = shown('quantity', estimate ? trimZeros(estimate.quantity) : '');
  const costShown = shown('cost', estimate?.total ?? '');
  const coinScale = coinId ? Math.min(scaleOf(assetOfCoinId(coinId)), COIN_DECIMALS) : COIN_DECIMALS;

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper
          component="form"
          withBorder
          radius="md"
          p={{ base: 'sm', sm: 'md' }}
          onSubmit={handlePreview}
          aria-label="Instant order"
          noValidate
        >
          <Stack gap="sm">
            <SegmentedControl
              aria-label="Buy or sell"
              data={[
                { label: 'Buy', value: 'buy' },
                { label: 'Sell', value: 'sell' },
              ]}
              value={side}
              onChange={changeSide}
              color={side === 'buy' ? 'teal' : 'red'}
              fullWidth
            />
            {coins.length === 0 ? (
              <Alert color="yellow" role="note">
                {side === 'buy' ? TRADING_TEXTS.buyDisabled : TRADING_TEXTS.sellDisabled}
              </Alert>
            ) : (
              <Select
                label="Coin"
                data={coins.map((entry) => ({
                  value: entry.coin_id,
                  label: `${coinNames[entry.coin_id]?.coin.name ?? entry.coin_id.toUpperCase()} (${entry.coin_id.toUpperCase()})`,
                }))}
                value={coinId ?? null}
                onChange={changeCoin}
                allowDeselect={false}
                checkIconPosition="right"
              />
            )}
            <Select
              label="From Wallet"
              data={fiats.map((entry) => ({
                value: entry,
                label: `${entry.toUpperCase()} · ${formatFiat(availableOf(balanceMap, entry.toUpperCase()), entry.toUpperCase()) ?? ''}`,
              }))}
              value={fiat}
              onChange={changeFiat}
              allowDeselect={false}
              checkIconPosition="right"
            />
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed">
                Available
              </Text>
              <Text size="sm" ff="monospace" data-testid="available-fiat">
                {money(fiatAvailable)}
              </Text>
            </Group>
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed">
                {coinCode} balance
              </Text>
              <Text size="sm" ff="monospace" data-testid="available-coin">
                {formatDecimal(coinAvailable, coinScale) ?? coinAvailable} {coinCode}
              </Text>
            </Group>
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <TextInput
                label="Quantity"
                description={coin ? limitsText(coin) : undefined}
                inputMode={coinId === 'xrp' ? 'numeric' : 'decimal'}
                autoComplete="off"
                placeholder="0"
                value={quantityShown}
                onFocus={() => setHeld({ field: 'quantity', text: quantityShown })}
                onBlur={() => setHeld(null)}
                onChange={(event) =>
                  setAmount({
                    source: 'quantity',
                    text: cleanDecimalInput(event.currentTarget.value, coinId ? quantityPlaces(coinId) : 8),
                  })
                }
                rightSection={
                  <Text size="xs" c="dimmed">
                    {coinCode}
                  </Text>
                }
                rightSectionWidth={48}
                style={{ flex: 1 }}
                disabled={!coin}
              />
              <Button
                variant="light"
                onClick={fillMax}
                disabled={!coin || (side === 'buy' && price === undefined)}
              >
                MAX
              </Button>
            </Group>
            <TextInput
              label="Cost"
              description={side === 'buy' ? 'What you pay, fee included' : 'What you receive, after the fee'}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              value={costShown}
              onFocus={() => setHeld({ field: 'cost', text: costShown })}
              onBlur={() => setHeld(null)}
              onChange={(event) =>
                setAmount({ source: 'cost', text: cleanDecimalInput(event.currentTarget.value, COST_PLACES) })
              }
              rightSection={
                <Text size="xs" c="dimmed">
                  {fiatCode}
                </Text>
              }
              rightSectionWidth={48}
              disabled={!coin}
            />
            <Divider />
            <SummaryRow
              label="Price"
              testId="instant-price"
              value={(price && coinId && formatTradePrice(price, fiat, coinId, side)) ?? '—'}
            />
            <SummaryRow
              label={`Fee${coin ? ` (${coin.fee_percent}%)` : ''}`}
              testId="instant-fee"
              value={estimate ? money(estimate.fee) : '—'}
            />
            <SummaryRow label="Total" testId="instant-total" value={estimate ? money(estimate.total) : '—'} />
            {isExceeding && (
              <Text size="sm" c="red.8">
                {TRADING_TEXTS.exceedingBalance}
              </Text>
            )}
            <Button
              type="submit"
              size="md"
              disabled={!coin || !hasAmount || isExceeding}
              loading={createQuote.isPending && quote === null}
            >
              Preview Order
            </Button>
          </Stack>
        </Paper>
        <Stack gap="sm">
          {coinId && <LivePricePanel coin={coinId} fiat={fiatCode} />}
          <Text size="sm" c="dimmed">
            Prices here are indicative. Preview Order fetches a firm price good for {QUOTE_SECONDS} seconds;
            Execute trades at exactly that price.
          </Text>
        </Stack>
      </SimpleGrid>
      {coinId && <RecentActivity coinId={coinId} title={`${coinId.toUpperCase()} Activity`} />}
      <QuoteModal
        quote={quote}
        secondsLeft={secondsLeft}
        isRequoting={isRequoting}
        isExecuting={isExecuting}
        onExecute={handleExecute}
        onClose={closePreview}
      />
    </Stack>
  );
}
