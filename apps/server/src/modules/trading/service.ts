import { createExecution } from './execution.js';
import { createFillEngine } from './fill-engine.js';
import { createFills } from './fills.js';
import { createMarketOrders } from './market-orders.js';
import { createOrders } from './orders.js';
import { createPositions } from './positions.js';
import { createQuotes } from './quotes.js';
import type { TradingServiceDeps } from './shared.js';
import { createTerms } from './terms.js';
import { createTradingContext } from './trading-context.js';

export { tradingDomainCheck } from './domain-check.js';
export type { TradingServiceDeps } from './shared.js';

export type TradingService = ReturnType<typeof createTradingService>;

/**
 * Trading: Florin is the counterparty. A quote fixes a price at the
 * customer's fee for a few seconds and executes once; a market order is
 * priced at execution within a maximum slippage; a limit or stop order holds
 * what it may spend and fills when the customer's own price reaches it. Every
 * execution is one journal (LEDGER.md) and one trades row; the customer's
 * pages are told and they are mailed after the commit.
 */
export function createTradingService(deps: TradingServiceDeps) {
  const context = createTradingContext(deps);
  const execution = createExecution(deps);
  const fills = createFills(deps, context, execution);

  return {
    // ---- the customer's terms ----
    ...createTerms(deps, context),

    // ---- instant: quote, then execute it by id ----
    ...createQuotes(deps, context, execution),

    // ---- market orders (trading accounts) ----
    ...createMarketOrders(deps, context, execution),

    // ---- limit and stop orders (trading accounts) ----
    ...createOrders(deps, context, fills),

    // ---- positions ----
    ...createPositions(deps, context),

    // ---- the fill engine (the leading instance) ----
    ...createFillEngine(deps, fills),
  };
}
