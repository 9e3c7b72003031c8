import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidClassicAddress } from 'xrpl';
import { z } from 'zod';
import {
  STAND_IN_PARTS,
  sourcesOf,
  standInsOf,
  type AllowedStandIn,
  type Sources,
} from './config-stand-ins.js';

/**
 * Every environment variable Florin reads, parsed and documented here and
 * nowhere else. The README's configuration table is this list.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** A link the public site shows: https only, so no page of ours ever sends a visitor to plain http. */
const optionalHttpsUrl = optionalText.pipe(
  z.string().url().startsWith('https://', 'must be an https:// address').optional(),
);

export const CONFIG_VARIABLES = {
  NODE_ENV: {
    schema: z.enum(['development', 'production', 'test']).default('development'),
    help: '`production` turns off the dev mailbox pages and marks cookies Secure.',
  },
  PORT: {
    schema: z.coerce.number().int().min(0).max(65_535).default(8080),
    help: 'HTTP port of the API, the websocket and the web app.',
  },
  HOST: {
    schema: optionalText,
    help: 'Address to listen on. Unset: 127.0.0.1 (this machine only) outside production, 0.0.0.0 (every interface) in production.',
  },
  DATA_DIR: {
    schema: z.string().default('./data'),
    help: 'Folder for everything the embedded defaults write (PGlite database, uploads). A fresh folder is a fresh install.',
  },
  DATABASE_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'A PostgreSQL server (`postgres://user:pass@host:5432/florin`). Unset: embedded PGlite under DATA_DIR.',
  },
  DATABASE_POOL_SIZE: {
    schema: z.coerce.number().int().min(1).max(200).default(20),
    help: 'Connections in the pool to the PostgreSQL server.',
  },
  ADMIN_EMAIL: {
    schema: optionalText.pipe(z.string().email().optional()),
    help: 'E-mail of the first staff (superadmin) account, created on the first start only. Unset: admin@florin.local.',
  },
  ADMIN_PASSWORD: {
    schema: optionalText.pipe(z.string().min(12).optional()),
    help: 'Its password (12+ characters). Unset: a random one, printed once on the first start.',
  },
  ENCRYPTION_KEY: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
        .optional(),
    ),
    help: 'Key (32 bytes, base64) that encrypts 2FA secrets at rest and signs captchas. Unset: generated once into DATA_DIR/secrets; required with DATABASE_URL and in production.',
  },
  COMPLIANCE_EMAIL: {
    schema: z.string().email().default('compliance@florin.local'),
    help: 'The compliance mailbox customers are told to write to, e.g. when an upload keeps failing.',
  },
  SUPPORT_EMAIL: {
    schema: z.string().email().default('support@florin.local'),
    help: 'The support mailbox: shown on the contact page; general and support enquiries are sent to it.',
  },
  BUSINESS_EMAIL: {
    schema: z.string().email().default('business@florin.local'),
    help: 'The business development mailbox: shown on the contact page; business enquiries are sent to it.',
  },
  PRESS_EMAIL: {
    schema: z.string().email().default('press@florin.local'),
    help: 'The press mailbox: shown on the contact page; press enquiries are sent to it.',
  },
  HR_EMAIL: {
    schema: z.string().email().default('careers@florin.local'),
    help: 'The HR (careers) mailbox shown on the contact page.',
  },
  SUPPORT_PHONE: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^\+?[0-9][0-9 ()-]{5,29}$/, 'must be a phone number, e.g. +44 20 0000 0000')
        .optional(),
    ),
    help: 'The phone line the contact page shows with its opening hours (UK business hours Mon-Fri 9am-6pm). Unset: no phone line.',
  },
  COMPANY_NAME: {
    schema: optionalText.pipe(z.string().max(160).optional()),
    help: 'The legal name of the company that runs Florin, as the footer and the legal pages give it (`Florin Ltd`). Unset: a sample outside production; required in production.',
  },
  COMPANY_NUMBER: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(
          /^(\d{8}|[A-Z]{2}\d{6})$/,
          'must be a Companies House number: 8 digits, or 2 letters and 6 digits',
        )
        .optional(),
    ),
    help: 'Its Companies House number (`12345678`, `SC123456`). Unset: a sample outside production; required in production.',
  },
  COMPANY_ADDRESS: {
    schema: optionalText.pipe(z.string().max(300).optional()),
    help: 'Its registered office address, on one line. Unset: a sample outside production; required in production.',
  },
  COMPANY_FCA_REFERENCE: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^\d{6,7}$/, 'must be the firm reference number on the FCA register (6 or 7 digits)')
        .optional(),
    ),
    help: 'Its firm reference number on the FCA register. Unset: a sample outside production; required in production.',
  },
  GUIDE_URL: {
    schema: optionalHttpsUrl,
    help: "The public site's external guide link (https). Unset: hidden.",
  },
  BLOG_URL: { schema: optionalHttpsUrl, help: "The public site's blog link (https). Unset: hidden." },
  SUPPORT_URL: {
    schema: optionalHttpsUrl,
    help: "The public site's help centre link (https). Unset: hidden.",
  },
  SOCIAL_X_URL: { schema: optionalHttpsUrl, help: "The footer's X link (https). Unset: hidden." },
  SOCIAL_LINKEDIN_URL: {
    schema: optionalHttpsUrl,
    help: "The footer's LinkedIn link (https). Unset: hidden.",
  },
  SOCIAL_FACEBOOK_URL: {
    schema: optionalHttpsUrl,
    help: "The footer's Facebook link (https). Unset: hidden.",
  },
  SOCIAL_INSTAGRAM_URL: {
    schema: optionalHttpsUrl,
    help: "The footer's Instagram link (https). Unset: hidden.",
  },
  SMTP_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'Mail server (`smtp://user:pass@host:587`, `smtps://…:465`). Unset: mail goes to the dev mailbox at /dev/mailbox. Required in production.',
  },
  MAIL_FROM: {
    schema: z.string().default('Florin <no-reply@florin.local>'),
    help: 'Sender of every e-mail.',
  },
  PUBLIC_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'The address customers reach Florin at, used in e-mailed links. Unset: http://localhost:PORT. Required (https) in production.',
  },
  TRUST_PROXY: {
    schema: optionalText.transform((value) => value?.split(',').map((entry) => entry.trim())),
    help: 'Comma-separated addresses or CIDR ranges of the reverse proxies in front of Florin, whose X-Forwarded-For is believed. Unset: none.',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    help: 'pino log level.',
  },
  METRICS_TOKEN: {
    schema: optionalText.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
    help: 'Bearer token Prometheus sends to scrape /metrics (`Authorization: Bearer …`). Unset: /metrics answers 404.',
  },
  SLOW_QUERY_MS: {
    schema: z.coerce.number().int().min(1).default(500),
    help: 'A database query slower than this many milliseconds is logged (warn) with its SQL, never its values.',
  },
  RATE_LIMIT_PER_MINUTE: {
    schema: z.coerce.number().int().min(1).default(600),
    help: 'Requests per minute one IP address may make to the API before 429s.',
  },
  ABUSE_LIMITS: {
    schema: z.enum(['on', 'off']).default('on'),
    help: '`off` lifts the per-IP and per-route request limits and the sign-in, code, mail and enquiry limits, so a scanner (sqlmap) sees every answer instead of 429s. Refused in production.',
  },
  API_TOKEN_RATE_LIMIT_PER_MINUTE: {
    schema: z.coerce.number().int().min(1).default(60),
    help: 'Requests per minute one API token may make (per instance), besides the per-IP limit.',
  },
  WEB_DIST: {
    schema: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    help: 'Folder of the built web app that the server serves.',
  },
  STORAGE_S3_URL: {
    schema: optionalText.pipe(
      z
        .string()
        .url()
        .regex(/^https?:\/\/[^/]+\/[^/]+/, 'must name the bucket: https://host/bucket[/prefix]')
        .optional(),
    ),
    help: 'An S3-compatible bucket for uploaded documents (`https://s3.eu-west-2.amazonaws.com/bucket`, `http://minio:9000/bucket/prefix`). Unset: the folder DATA_DIR/uploads.',
  },
  STORAGE_S3_REGION: {
    schema: z.string().default('eu-west-2'),
    help: "The bucket's region, part of every request signature.",
  },
  STORAGE_S3_ACCESS_KEY_ID: {
    schema: optionalText,
    help: 'Access key of a user allowed s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket on the bucket; required with STORAGE_S3_URL.',
  },
  STORAGE_S3_SECRET_ACCESS_KEY: {
    schema: optionalText,
    help: 'Its secret key; required with STORAGE_S3_URL.',
  },
  PRICE_SOURCE: {
    schema: z
      .string()
      .default('simulated')
      .transform((value) => [...new Set(value.split(',').map((entry) => entry.trim()))])
      .pipe(
        z.union([
          z.tuple([z.literal('simulated')]),
          z
            .array(z.enum(['kraken', 'coinbase'], { message: 'each must be simulated, kraken or coinbase' }))
            .min(1),
        ]),
      ),
    help: "Where prices come from: `simulated` (an offline random walk, with a simulated past on a fresh install), or exchanges' public websocket tickers, comma-separated: `kraken`, `coinbase` (Coinbase Exchange), `kraken,coinbase` (each coin from the freshest live feed; see PRICE_FEED_STALE_SECONDS and PRICE_MAX_DISAGREEMENT_BPS).",
  },
  PRICE_FEED_STALE_SECONDS: {
    schema: z.coerce.number().int().min(1).max(300).default(5),
    help: "An exchange feed without a price of a coin for this many seconds is stale for it, and the other feed's price is used; with every feed stale the coin is not quoted.",
  },
  PRICE_MAX_DISAGREEMENT_BPS: {
    schema: z.coerce.number().int().min(1).max(10_000).default(100),
    help: 'Two live exchange feeds whose prices of a coin differ by more than this many basis points (100 = 1%) refuse its quotes until they agree again.',
  },
  PRICE_SEED: {
    schema: optionalText,
    help: 'Seed of the simulated market; the same seed gives the same prices. Unset: a random seed at each start.',
  },
  CRYPTO_NETWORK: {
    schema: z.enum(['mainnet', 'testnet']).default('mainnet'),
    help: 'Which network deposit addresses are made and checked for (address prefixes: bc1/tb1, ltc1/tltc1, bitcoincash:/bchtest:).',
  },
  XPUB_BTC: {
    schema: optionalText,
    help: "BTC deposit addresses: the account-level extended public key (zpub/xpub of m/84'/0'/0'; vpub/tpub on testnet). Never a private key. Unset: the BIP84 test vector's key outside production; no BTC deposits in production.",
  },
  XPUB_LTC: {
    schema: optionalText,
    help: "LTC deposit addresses: the account key of m/84'/2'/0' (native segwit, ltc1…). Unset: a test key outside production; no LTC deposits in production.",
  },
  XPUB_BCH: {
    schema: optionalText,
    help: "BCH deposit addresses: the account key of m/44'/145'/0' (CashAddr P2PKH). Unset: a test key outside production; no BCH deposits in production.",
  },
  XPUB_ETH: {
    schema: optionalText,
    help: "ETH deposit addresses: the account key of m/44'/60'/0' (EIP-55 addresses). Unset: a test key outside production; no ETH deposits in production.",
  },
  XRP_DEPOSIT_ADDRESS: {
    schema: optionalText,
    help: 'The house XRP address every customer deposits to with their own destination tag. Unset: a test address outside production; no XRP deposits in production.',
  },
  BITCOIN_RPC_URL_BTC: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "Bitcoin Core's wallet RPC (`http://user:pass@host:8332/wallet/deposits`, a watch-only wallet holding the deposit descriptors). Unset: the simulated chain.",
  },
  BITCOIN_RPC_URL_LTC: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "Litecoin Core's wallet RPC, as for BTC. Unset: the simulated chain.",
  },
  BITCOIN_RPC_URL_BCH: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "Bitcoin Cash Node's wallet RPC, as for BTC. Unset: the simulated chain.",
  },
  ETHEREUM_RPC_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'An Ethereum JSON-RPC endpoint (`http://geth:8545`). Unset: the simulated chain.',
  },
  XRP_NODE_URL: {
    schema: optionalText.pipe(
      z
        .string()
        .url()
        .regex(/^wss?:\/\//, 'must be a wss:// (or ws://) address')
        .optional(),
    ),
    help: 'A rippled or Clio websocket (`wss://xrpl.example:51233`) that watches the XRP house account. Unset: the simulated chain.',
  },
  HOT_WALLET_RPC_URL_BTC: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "The BTC hot wallet (decision 131): Bitcoin Core's RPC for a spending wallet on the node (`http://user:pass@host:8332/wallet/payouts`). The node holds its keys, never Florin. Unset: every BTC withdrawal is sent by staff from cold storage.",
  },
  HOT_WALLET_RPC_URL_LTC: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "The LTC hot wallet: Litecoin Core's wallet RPC, as for BTC. Unset: staff send LTC from cold storage.",
  },
  HOT_WALLET_RPC_URL_BCH: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: "The BCH hot wallet: Bitcoin Cash Node's wallet RPC, as for BTC. Unset: staff send BCH from cold storage.",
  },
  HOT_WALLET_ETH_ACCOUNT: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
        .optional(),
    ),
    help: 'The ETH hot wallet: an account the signer at HOT_WALLET_ETH_SIGNER_URL (or ETHEREUM_RPC_URL) signs for with `eth_signTransaction`. Unset: staff send ETH from cold storage.',
  },
  HOT_WALLET_ETH_SIGNER_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'An external signer speaking JSON-RPC (clef, a KMS bridge) for HOT_WALLET_ETH_ACCOUNT. Unset: the node at ETHEREUM_RPC_URL signs with its own account.',
  },
  HOT_WALLET_XRP_ACCOUNT: {
    schema: optionalText.pipe(
      z
        .string()
        .refine((value) => isValidClassicAddress(value), 'must be a classic XRP Ledger address (r…)')
        .optional(),
    ),
    help: 'The XRP hot wallet (decision 131): the classic address (r…) whose payouts HOT_WALLET_XRP_SIGNER_URL signs, prepared and submitted through XRP_NODE_URL. Unset: staff send XRP from cold storage.',
  },
  HOT_WALLET_XRP_SIGNER_URL: {
    schema: optionalText.pipe(z.string().url().optional()),
    help: 'An external signer speaking JSON-RPC over HTTP for HOT_WALLET_XRP_ACCOUNT: `sign` with `{ tx_json }` answers `{ tx_blob, hash }` (a signing proxy before a rippled in signing-only mode, or a KMS bridge). It holds the key, never Florin.',
  },
  ALLOW_STAND_INS: {
    schema: optionalText
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(STAND_IN_PARTS, { message: `each must be one of ${STAND_IN_PARTS.join(', ')}` }))),
    help: 'Production only: the stand-ins it may run on anyway, comma-separated: `market` (the simulated market), `chain:BTC` … `chain:XRP` (that coin on the simulated chain, without its node), `mail` (the dev mailbox), `uploads` (the folder DATA_DIR/uploads). Each one used prints a WARN line at every start. Unset: production refuses to start on any of them.',
  },
  CHAIN_WATCH_INTERVAL_MS: {
    schema: z.coerce.number().int().min(0).default(10_000),
    help: 'How often the deposit watcher scans the chains (0: never; tests run it by hand). Only the leading instance scans.',
  },
} as const;

