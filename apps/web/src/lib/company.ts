import type { SiteInfo } from '@florin/contracts';
import { useSiteInfo } from './site-info';

export type Company = SiteInfo['company'];

/** What a page says before the configured details arrive (a prerendered page, a first paint). */
export const COMPANY_PLACEHOLDER_NAME = 'Florin';

/** Companies House numbers start SC in Scotland and NI in Northern Ireland; the rest are England and Wales. */
function jurisdictionOf(number: string): string {
  if (number.startsWith('SC')) return 'Scotland';
  if (number.startsWith('NI')) return 'Northern Ireland';
  return 'England and Wales';
}

/**
 * The legal entity as the footer and the legal pages name it, from the
 * server's configuration (COMPANY_*): registration, registered office and the
 * FCA register entry. Development samples say that they are samples.
 */
export function registrationText(company: Company): string {
  const text =
    `${company.name} is registered in ${jurisdictionOf(company.number)}, company number ${company.number}. ` +
    `Registered office: ${company.registered_address}. ` +
    `Registered with the Financial Conduct Authority as a cryptoasset business under the Money Laundering Regulations, firm reference number ${company.fca_reference}.`;
  return company.is_sample ? `${text} These are sample details of a development install.` : text;
}

/** The configured company; undefined until the site's settings have arrived. */
export function useCompany(): Company | undefined {
  return useSiteInfo().data?.company;
}
