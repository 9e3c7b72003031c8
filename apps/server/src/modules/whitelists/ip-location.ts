/**
 * Where an address is, as stored: an empty string means "looked up, nothing known", so a row is
 * looked up once, and null (rows saved before locations were looked up) means "not looked up yet".
 */
export type IpLocation = { city: string; country: string };

type Lookup = (ip: string) => { city: string; country: string } | null;

const countryNames = new Intl.DisplayNames(['en-GB'], { type: 'region' });
let lookup: Promise<Lookup> | undefined;

/**
 * geoip-lite reads its whole database (~150 MB) into memory, synchronously, when loaded: the server
 * loads it before it listens (main.ts), so no request waits behind it; tests load it when first used.
 */
export function loadIpLocations(): Promise<Lookup> {
  lookup ??= import('geoip-lite').then((module) => (ip: string) => module.default.lookup(ip));
  return lookup;
}

function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return '';
  try {
    return countryNames.of(code) ?? '';
  } catch {
    return '';
  }
}

/**
 * Where an IP address is, from the database shipped inside geoip-lite: no
 * network call. Private, reserved and unlisted addresses give empty strings
 * (the screen says Unknown); the country is its English name ("United Kingdom").
 */
export async function locateIp(ip: string): Promise<IpLocation> {
  const found = (await loadIpLocations())(ip);
  if (!found) return { city: '', country: '' };
  return { city: found.city, country: countryName(found.country) };
}
