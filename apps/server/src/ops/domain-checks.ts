import type { DomainCheck } from '../ledger/index.js';
import { autoTradeDomainCheck } from '../modules/auto-trade/service.js';
import { cryptoDomainCheck } from '../modules/crypto/service.js';
import { cryptoWithdrawalDomainCheck } from '../modules/crypto/withdrawals.js';
import { fiatDomainCheck } from '../modules/fiat/service.js';
import { referralsDomainCheck } from '../modules/referrals/service.js';
import { termDepositDomainCheck } from '../modules/term-deposits/service.js';
import { tradingDomainCheck } from '../modules/trading/service.js';
import { tradingVolumeDomainCheck } from '../modules/trading-volume/service.js';

/**
 * Every domain module's invariant-8 check: the list main.ts runs before it
 * serves. A restored database must pass all of them, not only invariants 1–7.
 */
export const DOMAIN_CHECKS: readonly DomainCheck[] = [
  fiatDomainCheck,
  cryptoDomainCheck,
  cryptoWithdrawalDomainCheck,
  tradingDomainCheck,
  tradingVolumeDomainCheck,
  termDepositDomainCheck,
  referralsDomainCheck,
  autoTradeDomainCheck,
];
