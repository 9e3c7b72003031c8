import { Loader } from '@mantine/core';
import { lowestTradingPercent, useFees } from '../lib/fees';

/**
 * "fees starting at 0.35%" with the trading account's lowest fee as the server charges it, so the claim
 * follows the schedule finance keeps in the back office
 * (docs/decisions/095-fees-starting-at-follows-schedule.md). Until the fees arrive the figure is a loader;
 * if they cannot be read, the phrase points to the fees page rather than guess.
 */
export function TradingFeesFrom({ capitalised = false }: { capitalised?: boolean }) {
  const fees = useFees();
  const lowest = fees.data ? lowestTradingPercent(fees.data) : undefined;
  const start = capitalised ? 'Fees' : 'fees';
  if (lowest !== undefined) return <>{`${start} starting at ${lowest}%`}</>;
  if (fees.isPending)
    return (
      <>
        {`${start} starting at `}
        {/* Hidden from screen readers: inside the wizard's Trade choice it would join the button's name. */}
        <Loader type="dots" size="xs" display="inline-block" aria-hidden />
      </>
    );
  // Plain words, not a link: the phrase may sit inside a button (the wizard's Trade choice).
  return <>{`${start} as shown on our fees page`}</>;
}
