import { createCoinsAdmin } from './admin-coins.js';
import { createCurrenciesAdmin } from './admin-currencies.js';
import { createFeesAdmin } from './admin-fees.js';
import { createInventoryAdmin } from './admin-inventory.js';
import type { TradingAdminDeps } from './admin-shared.js';

export { createTradingAdminRepository, type TradingAdminRepository } from './admin-repository.js';
export type { TradingAdminDeps } from './admin-shared.js';

export type TradingAdminService = ReturnType<typeof createTradingAdminService>;

/**
 * The trading back office (issue 9): finance edits coins and currencies,
 * assigns Custom fee plans and watches the house's net position. Each change
 * and its audit row commit together; a coin edit is then read into the
 * market's quotes at once, so the very next quote uses it.
 */
export function createTradingAdminService(deps: TradingAdminDeps) {
  return {
    ...createCoinsAdmin(deps),
    ...createCurrenciesAdmin(deps),
    ...createFeesAdmin(deps),
    ...createInventoryAdmin(deps),
  };
}
