import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// Loaded, as in the running server: the customer's wording must not reach what operators read.
import { CUSTOMER_MESSAGES } from '@florin/contracts';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';

/** The real services production runs on instead of the stand-ins. */
const REAL_SOURCES = {
  PRICE_SOURCE: 'kraken',
  BITCOIN_RPC_URL_BTC: 'http://florin:secret@bitcoind:8332/wallet/deposits',
  BITCOIN_RPC_URL_LTC: 'http://florin:secret@litecoind:9332/wallet/deposits',
  BITCOIN_RPC_URL_BCH: 'http://florin:secret@bchn:8332/wallet/deposits',
  ETHEREUM_RPC_URL: 'http://geth:8545',
  XRP_NODE_URL: 'wss://xrpl.florin.example:51233',
  STORAGE_S3_URL: 'https://s3.eu-west-2.amazonaws.com/florin-documents',
  STORAGE_S3_ACCESS_KEY_ID: 'AKIAFLORIN',
  STORAGE_S3_SECRET_ACCESS_KEY: 'secret',
};

/** Every setting production requires, at real-looking values. */
const PRODUCTION = {
  ...REAL_SOURCES,
  NODE_ENV: 'production',
  ENCRYPTION_KEY: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  SMTP_URL: 'smtp://mail.florin.example:587',
  PUBLIC_URL: 'https://app.florin.example',
  COMPANY_NAME: 'Florin Ltd',
  COMPANY_NUMBER: '12345678',
  COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
  COMPANY_FCA_REFERENCE: '987654',
};

