import {
  assetOfCoinId,
  QUOTE_SECONDS,
  TRADING_TEXTS,
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
} from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LivePricePanel } from '../../../components/live-price-panel';
import { COIN_DECIMALS, formatDecimal, formatFiat } from '../../../lib/format';
import { priceSymbol, usePriceFeed } from '../../../lib/price-feed';
import { useLivePrice } from '../../../lib/price-stream';
import { RecentActivity } from '../../../components/recent-activity';
import { useBalances, useLivePortfolio } from '../../../lib/portfolio';
import { useTradingTerms } from '../api/get-trading-terms';
import {
  availableOf,
  estimateInstant,
  exceedsBalance,
  fiatChoices,
  formatTradePrice,
  maxQuantity,
  normalizeDecimal,
  tradableCoins,
  type AmountSource,
} from './instant-amounts';
import { BalanceRows, InstantAmountFields, type Amount } from './instant-order-fields';
import { QuoteModal } from './quote-modal';
import { showExceedingToast, useInstantQuote } from './use-instant-quote';

const NO_AMOUNT: Amount = { source: 'quantity', text: '' };

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

/** The terms or the balances did not load: the page cannot work out a trade without both. */
function InstantTradeLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert color="red" title="The trade page could not be loaded." role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Please try again; if it keeps happening, contact support.</Text>
        <Button size="compact-sm" variant="light" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
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
  const resetAmounts = () => setAmount(NO_AMOUNT);
  const { quote, secondsLeft, isRequoting, isExecuting, openPreview, executeQuote, closePreview } =
    useInstantQuote({ onExecuted: resetAmounts });

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
    openPreview({
      side,
      coin_id: coinId,
      currency: fiat,
      ...(amount.source === 'quantity' ? { quantity: typed } : { cost: typed }),
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
    return <InstantTradeLoadFailed onRetry={() => void Promise.all([terms.refetch(), balances.refetch()])} />;
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
            <BalanceRows
              fiatAvailable={money(fiatAvailable)}
              coinAvailable={formatDecimal(coinAvailable, coinScale) ?? coinAvailable}
              coinCode={coinCode}
            />
            <InstantAmountFields
              side={side}
              coin={coin}
              fiatCode={fiatCode}
              canFillMax={!(side === 'buy' && price === undefined)}
              quantityShown={quantityShown}
              costShown={costShown}
              onHold={(field, text) => setHeld({ field, text })}
              onRelease={() => setHeld(null)}
              onAmountChange={setAmount}
              onFillMax={fillMax}
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
              loading={isRequoting && quote === null}
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
        onExecute={executeQuote}
        onClose={closePreview}
      />
    </Stack>
  );
}
