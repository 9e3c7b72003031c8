import type { Mailer } from '../adapters/mail/mailer.js';
import type { FileStorage } from '../adapters/storage/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { CheckResult, DomainCheck, Ledger } from '../ledger/index.js';
import type { MarketService } from '../modules/market/service.js';
import type { PriceFeed, PriceRelay } from '../modules/realtime/index.js';
import type { SecretBox } from '../security/secret-box.js';

export type AppDeps = {
  config: Config;
  database: Database;
  ledger: Ledger;
  mailer: Mailer;
  secretBox: SecretBox;
  /** Where uploaded documents go; unset: from configuration (DATA_DIR/uploads or the S3 bucket). */
  storage?: FileStorage;
  /** Each domain module's check that its rows match the ledger (invariant 8). */
  domainChecks?: readonly DomainCheck[];
  /** The check run at start, so health does not repeat it at once. */
  initialLedgerCheck?: CheckResult;
  /** Prices, quotes and candles; unset: a market whose source never ticks (main.ts passes the configured one). */
  market?: MarketService;
  /** The ticks the websocket streams; unset: the market's. */
  priceFeed?: PriceFeed;
  /** How ticks reach the other instances; unset: LISTEN/NOTIFY on DATABASE_URL, or in process on PGlite. */
  priceRelay?: PriceRelay;
  /** What one-time codes, sessions and the waits run by; unset: the system clock (tests move their own). */
  clock?: Clock;
};