type Variables = typeof CONFIG_VARIABLES;
export type ParsedConfig = Parsed;
type Parsed = { [K in keyof Variables]: z.output<Variables[K]['schema']> };

export type CompanyDetails = {
  name: string;
  number: string;
  address: string;
  fcaReference: string;
  /** True while the details are the development samples below: the footer says so. */
  isSample: boolean;
};

export type Config = Omit<Parsed, 'HOST'> & {
  HOST: string;
  company: CompanyDetails;
  dataDir: string;
  publicUrl: string;
  isProduction: boolean;
  sources: Sources;
  /** Empty outside production, where the stand-ins are simply the defaults. */
  allowedStandIns: AllowedStandIn[];
};

export class ConfigError extends Error {}

/** What a development install shows, marked as samples on every page; production refuses to run on them. */
export const SAMPLE_COMPANY = {
  name: 'Florin Ltd',
  number: '00000000',
  address: '1 Sample Street, London EC1A 1AA',
  fcaReference: '000000',
} as const;

/** A value copied from a template instead of the real register: the samples, all zeros, or a word saying so. */
function isPlaceholder(value: string, sample: string | undefined): boolean {
  return (
    value === sample || /^[0\s]+$/.test(value) || /sample|example|placeholder|changeme|todo|xxx/i.test(value)
  );
}

