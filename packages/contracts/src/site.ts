import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * What the public site shows that an operator configures (DECISIONS.md,
 * Routes: external guide, blog and support links come from configuration and
 * are hidden when unset). Every link is an absolute https URL or null.
 */
export const SiteInfoSchema = z.object({
  contacts: z.object({
    support_email: z.string(),
    business_email: z.string(),
    press_email: z.string(),
    hr_email: z.string(),
    /** Shown with the opening hours (spec 002 §2.13); null hides the phone line. */
    phone: z.string().nullable(),
  }),
  links: z.object({
    guide: z.string().nullable(),
    blog: z.string().nullable(),
    support: z.string().nullable(),
  }),
  /** The company behind Florin, as the footer and the legal pages name it (configuration, COMPANY_*). */
  company: z.object({
    name: z.string(),
    number: z.string(),
    registered_address: z.string(),
    fca_reference: z.string(),
    /** Development samples, not a real register's entries: the footer says so. */
    is_sample: z.boolean(),
  }),
  /** The footer's social links, in this order; unset ones are left out. */
  social: z.array(z.object({ name: z.enum(['X', 'LinkedIn', 'Facebook', 'Instagram']), url: z.string() })),
});
export type SiteInfo = z.infer<typeof SiteInfoSchema>;

export const getSiteInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v1/site',
  summary:
    "Contacts, the company's legal details, external and social links of the public site, from configuration",
  responses: { 200: SiteInfoSchema },
});
