import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30 seconds. */
const PERIOD = 30;

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Florin',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function createTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpFor(secret, label).toString() };
}

/**
 * The 30-second step the code belongs to (one step either side of `now`, the
 * app clock's time, is accepted for drift), or null when it is wrong. Callers
 * make each step usable once by storing it.
 */
export function matchTotpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = now.getTime();
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp, window: 1 });
  return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD) + delta;
}
