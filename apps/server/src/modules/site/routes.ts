import type { FastifyInstance } from 'fastify';
import { getSiteInfo, type SiteInfo } from '@florin/contracts';
import type { Config } from '../../config.js';
import { registerRoute } from '../../http/route.js';

/**
 * A minute in the visitor's browser: operators change these by restarting with
 * new configuration, and a minute's delay in seeing a new link is harmless.
 * Private, because the first API answer to a browser also sets its CSRF
 * cookie, which a shared cache must never hand to someone else.
 */
export const SITE_INFO_CACHE_CONTROL = 'private, max-age=60';

/** The public site's contacts, company details and links, as configured (config.ts); unset links are null or left out. */
export function siteInfoFrom(config: Config): SiteInfo {
  const social = [
    { name: 'X', url: config.SOCIAL_X_URL },
    { name: 'LinkedIn', url: config.SOCIAL_LINKEDIN_URL },
    { name: 'Facebook', url: config.SOCIAL_FACEBOOK_URL },
    { name: 'Instagram', url: config.SOCIAL_INSTAGRAM_URL },
  ] as const;
  return {
    contacts: {
      support_email: config.SUPPORT_EMAIL,
      business_email: config.BUSINESS_EMAIL,
      press_email: config.PRESS_EMAIL,
      hr_email: config.HR_EMAIL,
      phone: config.SUPPORT_PHONE ?? null,
    },
    links: {
      guide: config.GUIDE_URL ?? null,
      blog: config.BLOG_URL ?? null,
      support: config.SUPPORT_URL ?? null,
    },
    company: {
      name: config.company.name,
      number: config.company.number,
      registered_address: config.company.address,
      fca_reference: config.company.fcaReference,
      is_sample: config.company.isSample,
    },
    social: social.flatMap(({ name, url }) => (url ? [{ name, url }] : [])),
  };
}

export function registerSiteRoutes(app: FastifyInstance, deps: { config: Config }): void {
  // Read once: configuration does not change while the process runs.
  const info = siteInfoFrom(deps.config);
  registerRoute(app, getSiteInfo, {
    access: 'public',
    handler: (_request, reply) => {
      reply.header('cache-control', SITE_INFO_CACHE_CONTROL);
      return Promise.resolve(info);
    },
  });
}
