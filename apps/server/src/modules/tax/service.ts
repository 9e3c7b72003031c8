import {
  AppError,
  CAPITAL_GAINS_CSV_COLUMNS,
  MATCH_RULE_LABELS,
  todayInLondon,
  type CapitalGainsReport,
  type TaxDisposal,
} from '@florin/contracts';
import {
  ASSET_CODES,
  formatAmount,
  isAssetCode,
  matchDisposals,
  taxYear,
  taxYearOf,
  type AssetCode,
  type HoldingEvent,
  type MatchedHistory,
} from '@florin/domain';
import { csvLine } from '../../http/csv.js';
import type { TaxRepository, TaxTradeRow } from './repository.js';
import type { Clock } from '../../clock.js';

const pounds = (pence: bigint) => formatAmount(pence, 'GBP');

/**
 * What a trade is worth in pence for HMRC: a buy's cost with its fee, a
 * sale's proceeds less its fee. A trade in euros or dollars is valued at the
 * GBP value recorded when it executed (the coin's GBP price then), its fee at
 * the same rate, rounded down to the penny.
 */
function gbpOf(trade: TaxTradeRow): bigint {
  const total = BigInt(trade.total);
  if (trade.fiat === 'GBP') return total;
  const notional = BigInt(trade.notional);
  return notional === 0n ? 0n : (total * BigInt(trade.gbp_value)) / notional;
}

function assetOf(code: string): AssetCode {
  if (!isAssetCode(code)) throw new Error(`unknown asset ${code}`);
  return code;
}

/** `clock`: the app's, for which tax year is the current one. */
export function createTaxService(deps: { repository: TaxRepository; clock: Clock }) {
  const { repository } = deps;
  const now = () => deps.clock.now();

  /** Every coin's whole history on Florin, matched; and the first UK day of it. */
  async function histories(userId: number) {
    const events = new Map<AssetCode, HoldingEvent[]>();
    const add = (asset: string, event: HoldingEvent) => {
      const code = assetOf(asset);
      events.set(code, [...(events.get(code) ?? []), event]);
    };
    for (const trade of await repository.trades(userId))
      add(trade.asset, {
        kind: trade.side === 'buy' ? 'acquisition' : 'disposal',
        day: todayInLondon(trade.created_at),
        quantity: BigInt(trade.quantity),
        gbp: gbpOf(trade),
      });
    for (const receipt of await repository.receipts(userId))
      add(receipt.asset, {
        kind: 'transfer-in',
        day: todayInLondon(receipt.received_at),
        quantity: BigInt(receipt.quantity),
        gbp: 0n,
      });
    const matched = ASSET_CODES.filter((asset) => events.has(asset)).map((asset) => ({
      asset,
      history: matchDisposals(events.get(asset)!),
    }));
    const days = [...events.values()].flat().map((event) => event.day);
    return { matched, firstDay: days.length > 0 ? days.reduce((a, b) => (a < b ? a : b)) : null };
  }

  function poolAtEnd(history: MatchedHistory, lastDay: string) {
    return history.poolChanges.filter((change) => change.day <= lastDay).at(-1)?.after;
  }

  async function report(userId: number, year?: number): Promise<CapitalGainsReport> {
    if (!(await repository.isIndividual(userId))) throw new AppError('NOT_FOUND');
    const currentYear = taxYearOf(todayInLondon(now()));
    const chosen = year ?? currentYear;
    if (chosen > currentYear)
      throw new AppError('VALIDATION_FAILED', undefined, { year: ['Choose a tax year that has started.'] });
    const span = taxYear(chosen);
    const { matched, firstDay } = await histories(userId);

    const disposals: TaxDisposal[] = [];
    let proceeds = 0n;
    let costs = 0n;
    let gains = 0n;
    let losses = 0n;
    for (const { asset, history } of matched) {
      for (const disposal of history.disposals) {
        if (disposal.day < span.first || disposal.day > span.last) continue;
        proceeds += disposal.proceeds;
        costs += disposal.cost;
        if (disposal.gain > 0n) gains += disposal.gain;
        else losses -= disposal.gain;
        disposals.push({
          asset,
          date: disposal.day,
          quantity: formatAmount(disposal.quantity, asset),
          proceeds: pounds(disposal.proceeds),
          cost: pounds(disposal.cost),
          gain: pounds(disposal.gain),
          matches: disposal.matches.map((match) => ({
            rule: match.rule,
            quantity: formatAmount(match.quantity, asset),
            cost: pounds(match.cost),
            acquired_on: match.acquiredOn ?? null,
          })),
          uncosted_quantity: formatAmount(disposal.uncostedQuantity, asset),
        });
      }
    }
    disposals.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

    const pools = matched.flatMap(({ asset, history }) => {
      const pool = poolAtEnd(history, span.last);
      if (!pool || pool.quantity === 0n) return [];
      return [
        {
          asset,
          quantity: formatAmount(pool.quantity, asset),
          cost: pounds(pool.cost),
          uncosted_quantity: formatAmount(pool.uncostedQuantity, asset),
        },
      ];
    });

    const firstYear = firstDay === null ? currentYear : Math.min(taxYearOf(firstDay), currentYear);
    const taxYears = [];
    for (let each = currentYear; each >= firstYear; each -= 1)
      taxYears.push({ year: each, label: taxYear(each).label });

    return {
      tax_year: { year: chosen, ...span },
      tax_years: taxYears,
      disposals,
      totals: {
        proceeds: pounds(proceeds),
        costs: pounds(costs),
        gains: pounds(gains),
        losses: pounds(losses),
        net: pounds(gains - losses),
      },
      pools,
    };
  }

  return {
    report,

    /** The report as CSV: one row per matched part of each disposal, the disposal's figures on each. */
    async exportCsv(userId: number, year?: number): Promise<{ label: string; csv: string }> {
      const { tax_year: span, disposals } = await report(userId, year);
      let csv = csvLine(CAPITAL_GAINS_CSV_COLUMNS);
      for (const disposal of disposals)
        for (const match of disposal.matches)
          csv += csvLine([
            disposal.date,
            disposal.asset,
            disposal.quantity,
            disposal.proceeds,
            disposal.cost,
            disposal.gain,
            MATCH_RULE_LABELS[match.rule],
            match.quantity,
            match.cost,
            match.acquired_on ?? '',
            disposal.uncosted_quantity,
          ]);
      return { label: span.label, csv };
    },
  };
}

export type TaxService = ReturnType<typeof createTaxService>;