function companyProblems(values: Parsed): string[] {
  const given = [
    // A real company may well be called Florin Ltd: only the words give a sample name away.
    ['COMPANY_NAME', values.COMPANY_NAME, undefined],
    ['COMPANY_NUMBER', values.COMPANY_NUMBER, SAMPLE_COMPANY.number],
    ['COMPANY_ADDRESS', values.COMPANY_ADDRESS, SAMPLE_COMPANY.address],
    ['COMPANY_FCA_REFERENCE', values.COMPANY_FCA_REFERENCE, SAMPLE_COMPANY.fcaReference],
  ] as const;
  return given.flatMap(([name, value, sample]) => {
    if (!value) return [`${name}: required in production (the footer and the legal pages show it)`];
    if (isPlaceholder(value, sample)) return [`${name}: "${value}" is a placeholder; give the real value`];
    return [];
  });
}

function companyFrom(values: Parsed): CompanyDetails {
  const isSample = !(
    values.COMPANY_NAME &&
    values.COMPANY_NUMBER &&
    values.COMPANY_ADDRESS &&
    values.COMPANY_FCA_REFERENCE
  );
  return {
    name: values.COMPANY_NAME ?? SAMPLE_COMPANY.name,
    number: values.COMPANY_NUMBER ?? SAMPLE_COMPANY.number,
    address: values.COMPANY_ADDRESS ?? SAMPLE_COMPANY.address,
    fcaReference: values.COMPANY_FCA_REFERENCE ?? SAMPLE_COMPANY.fcaReference,
    isSample,
  };
}

