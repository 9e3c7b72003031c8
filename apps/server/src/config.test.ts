import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// Loaded, as in the running server: the customer's wording must not reach what operators read.
import { CUSTOMER_MESSAGES } from '@florin/contracts';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';

/** Every setting production requires, at real-looking values. */
const PRODUCTION = {
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

  it('documents every variable in the README configuration table', () => {
    const readme = fs.readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'),
      'utf8',
    );
    for (const name of Object.keys(CONFIG_VARIABLES))
      expect(readme).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
  });
});
