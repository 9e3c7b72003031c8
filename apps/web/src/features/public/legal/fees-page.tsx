import type { AssetFees, Fees, PublicCoin, PublicCoins } from '@florin/contracts';
import { trimZeros } from '@florin/domain';
import { Alert, Button, Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { lowestTradingPercent, useFees } from '../../../lib/fees';
import { formatDecimal, formatFiat } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { priceSymbol } from '../../../lib/price-feed';
import { ScrollableTable, StaticPage } from '../static-page';
import { usePublicCoins } from './api/get-public-coins';

const NONE = 'None';

/** `0.00050000` BTC → `0.0005 BTC`; `200000.000000` XRP → `200,000 XRP`: every significant digit, no padding. */
function formatCoin(value: string, asset: string): string {
  const trimmed = trimZeros(value);
  const places = trimmed.split('.')[1]?.length ?? 0;
  return `${formatDecimal(trimmed, places) ?? trimmed} ${asset}`;
}

function formatAmountOf(fees: AssetFees, value: string): string {
  return fees.kind === 'fiat' ? (formatFiat(value, fees.asset) ?? value) : formatCoin(value, fees.asset);
}

function isZero(value: string): boolean {
  return !/[1-9]/.test(value);
}

/** `50001.00` → `£50,001`: the tier table's whole-pound bounds. */
function wholePounds(value: string): string {
  return (formatFiat(value, 'GBP') ?? value).replace(/\.00$/, '');
}

/** A coin's platform_fee caps the schedule's fee (DECISIONS.md); 0 makes the coin free. */
function pairFee(coin: PublicCoin): string {
  if (coin.platform_fee === null) return 'The schedule above';
  if (isZero(coin.platform_fee)) return 'Free';
  return `The schedule above, at most ${trimZeros(coin.platform_fee)}%`;
}

/** One of the page's tables, labelled by the heading with `id` above it. */
function FeeTable({
  id,
  label,
  columns,
  children,
}: {
  id: string;
  label: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <ScrollableTable label={label}>
      <table aria-labelledby={id}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollableTable>
  );
}

export function FeesPage() {
  const fees = useFees();
  const coins = usePublicCoins();
  return (
    <StaticPage
      title="Fees"
      description="Florin's fees for deposits, withdrawals and trades, with the minimum and maximum amounts, taken from the settings our systems charge."
      width="wide"
    >
      <p>
        This page is built from the same settings our systems charge, so what you read here is what you pay.
        Every trade shows its fee before you confirm it.
      </p>
      {fees.isError || coins.isError ? (
        <Alert color="red" title="The fees could not be loaded" role="alert">
          <p>Please check your connection and try again.</p>
          <Button
            variant="light"
            color="red"
            onClick={() => {
              void fees.refetch();
              void coins.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      ) : fees.data && coins.data ? (
        <FeeTables fees={fees.data} coins={coins.data} />
      ) : (
        <Center py="xl" role="status" aria-label="Loading fees">
          <Loader />
        </Center>
      )}
    </StaticPage>
  );
}

function FeeTables({ fees, coins }: { fees: Fees; coins: PublicCoins }) {
  const tiers = fees.trading;
  const lastTier = tiers.at(-1);
  const lowestTradingFee = lowestTradingPercent(fees);
  return (
    <>
      <h2 id="deposits">Deposits</h2>
      <FeeTable id="deposits" label="Deposits" columns={['Asset', 'Fee', 'Minimum', 'Maximum']}>
        {fees.assets.map((asset) => (
          <tr key={asset.asset}>
            <th scope="row">{asset.asset}</th>
            <td>{isZero(asset.deposit_fee) ? 'Free' : formatAmountOf(asset, asset.deposit_fee)}</td>
            <td>{NONE}</td>
            <td>{NONE}</td>
          </tr>
        ))}
      </FeeTable>
      <p>
        Pounds arrive by bank transfer from an account in your own name; crypto arrives at the deposit address
        we give you once the network has confirmed it.
      </p>

      <h2 id="withdrawals">Withdrawals</h2>
      <FeeTable id="withdrawals" label="Withdrawals" columns={['Asset', 'Fee', 'Minimum', 'Maximum']}>
        {fees.assets.map((asset) => (
          <tr key={asset.asset}>
            <th scope="row">{asset.asset}</th>
            <td>
              {formatAmountOf(asset, asset.withdraw_fee)}
              {asset.withdraw_fee_free_from !== null && (
                <>
                  <br />
                  {`Free from ${formatAmountOf(asset, asset.withdraw_fee_free_from)}`}
                </>
              )}
            </td>
            <td>{formatAmountOf(asset, asset.withdraw_min)}</td>
            <td>{asset.withdraw_max === null ? NONE : formatAmountOf(asset, asset.withdraw_max)}</td>
          </tr>
        ))}
      </FeeTable>
      <p>
        <strong>Fiat withdrawals take up to 3 business days.</strong> The fee comes out of the amount you
        withdraw: you receive the amount less the fee. Withdrawals go only to your own verified bank account
        or to a crypto address you give us.
      </p>

      <h2 id="trading">Trading</h2>
      <p>
        The fee on a trade is a percentage of its value, charged in the currency you trade in. It depends on
        your account type and falls as your trading volume in pounds this calendar year grows
        {lowestTradingFee ? `: trading account fees start at ${lowestTradingFee}%` : ''}.
      </p>
      <h3 id="fee-schedule">Fee schedule</h3>
      <FeeTable
        id="fee-schedule"
        label="Fee schedule"
        columns={['Tier', 'Volume this year', 'Instant account', 'Trading account']}
      >
        {tiers.map((tier) => (
          <tr key={tier.tier}>
            <th scope="row">{`Tier ${tier.tier}`}</th>
            <td>{`${wholePounds(tier.volume_from)} to ${wholePounds(tier.volume_to)}`}</td>
            <td>{`${tier.instant_percent}%`}</td>
            <td>{`${tier.trading_percent}%`}</td>
          </tr>
        ))}
        {lastTier && (
          <tr>
            <th scope="row">Custom</th>
            <td>{`Above ${wholePounds(lastTier.volume_to)}`}</td>
            <td>Agreed with you</td>
            <td>Agreed with you</td>
          </tr>
        )}
      </FeeTable>

      <h3 id="pairs">Fees and limits per pair</h3>
      <FeeTable
        id="pairs"
        label="Fees and limits per pair"
        columns={['Pair', 'Fee', 'Minimum trade', 'Maximum trade']}
      >
        {Object.values(coins).map((coin) => {
          const asset = coin.coin_id.toUpperCase();
          return (
            <tr key={coin.coin_id}>
              <th scope="row">{priceSymbol(asset, 'GBP')}</th>
              <td>{pairFee(coin)}</td>
              <td>{formatCoin(coin.amount_min, asset)}</td>
              <td>{coin.amount_max === null ? NONE : formatCoin(coin.amount_max, asset)}</td>
            </tr>
          );
        })}
      </FeeTable>
      <p>
        Maximums per single trade exist to limit price slippage. Our buy and sell prices include a spread, the
        difference between them; the price you see before you confirm is the price you get.
      </p>
      <p>
        Questions about fees? See our <Link to={PATHS.terms}>Terms of Service</Link> or{' '}
        <Link to={PATHS.contact}>contact us</Link>.
      </p>
    </>
  );
}
