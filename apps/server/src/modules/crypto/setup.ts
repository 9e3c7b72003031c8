import type { Kysely } from 'kysely';
import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import { addressSourcesFromConfig } from './address-sources.js';
import { createBitcoinRpcClient } from './chains/bitcoin-rpc.js';
import { createEthereumRpcClient } from './chains/ethereum-rpc.js';
import { createBitcoinHotWallet, createEthereumHotWallet, type HotWallet } from './chains/hot-wallets.js';
import { createSimulatedChain } from './chains/simulated.js';
import type { ChainClient } from './chains/types.js';
import { createXrpHotWallet } from './chains/xrp-hot-wallet.js';
import { createXrpLedgerClient } from './chains/xrp-ledger.js';
import { createCryptoRepository } from './repository.js';
import { createCryptoService } from './service.js';
import { withdrawalWalletsFor } from './chains/wallets.js';
import { createCryptoWithdrawalRepository } from './withdrawal-repository.js';
import { createCryptoWithdrawalService, type SavedAddresses } from './withdrawals.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { RateLimiter } from '../../security/rate-limits.js';
import type { SecondFactor } from '../../security/second-factor.js';

/** The chain each coin is watched on: its configured node, or the simulated chain. */
export function chainsFromConfig(config: Config, simulated: ChainClient): Record<CryptoAsset, ChainClient> {
  const configured: Partial<Record<CryptoAsset, string | undefined>> = {
    BTC: config.BITCOIN_RPC_URL_BTC,
    LTC: config.BITCOIN_RPC_URL_LTC,
    BCH: config.BITCOIN_RPC_URL_BCH,
  };
  const chains = {} as Record<CryptoAsset, ChainClient>;
  for (const asset of CRYPTO_ASSETS) {
    const url = configured[asset];
    chains[asset] = url ? createBitcoinRpcClient(url) : simulated;
  }
  if (config.ETHEREUM_RPC_URL) chains.ETH = createEthereumRpcClient(config.ETHEREUM_RPC_URL);
  if (config.XRP_NODE_URL) chains.XRP = createXrpLedgerClient(config.XRP_NODE_URL);
  return chains;
}

/** The hot wallet each coin's payouts are sent from, where its node is configured (decision 131). */
export function hotWalletsFromConfig(config: Config): Partial<Record<CryptoAsset, HotWallet>> {
  const wallets: Partial<Record<CryptoAsset, HotWallet>> = {};
  const bitcoinFamily: [CryptoAsset, string | undefined][] = [
    ['BTC', config.HOT_WALLET_RPC_URL_BTC],
    ['LTC', config.HOT_WALLET_RPC_URL_LTC],
    ['BCH', config.HOT_WALLET_RPC_URL_BCH],
  ];
  for (const [asset, url] of bitcoinFamily) if (url) wallets[asset] = createBitcoinHotWallet(url, asset);
  const nodeUrl = config.ETHEREUM_RPC_URL;
  if (nodeUrl && config.HOT_WALLET_ETH_ACCOUNT)
    wallets.ETH = createEthereumHotWallet({
      nodeUrl,
      signerUrl: config.HOT_WALLET_ETH_SIGNER_URL,
      account: config.HOT_WALLET_ETH_ACCOUNT,
    });
  if (config.XRP_NODE_URL && config.HOT_WALLET_XRP_ACCOUNT && config.HOT_WALLET_XRP_SIGNER_URL)
    wallets.XRP = createXrpHotWallet({
      nodeUrl: config.XRP_NODE_URL,
      signerUrl: config.HOT_WALLET_XRP_SIGNER_URL,
      account: config.HOT_WALLET_XRP_ACCOUNT,
    });
  return wallets;
}

/** The crypto module as the app builds it from configuration: deposits in, withdrawals out. */
export function createCryptoFromConfig(options: {
  config: Config;
  db: Kysely<DB>;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: UserEvents;
  gbpRate: (asset: string) => string | null;
  emailedCodes: EmailedCodes;
  secondFactor: SecondFactor;
  limits: RateLimiter;
  savedAddresses: SavedAddresses;
  verification: VerificationGate;
  log: { error: (object: object, message: string) => void };
  clock: Clock;
}) {
  const simulated = createSimulatedChain(options.db);
  const chains = chainsFromConfig(options.config, simulated.client);
  const addresses = addressSourcesFromConfig(options.config);
  const withdrawals = createCryptoWithdrawalService({
    db: options.db,
    repository: createCryptoWithdrawalRepository(options.db),
    ledger: options.ledger,
    notifier: options.notifier,
    userEvents: options.userEvents,
    emailedCodes: options.emailedCodes,
    secondFactor: options.secondFactor,
    limits: options.limits,
    addresses,
    gbpRate: options.gbpRate,
    savedAddresses: options.savedAddresses,
    wallets: withdrawalWalletsFor(chains, simulated, { isProduction: options.config.isProduction }),
    hotWallets: hotWalletsFromConfig(options.config),
    verification: options.verification,
    clock: options.clock,
  });
  const deposits = createCryptoService({
    db: options.db,
    repository: createCryptoRepository(options.db),
    ledger: options.ledger,
    notifier: options.notifier,
    userEvents: options.userEvents,
    gbpRate: options.gbpRate,
    addresses,
    chains,
    simulated,
    verification: options.verification,
    log: options.log,
  });
  return { deposits, withdrawals };
}
