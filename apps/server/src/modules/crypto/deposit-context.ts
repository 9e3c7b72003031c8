import type { Kysely } from 'kysely';
import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier, QueuedMail } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import type { AddressSources } from './address-sources.js';
import type { ChainClient } from './chains/types.js';
import type { SimulatedChain } from './chains/simulated.js';
import type { CoinRules, CryptoCustomer, CryptoDepositRow, CryptoRepository } from './repository.js';
import { asAsset, gbpValueMetadata } from './shared.js';

type Log = { error: (object: object, message: string) => void };

export type CryptoServiceDeps = {
  db: Kysely<DB>;
  repository: CryptoRepository;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: Pick<UserEvents, 'moneyMoved'>;
  /** What one unit of an asset is worth in GBP now; null without a fresh price (market.gbpRate). */
  gbpRate: (asset: string) => string | null;
  addresses: AddressSources;
  /** The chain each coin is watched on; the simulated chain where none is configured. */
  chains: Record<CryptoAsset, ChainClient>;
  simulated: SimulatedChain;
  /** Spec 000 §6: a customer whose verification is incomplete is given no deposit address. */
  verification: VerificationGate;
  log?: Log;
};

/** What the deposit flows share: the coins' rules, a deposit's GBP value and the news of a credit. */
export function createDepositContext(deps: CryptoServiceDeps) {
  const { repository, notifier, userEvents } = deps;

  async function coinRules(): Promise<Map<CryptoAsset, CoinRules>> {
    const rows = await repository.listCoins();
    return new Map(
      rows
        .filter((row) => (CRYPTO_ASSETS as readonly string[]).includes(row.asset))
        .map((row) => [asAsset(row.asset), row]),
    );
  }

  const gbpValueOf = (asset: string, amount: bigint) => gbpValueMetadata(deps.gbpRate(asset), asset, amount);

  /** In the credit's transaction, so a credit never commits without its mail (nor a mail without it). */
  function queueCreditMail(
    trx: Kysely<DB>,
    row: CryptoDepositRow,
    customer: CryptoCustomer,
  ): Promise<QueuedMail | undefined> {
    return notifier.queue(trx, customer, 'crypto_deposit_credited', {
      firstName: customer.first_name,
      amount: formatAmount(BigInt(row.amount), asAsset(row.asset)),
      coin: row.asset,
      txid: row.txid,
    });
  }

  /** After the credit's commit. */
  async function afterCredit(customer: CryptoCustomer, mail: QueuedMail | undefined): Promise<void> {
    userEvents.moneyMoved([customer.id]);
    await notifier.deliver(mail);
  }

  return { coinRules, gbpValueOf, queueCreditMail, afterCredit };
}

export type DepositContext = ReturnType<typeof createDepositContext>;
