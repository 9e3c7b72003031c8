import type { CsvCopy } from '../../db/copy-out.js';
import type { MarketService } from '../market/service.js';
import { createPortfolioBalances } from './balances.js';
import { createPortfolioHistory } from './history.js';
import type { PortfolioRepository } from './repository.js';
export { NO_BALANCE, readCustomerBalances, type CustomerBalance } from './customer-balances.js';

/**
 * The portfolio: the customer's balances (balances.ts) and their transaction history (history.ts),
 * as one service.
 */
export function createPortfolioService(deps: {
  repository: PortfolioRepository;
  market: MarketService;
  /** The database's COPY, which writes the CSV export's rows. */
  copyCsv: CsvCopy;
}) {
  return {
    ...createPortfolioBalances(deps),
    ...createPortfolioHistory(deps),
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
