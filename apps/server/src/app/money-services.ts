import type { FastifyBaseLogger } from 'fastify';
import { createAlertsRepository } from '../modules/alerts/repository.js';
import { createAlertsService } from '../modules/alerts/service.js';
import { createAutoTradeRepository } from '../modules/auto-trade/repository.js';
import { createAutoTradeService } from '../modules/auto-trade/service.js';
import { createClosureRepository } from '../modules/closure/repository.js';
import { createClosureService } from '../modules/closure/service.js';
import { createCryptoFromConfig } from '../modules/crypto/setup.js';
import type { CryptoWithdrawalService } from '../modules/crypto/withdrawals.js';
import { createFiatRepository } from '../modules/fiat/repository.js';
import { createFiatService } from '../modules/fiat/service.js';
import { createPromoRepository } from '../modules/promo/repository.js';
import { createPromoService } from '../modules/promo/service.js';
import { createReferralRepository } from '../modules/referrals/repository.js';
import { createReferralService } from '../modules/referrals/service.js';
import { createTermDepositRepository } from '../modules/term-deposits/repository.js';
import { createTermDepositService } from '../modules/term-deposits/service.js';
import { createTradingRepository } from '../modules/trading/repository.js';
import { createTradingService } from '../modules/trading/service.js';
import { createWhitelistRepository } from '../modules/whitelists/repository.js';
import { createWhitelistService } from '../modules/whitelists/service.js';
import type { AccountServices } from './account-services.js';
import type { BaseServices } from './base-services.js';
import type { AppDeps } from './deps.js';
import { lateBound } from './late-bound.js';

/** Fiat, crypto, trading and term deposits: everything that moves a customer's money, and what follows from it. */
export function buildMoneyServices(
  deps: AppDeps,
  base: BaseServices,
  accounts: AccountServices,
  log: FastifyBaseLogger,
) {
  const { config, ledger } = deps;
  const { db, clock, notifier, userEvents, emailedCodes, market, investor } = base;
  const { secondFactor, verification } = accounts;
  const fiat = createFiatService({
    db,
    repository: createFiatRepository(db),
    ledger,
    notifier,
    userEvents,
    emailedCodes,
    secondFactor,
    verification,
    clock,
  });
  const referrals = createReferralService({
    db,
    repository: createReferralRepository(db),
    ledger,
    secondFactor,
    notifier,
    bankAccountOf: async (userId) => (await fiat.getBankAccounts(userId, 'GBP')).data,
    verification,
    clock,
  });
  const promo = createPromoService({
    db,
    repository: createPromoRepository(db),
    isEligible: (userId) => referrals.isEligible(userId),
  });
  // Withdrawals refuse an address the whitelists do not hold, and the whitelists refuse Florin's own.
  const cryptoWithdrawalsLater = lateBound<CryptoWithdrawalService>('the crypto withdrawal service');
  const whitelists = createWhitelistService({
    db,
    repository: createWhitelistRepository(db, clock),
    notifier,
    emailedCodes,
    // Through the second factor, so a whitelist change's codes count against the customer's limit too.
    verifyAuthenticatorCode: (userId, passcode) => secondFactor.verifyAuthenticatorCode(userId, passcode),
    network: config.CRYPTO_NETWORK,
    florinDestinationOf: (userId, asset, address, tag) =>
      cryptoWithdrawalsLater.get().florinDestinationOf(userId, asset, address, tag),
  });
  const { deposits: crypto, withdrawals: cryptoWithdrawals } = createCryptoFromConfig({
    config,
    db,
    ledger,
    notifier,
    userEvents,
    gbpRate: (asset) => market.gbpRate(asset),
    emailedCodes,
    secondFactor,
    limits: base.limits,
    savedAddresses: whitelists,
    verification,
    log,
    clock,
  });
  cryptoWithdrawalsLater.set(cryptoWithdrawals);
  const trading = createTradingService({
    db,
    repository: createTradingRepository(db, base.relay.cacheSignals),
    volumes: base.tradingVolumes,
    ledger,
    market,
    notifier,
    userEvents,
    log,
    feeDiscountFor: (userId) => promo.feeDiscountFor(userId),
    quoteFacts: {
      moneyRefused: verification.moneyRefusedFact,
      mayInvest: investor.mayInvestFact,
      volumeThisYear: base.tradingVolumes.volumeThisYearFact,
      runningDiscount: promo.runningDiscountFact,
      eligibleDiscount: promo.eligibleDiscount,
    },
    feeSchedule: base.feeSchedule,
    investor,
    verification,
    sourceOfWealth: accounts.compliance,
  });
  const autoTrades = createAutoTradeService({
    db,
    repository: createAutoTradeRepository(db),
    trading,
    secondFactor,
    log,
    investor,
  });
  const termDeposits = createTermDepositService({
    db,
    repository: createTermDepositRepository(db),
    ledger,
    notifier,
    publicUrl: config.publicUrl,
    log,
    investor,
    verification,
  });
  const closure = createClosureService({
    db,
    repository: createClosureRepository(db),
    termDeposits,
    notifier,
    storage: base.storage,
    log,
  });
  const alerts = createAlertsService({
    repository: createAlertsRepository(db),
    notifier,
    publicUrl: config.publicUrl,
  });
  return {
    fiat,
    referrals,
    promo,
    whitelists,
    crypto,
    cryptoWithdrawals,
    trading,
    autoTrades,
    termDeposits,
    closure,
    alerts,
  };
}

export type MoneyServices = ReturnType<typeof buildMoneyServices>;