/** Parses the environment; a bad variable stops the process with its name. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(CONFIG_VARIABLES)) {
    const result = (variable.schema as z.ZodType).safeParse(env[name]);
    if (result.success) parsed[name] = result.data;
    else problems.push(`${name}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed as Parsed;
  if (values.DATABASE_URL && !values.ENCRYPTION_KEY) {
    // Instances sharing a database must share the key, so it cannot be made up locally.
    throw new ConfigError('Invalid configuration:\n  ENCRYPTION_KEY: required when DATABASE_URL is set');
  }
  if (values.NODE_ENV === 'production') {
    // Defaults that serve a developer would quietly hurt customers: a key generated beside the data (and so
    // inside every backup of it), mail kept in a dev mailbox nobody reads, links and cookies on plain http.
    // The stand-ins only pretend (invented prices, coins, mail nobody reads, documents on one disk): each is
    // refused unless ALLOW_STAND_INS names it.
    const refused = standInsOf(values)
      .filter((standIn) => !values.ALLOW_STAND_INS.includes(standIn.part))
      .map((standIn) => standIn.refusal);
    const [mailRefusal] = refused.filter((line) => line.startsWith('SMTP_URL:'));
    const missing = [
      values.ENCRYPTION_KEY ? null : 'ENCRYPTION_KEY: required in production (openssl rand -base64 32)',
      mailRefusal ?? null,
      values.PUBLIC_URL?.startsWith('https://')
        ? null
        : 'PUBLIC_URL: required in production, an https:// address',
      values.ABUSE_LIMITS === 'on' ? null : 'ABUSE_LIMITS: must stay on in production',
      ...refused.filter((line) => line !== mailRefusal),
      // A regulated firm must name itself truly on every page; a template's zeros must never reach customers.
      ...companyProblems(values),
    ].filter((problem) => problem !== null && problem !== undefined);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  ${missing.join('\n  ')}`);
  }
  if (values.STORAGE_S3_URL && !(values.STORAGE_S3_ACCESS_KEY_ID && values.STORAGE_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY: required when STORAGE_S3_URL is set',
    );
  }
  return {
    ...values,
    // A first `npm start` on a networked machine must not offer the /dev/ helpers to its network.
    HOST: values.HOST ?? (values.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    company: companyFrom(values),
    dataDir: path.resolve(values.DATA_DIR),
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    isProduction: values.NODE_ENV === 'production',
    sources: sourcesOf(values),
    allowedStandIns:
      values.NODE_ENV === 'production'
        ? standInsOf(values).map(({ part, warning }) => ({ part, warning }))
        : [],
  };
}
