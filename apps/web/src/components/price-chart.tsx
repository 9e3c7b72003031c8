import type { PriceUpdate } from '@florin/contracts';
import { Box, Group, Text } from '@mantine/core';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { priceSymbol } from '../lib/price-feed';
import { usePriceUpdates } from '../lib/price-stream';
import {
  applyTick,
  formatChartPrice,
  pricePrecision,
  RESOLUTIONS,
  type ChartCandle,
  type Resolution,
} from '../lib/candles';

/** Mantine's green.8 and red.8: the usual up and down colours, dark enough on white. */
const UP_COLOUR = '#2f9e44';
const DOWN_COLOUR = '#e03131';

function toSeriesData(candle: ChartCandle): CandlestickData<UTCTimestamp> {
  return { ...candle, time: candle.time as UTCTimestamp };
}

export type PriceChartProps = {
  coin: string;
  fiat: string;
  resolution: Resolution;
  /** The history, oldest first. */
  candles: readonly ChartCandle[];
  height?: number;
};

/**
 * A candlestick chart of one pair: the history it is given, then every live
 * price of the pair moving the last candle (crypto trades 24/7, so there are
 * no session gaps to configure). It follows its container's width.
 */
export function PriceChart({ coin, fiat, resolution, candles, height = 420 }: PriceChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const lastCandleRef = useRef<ChartCandle | undefined>(undefined);
  const [lastCandle, setLastCandle] = useState<ChartCandle | undefined>(undefined);
  const bucketSeconds = RESOLUTIONS[resolution].seconds;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const precision = pricePrecision(fiat);
    // autoSize watches the container with a ResizeObserver, so the chart follows the window.
    const chart: IChartApi = createChart(container, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: '#ffffff' }, textColor: '#14212b' },
      grid: { vertLines: { color: '#eef1f3' }, horzLines: { color: '#eef1f3' } },
      timeScale: { timeVisible: resolution !== 'D', secondsVisible: false },
      localization: { locale: 'en-GB', priceFormatter: (price: number) => formatChartPrice(price, fiat) },
    });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: UP_COLOUR,
      downColor: DOWN_COLOUR,
      borderVisible: false,
      wickUpColor: UP_COLOUR,
      wickDownColor: DOWN_COLOUR,
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
    });
    seriesRef.current = series;
    return () => {
      seriesRef.current = null;
      chart.remove();
    };
  }, [fiat, resolution]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    series.setData(candles.map(toSeriesData));
    lastCandleRef.current = candles.at(-1);
    setLastCandle(candles.at(-1));
  }, [candles, fiat, resolution]);

  const handleUpdate = useCallback(
    (update: PriceUpdate) => {
      const next = applyTick(
        lastCandleRef.current,
        Number(update.mid),
        Date.parse(update.at) / 1000,
        bucketSeconds,
      );
      if (!next || !seriesRef.current) return;
      seriesRef.current.update(toSeriesData(next));
      lastCandleRef.current = next;
      setLastCandle(next);
    },
    [bucketSeconds],
  );
  usePriceUpdates(priceSymbol(coin, fiat), handleUpdate);

  return (
    <Box>
      <CandleLegend candle={lastCandle} fiat={fiat} />
      <Box
        ref={containerRef}
        h={height}
        role="img"
        aria-label={`${coin}/${fiat} candlestick chart, ${RESOLUTIONS[resolution].label} candles`}
        data-testid="price-chart"
      />
    </Box>
  );
}

/** The open, high, low and close of the newest candle, in words a screen reader (and a test) can read. */
function CandleLegend({ candle, fiat }: { candle: ChartCandle | undefined; fiat: string }) {
  if (!candle) return null;
  const entries = [
    ['Open', candle.open],
    ['High', candle.high],
    ['Low', candle.low],
    ['Close', candle.close],
  ] as const;
  return (
    <Group component="dl" aria-label="Latest candle" gap="md" my={0} mb="xs" wrap="wrap">
      {entries.map(([label, value]) => (
        <Group key={label} gap={4} wrap="nowrap">
          <Text component="dt" fz="sm" c="dimmed">
            {label}
          </Text>
          <Text
            component="dd"
            fz="sm"
            fw={600}
            m={0}
            ff="monospace"
            data-testid={`candle-${label.toLowerCase()}`}
          >
            {formatChartPrice(value, fiat)}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
