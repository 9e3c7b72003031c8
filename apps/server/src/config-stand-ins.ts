import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import type { ParsedConfig as Parsed } from './config.js';

/**
 * The embedded stand-ins (the simulated market and chain, the dev mailbox,
 * the local uploads folder): which parts of a configuration run on them, and
 * the line production refuses each with unless ALLOW_STAND_INS names it.
 */

/** What production refuses to run on unless ALLOW_STAND_INS names it: the embedded defaults that only pretend. */
export const STAND_IN_PARTS = [
  'market',
  ...CRYPTO_ASSETS.map((asset) => `chain:${asset}` as const),
  'mail',
  'uploads',
] as const;
export type StandInPart = (typeof STAND_IN_PARTS)[number];

/** Where each part's data comes from: a real service, or the embedded stand-in. */
export type Sources = {
  market: Parsed['PRICE_SOURCE'];
  chains: Record<CryptoAsset, 'node' | 'simulated'>;
  mail: 'smtp' | 'dev-mailbox';
  uploads: 's3' | 'local';
};

/** A stand-in production runs on because ALLOW_STAND_INS names it, and the warning printed at start. */
export type AllowedStandIn = { part: StandInPart; warning: string };

/** The setting naming each coin's node (crypto/setup.ts reads the same). */
const CHAIN_NODE_SETTINGS = {
  BTC: 'BITCOIN_RPC_URL_BTC',
  ETH: 'ETHEREUM_RPC_URL',
  LTC: 'BITCOIN_RPC_URL_LTC',
  BCH: 'BITCOIN_RPC_URL_BCH',
  XRP: 'XRP_NODE_URL',
} as const satisfies Record<CryptoAsset, keyof Parsed>;

export function sourcesOf(values: Parsed): Sources {
  const chains = {} as Sources['chains'];
  for (const asset of CRYPTO_ASSETS) {
    chains[asset] = values[CHAIN_NODE_SETTINGS[asset]] ? 'node' : 'simulated';
  }
  return {
    market: values.PRICE_SOURCE,
    chains,
    mail: values.SMTP_URL ? 'smtp' : 'dev-mailbox',
    uploads: values.STORAGE_S3_URL ? 's3' : 'local',
  };
}

export type StandIn = { part: StandInPart; refusal: string; warning: string };

/** The stand-ins this configuration runs on, each with the line production refuses it with. */
export function standInsOf(values: Parsed): StandIn[] {
  const sources = sourcesOf(values);
  const standIns: StandIn[] = [];
  if (sources.mail === 'dev-mailbox')
    standIns.push({
      part: 'mail',
      refusal:
        'SMTP_URL: required in production, or customers never receive their codes (or ALLOW_STAND_INS=mail)',
      warning: 'mail goes to the dev mailbox, so no e-mail reaches a customer',
    });
  if (sources.market[0] === 'simulated')
    standIns.push({
      part: 'market',
      refusal:
        'PRICE_SOURCE: the simulated market invents its prices; set PRICE_SOURCE=kraken,coinbase (or ALLOW_STAND_INS=market)',
      warning: 'prices come from the simulated market, invented rather than an exchange’s',
    });
  for (const asset of CRYPTO_ASSETS) {
    if (sources.chains[asset] === 'node') continue;
    standIns.push({
      part: `chain:${asset}`,
      refusal: `${CHAIN_NODE_SETTINGS[asset]}: unset, so ${asset} would run on the simulated chain; set its node's address (or ALLOW_STAND_INS=chain:${asset})`,
      warning: `${asset} runs on the simulated chain: its deposits are not real coins`,
    });
  }
  if (sources.uploads === 'local')
    standIns.push({
      part: 'uploads',
      refusal:
        "STORAGE_S3_URL: unset, so customers' documents would stay on this machine's disk (DATA_DIR/uploads); set the bucket (or ALLOW_STAND_INS=uploads)",
      warning: "customers' documents are kept in DATA_DIR/uploads on this machine's disk",
    });
  return standIns;
}