describe('configuration', () => {
  it('runs on its embedded defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      NODE_ENV: 'development',
      DATABASE_URL: undefined,
      isProduction: false,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('listens on this machine only unless HOST says otherwise, and everywhere in production', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }).HOST).toBe('::');

    // A production server listens where it did before this default (the image sets HOST=0.0.0.0 anyway).
    expect(loadConfig(PRODUCTION).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...PRODUCTION, HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: '99999', ADMIN_PASSWORD: 'short', LOG_LEVEL: 'loud' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: '99999', ADMIN_PASSWORD: 'short', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT: .*\n.*ADMIN_PASSWORD: .*\n.*LOG_LEVEL: /);
    }
  });

  it('names the values a bad LOG_LEVEL may take, for the operator who mistyped it', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    );
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).not.toThrow(CUSTOMER_MESSAGES.choose);
  });

  it('treats an empty variable as unset, as shells and compose files write them', () => {
    expect(loadConfig({ DATABASE_URL: '', ADMIN_EMAIL: '' })).toMatchObject({
      DATABASE_URL: undefined,
      ADMIN_EMAIL: undefined,
    });
  });

  it('refuses to start in production without the secrets and addresses customers depend on', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /ENCRYPTION_KEY: required in production.*\n.*SMTP_URL: required in production.*\n.*PUBLIC_URL: required in production/,
    );

    expect(loadConfig(PRODUCTION).isProduction).toBe(true);
    expect(() => loadConfig({ ...PRODUCTION, PUBLIC_URL: 'http://app.florin.example' })).toThrow(
      /PUBLIC_URL: required in production, an https:\/\/ address/,
    );
    // The scanner's switch never reaches customers.
    expect(() => loadConfig({ ...PRODUCTION, ABUSE_LIMITS: 'off' })).toThrow(
      /ABUSE_LIMITS: must stay on in production/,
    );
    expect(loadConfig({ ABUSE_LIMITS: 'off' }).ABUSE_LIMITS).toBe('off');
  });

  it("refuses to start in production without the company's real legal details, naming each", () => {
    const withoutCompany = {
      ...REAL_SOURCES,
      NODE_ENV: 'production',
      ENCRYPTION_KEY: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      SMTP_URL: 'smtp://mail.florin.example:587',
      PUBLIC_URL: 'https://app.florin.example',
    };
    expect(() => loadConfig(withoutCompany)).toThrow(
      /COMPANY_NAME: required in production.*\n.*COMPANY_NUMBER: required in production.*\n.*COMPANY_ADDRESS: required in production.*\n.*COMPANY_FCA_REFERENCE: required in production/,
    );
    // The development samples, a template's zeros or words are placeholders, never shown to customers.
    expect(() =>
      loadConfig({
        ...withoutCompany,
        COMPANY_NAME: 'Sample Company Ltd',
        COMPANY_NUMBER: '00000000',
        COMPANY_ADDRESS: '1 Sample Street, London EC1A 1AA',
        COMPANY_FCA_REFERENCE: '000000',
      }),
    ).toThrow(
      /COMPANY_NAME: "Sample Company Ltd" is a placeholder.*\n.*COMPANY_NUMBER: "00000000" is a placeholder.*\n.*COMPANY_ADDRESS: .* is a placeholder.*\n.*COMPANY_FCA_REFERENCE: "000000" is a placeholder/,
    );
    expect(() => loadConfig({ COMPANY_NUMBER: '1234' })).toThrow(
      /COMPANY_NUMBER: must be a Companies House number/,
    );
    const real = loadConfig({
      ...withoutCompany,
      COMPANY_NAME: 'Florin Ltd',
      COMPANY_NUMBER: '12345678',
      COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
      COMPANY_FCA_REFERENCE: '987654',
    });
    expect(real.company).toEqual({
      name: 'Florin Ltd',
      number: '12345678',
      address: '1 Poultry, London EC2R 8EJ',
      fcaReference: '987654',
      isSample: false,
    });
    // Outside production the samples stand in, marked as such.
    expect(loadConfig({}).company).toMatchObject({ number: '00000000', isSample: true });
  });

  it('refuses each stand-in in production with one line naming the setting to set', () => {
    const refusal = (() => {
      try {
        loadConfig({ NODE_ENV: 'production' });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    const lines = refusal.split('\n').map((line) => line.trim());
    const lineFor = (start: string) => lines.filter((line) => line.startsWith(start));
    expect(lineFor('SMTP_URL:')).toEqual([
      'SMTP_URL: required in production, or customers never receive their codes (or ALLOW_STAND_INS=mail)',
    ]);
    expect(lineFor('PRICE_SOURCE:')).toEqual([
      'PRICE_SOURCE: the simulated market invents its prices; set PRICE_SOURCE=kraken,coinbase (or ALLOW_STAND_INS=market)',
    ]);
    expect(lineFor('BITCOIN_RPC_URL_BTC:')).toEqual([
      "BITCOIN_RPC_URL_BTC: unset, so BTC would run on the simulated chain; set its node's address (or ALLOW_STAND_INS=chain:BTC)",
    ]);
    for (const [setting, coin] of [
      ['ETHEREUM_RPC_URL', 'ETH'],
      ['BITCOIN_RPC_URL_LTC', 'LTC'],
      ['BITCOIN_RPC_URL_BCH', 'BCH'],
      ['XRP_NODE_URL', 'XRP'],
    ])
      expect(lineFor(`${setting}:`)).toEqual([expect.stringContaining(`(or ALLOW_STAND_INS=chain:${coin})`)]);
    expect(lineFor('STORAGE_S3_URL:')).toEqual([
      "STORAGE_S3_URL: unset, so customers' documents would stay on this machine's disk (DATA_DIR/uploads); set the bucket (or ALLOW_STAND_INS=uploads)",
    ]);
    // With the real services it starts, and says where each part's data comes from.
    const real = loadConfig(PRODUCTION);
    expect(real.sources).toEqual({
      market: ['kraken'],
      chains: { BTC: 'node', ETH: 'node', LTC: 'node', BCH: 'node', XRP: 'node' },
      mail: 'smtp',
      uploads: 's3',
    });
  });

  it('lets ALLOW_STAND_INS name each stand-in production may run on, and warns of each', () => {
    // Each part's real setting taken away (an empty variable is unset; the market's is set to the simulation).
    const cases: [part: string, unset: keyof typeof PRODUCTION, refusal: RegExp][] = [
      ['mail', 'SMTP_URL', /SMTP_URL: required in production/],
      ['market', 'PRICE_SOURCE', /PRICE_SOURCE: the simulated market/],
      ['chain:BTC', 'BITCOIN_RPC_URL_BTC', /BITCOIN_RPC_URL_BTC: unset/],
      ['chain:ETH', 'ETHEREUM_RPC_URL', /ETHEREUM_RPC_URL: unset/],
      ['chain:LTC', 'BITCOIN_RPC_URL_LTC', /BITCOIN_RPC_URL_LTC: unset/],
      ['chain:BCH', 'BITCOIN_RPC_URL_BCH', /BITCOIN_RPC_URL_BCH: unset/],
      ['chain:XRP', 'XRP_NODE_URL', /XRP_NODE_URL: unset/],
      ['uploads', 'STORAGE_S3_URL', /STORAGE_S3_URL: unset/],
    ];
    for (const [part, unset, refusal] of cases) {
      const without = { ...PRODUCTION, [unset]: unset === 'PRICE_SOURCE' ? 'simulated' : '' };
      expect(() => loadConfig(without), part).toThrow(refusal);
      const allowed = loadConfig({ ...without, ALLOW_STAND_INS: part });
      expect(
        allowed.allowedStandIns.map((standIn) => standIn.part),
        part,
      ).toEqual([part]);
      expect(allowed.allowedStandIns.every((standIn) => standIn.warning.length > 0)).toBe(true);
    }
    // Several at once, spaces allowed; a name that is not a stand-in is refused, even outside production.
    const everything = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: PRODUCTION.ENCRYPTION_KEY,
      PUBLIC_URL: PRODUCTION.PUBLIC_URL,
      COMPANY_NAME: PRODUCTION.COMPANY_NAME,
      COMPANY_NUMBER: PRODUCTION.COMPANY_NUMBER,
      COMPANY_ADDRESS: PRODUCTION.COMPANY_ADDRESS,
      COMPANY_FCA_REFERENCE: PRODUCTION.COMPANY_FCA_REFERENCE,
      ALLOW_STAND_INS: 'mail, market, chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads',
    });
    expect(everything.allowedStandIns).toHaveLength(8);
    expect(everything.allowedStandIns[0]).toEqual({
      part: 'mail',
      warning: 'mail goes to the dev mailbox, so no e-mail reaches a customer',
    });
    expect(() => loadConfig({ ALLOW_STAND_INS: 'market,chain:DOGE' })).toThrow(
      /ALLOW_STAND_INS: each must be one of market, chain:BTC/,
    );
    // A stand-in named but not used warns of nothing; outside production nothing is refused or warned of.
    expect(loadConfig({ ...PRODUCTION, ALLOW_STAND_INS: 'market' }).allowedStandIns).toEqual([]);
    expect(loadConfig({}).allowedStandIns).toEqual([]);
    expect(loadConfig({}).sources).toMatchObject({
      market: ['simulated'],
      mail: 'dev-mailbox',
      uploads: 'local',
    });
  });

  it('takes prices from one or two exchange feeds, or the simulation alone', () => {
    expect(loadConfig({}).PRICE_SOURCE).toEqual(['simulated']);
    expect(loadConfig({ PRICE_SOURCE: 'kraken, coinbase' }).PRICE_SOURCE).toEqual(['kraken', 'coinbase']);
    expect(loadConfig({ PRICE_SOURCE: 'coinbase,coinbase' }).PRICE_SOURCE).toEqual(['coinbase']);
    expect(() => loadConfig({ PRICE_SOURCE: 'kraken,simulated' })).toThrow(/PRICE_SOURCE: /);
    expect(() => loadConfig({ PRICE_SOURCE: 'bitstamp' })).toThrow(/PRICE_SOURCE: /);
    expect(loadConfig({})).toMatchObject({ PRICE_FEED_STALE_SECONDS: 5, PRICE_MAX_DISAGREEMENT_BPS: 100 });
    expect(() => loadConfig({ PRICE_MAX_DISAGREEMENT_BPS: '0' })).toThrow(/PRICE_MAX_DISAGREEMENT_BPS: /);
    // Two real feeds are no stand-in: production starts on them.
    expect(loadConfig({ ...PRODUCTION, PRICE_SOURCE: 'kraken,coinbase' }).sources.market).toEqual([
      'kraken',
      'coinbase',
    ]);
  });

  it('documents every variable in the README configuration table', () => {
    const readme = fs.readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'),
      'utf8',
    );
    for (const name of Object.keys(CONFIG_VARIABLES))
      expect(readme).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
  });
});
