import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AUTO_TRADE_INTERVAL_MS } from '../modules/auto-trade/service.js';
import { DAILY_SUMMARY_INTERVAL_MS } from '../modules/alerts/service.js';
import { MAIL_OUTBOX_INTERVAL_MS } from '../modules/notifications/service.js';
import { startLeaderJobs, type LeaderJob } from './leader-jobs.js';
import { COMMISSION_ACCRUAL_INTERVAL_MS } from '../modules/referrals/service.js';
import { MATURITY_SCAN_INTERVAL_MS } from '../modules/term-deposits/service.js';
import type { AppServices } from '../app/services.js';

/** The periodic work only one instance should do at a time. */
function listLeaderJobs(config: Config, services: AppServices): LeaderJob[] {
  const { crypto, cryptoWithdrawals } = services;
  const jobs: LeaderJob[] = [
    {
      // Mail its writer could not send (a mail server down, a server killed after the commit), retried with backoff.
      name: 'mail outbox',
      intervalMs: MAIL_OUTBOX_INTERVAL_MS,
      run: () => services.notifier.deliverPending(),
    },
    {
      // Yesterday's summaries shortly after each UTC midnight; customers already sent theirs are skipped.
      name: 'daily trading summaries',
      intervalMs: DAILY_SUMMARY_INTERVAL_MS,
      run: () => services.alerts.sendDailyTradingSummaries(new Date(Date.now() - 86_400_000)),
    },
    { name: 'auto trades', intervalMs: AUTO_TRADE_INTERVAL_MS, run: () => services.autoTrades.runOnce() },
    {
      name: 'term deposit maturity',
      intervalMs: MATURITY_SCAN_INTERVAL_MS,
      run: () => services.termDeposits.payMatured(),
    },
    {
      // Personal data five years after an account's access ended (issue 13), and sent mail after
      // 30 days (MAIL_SENT_RETENTION_MS); hourly is plenty.
      name: 'retention',
      intervalMs: 3_600_000,
      run: async () => {
        await services.closure.eraseExpired();
        await services.notifier.pruneSent();
      },
    },
    {
      // Customers over the £15,000 who answered No that a trade's own check missed; hourly is plenty.
      name: 'source-of-wealth threshold',
      intervalMs: 3_600_000,
      run: () => services.compliance.resetSourceOfWealthOverThreshold(),
    },
    {
      name: 'referral commissions',
      intervalMs: COMMISSION_ACCRUAL_INTERVAL_MS,
      run: () => services.referrals.accrueCommissions(),
    },
  ];
  if (config.CHAIN_WATCH_INTERVAL_MS > 0)
    jobs.push({
      name: 'deposit watcher',
      intervalMs: config.CHAIN_WATCH_INTERVAL_MS,
      run: async () => {
        await crypto.watchOnce();
        await cryptoWithdrawals.expireOverdue();
      },
    });
  if (config.CHAIN_WATCH_INTERVAL_MS > 0)
    jobs.push({
      // Approved withdrawals within their coin's limits, sent from the nodes' hot wallets (decision 131).
      name: 'crypto payouts',
      intervalMs: config.CHAIN_WATCH_INTERVAL_MS,
      run: () => cryptoWithdrawals.payOutOnce(),
    });
  return jobs;
}

/**
 * Starts the jobs once the app is ready; the leading instance runs them (leader-jobs.ts).
 * A shutdown lets the runs in flight finish before the database closes.
 */
export function registerLeaderJobs(app: FastifyInstance, config: Config, services: AppServices): void {
  const jobs = listLeaderJobs(config, services);
  let stopJobs: (() => Promise<void>) | undefined;
  app.addHook('onReady', (done) => {
    stopJobs = startLeaderJobs(jobs, { isLeader: () => services.relay.isLeader(), log: app.log });
    done();
  });
  app.addHook('onClose', async () => {
    await stopJobs?.();
    // The scans a chain's stream started, then the chains' and hot wallets' connections (the XRP Ledger's websockets).
    await services.crypto.stopWatching();
    await services.cryptoWithdrawals.closeHotWallets();
  });
}
