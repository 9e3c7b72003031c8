export type IpLocation = { city: string | null; country: string | null };

type Lookup = (ip: string) => { city: string; country: string } | null;

const countryNames = new Intl.DisplayNames(['en-GB'], { type: 'region' });
let lookup: Promise<Lookup> | undefined;

/** geoip-lite reads its whole database (~150 MB) into memory when loaded: only once a whitelist needs it. */
function loadLookup(): Promise<Lookup> {
  lookup ??= import('geoip-lite').then((module) => (ip: string) => module.default.lookup(ip));
  return lookup;
}

function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  try {
    return countryNames.of(code) ?? null;
  } catch {
    return null;
  }
}

/**
 * Where an IP address is, from the database shipped inside geoip-lite: no
 * network call. Private, reserved and unlisted addresses give nulls (the
 * screen says Unknown); the country is its English name ("United Kingdom").
 */
export async function locateIp(ip: string): Promise<IpLocation> {
  const found = (await loadLookup())(ip);
  if (!found) return { city: null, country: null };
  return { city: found.city || null, country: countryName(found.country) };
}
