import { afterAll, describe, expect, it } from 'vitest';
import { SiteInfoSchema } from '@florin/contracts';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const opened: TestApp[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

async function siteInfo(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  opened.push(t);
  return t.app.inject({ method: 'GET', url: '/api/v1/site' });
}

describe('GET /api/v1/site', () => {
  it('gives anyone the default mailboxes and no phone, external or social links when none are configured', async () => {
    const response = await siteInfo();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=60');
    expect(response.json()).toEqual({
      contacts: {
        support_email: 'support@florin.local',
        business_email: 'business@florin.local',
        press_email: 'press@florin.local',
        hr_email: 'careers@florin.local',
        phone: null,
      },
      links: { guide: null, blog: null, support: null },
      company: {
        name: 'Florin Ltd',
        number: '00000000',
        registered_address: '1 Sample Street, London EC1A 1AA',
        fca_reference: '000000',
        is_sample: true,
      },
      social: [],
    });
  });

  it('gives the configured contacts and links, the social ones in the footer order and only those set', async () => {
    const response = await siteInfo({
      SUPPORT_EMAIL: 'help@florin.example',
      BUSINESS_EMAIL: 'partners@florin.example',
      PRESS_EMAIL: 'media@florin.example',
      HR_EMAIL: 'jobs@florin.example',
      SUPPORT_PHONE: '+44 20 7946 0000',
      GUIDE_URL: 'https://guide.florin.example/',
      BLOG_URL: 'https://blog.florin.example',
      SUPPORT_URL: '',
      SOCIAL_INSTAGRAM_URL: 'https://instagram.com/florin',
      SOCIAL_X_URL: 'https://x.com/florin',
      COMPANY_NAME: 'Florin Markets Ltd',
      COMPANY_NUMBER: 'SC123456',
      COMPANY_ADDRESS: '10 Queen Street, Edinburgh EH2 1JQ',
      COMPANY_FCA_REFERENCE: '9876543',
    });
    const info = SiteInfoSchema.parse(response.json());
    expect(info).toEqual({
      contacts: {
        support_email: 'help@florin.example',
        business_email: 'partners@florin.example',
        press_email: 'media@florin.example',
        hr_email: 'jobs@florin.example',
        phone: '+44 20 7946 0000',
      },
      links: { guide: 'https://guide.florin.example/', blog: 'https://blog.florin.example', support: null },
      company: {
        name: 'Florin Markets Ltd',
        number: 'SC123456',
        registered_address: '10 Queen Street, Edinburgh EH2 1JQ',
        fca_reference: '9876543',
        is_sample: false,
      },
      social: [
        { name: 'X', url: 'https://x.com/florin' },
        { name: 'Instagram', url: 'https://instagram.com/florin' },
      ],
    });
  });
});

describe('the site configuration', () => {
  it('refuses links that are not https, mailboxes that are not addresses and phone numbers that are not numbers', () => {
    expect(() =>
      loadConfig({
        BLOG_URL: 'http://blog.florin.example',
        SOCIAL_LINKEDIN_URL: 'linkedin',
        SUPPORT_EMAIL: 'support',
        SUPPORT_PHONE: 'call us',
      }),
    ).toThrow(
      /SUPPORT_EMAIL: .*\n.*SUPPORT_PHONE: must be a phone number.*\n.*BLOG_URL: must be an https:\/\/ address\n.*SOCIAL_LINKEDIN_URL: /,
    );
  });
});
