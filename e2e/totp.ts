import { Secret, TOTP } from 'otpauth';

/** The current RFC 6238 code (SHA-1, 6 digits, 30 s) for a base32 secret, as an authenticator app shows it. */
export type Totp = (secret: string, timestamp?: number) => string;

const TOTP_PERIOD_MS = 30_000;

export function totpStep(timestamp = Date.now()): number {
  return Math.floor(timestamp / TOTP_PERIOD_MS);
}

/** Below this much of the current step left, the previous step's code may die on its way to the server. */
const PREVIOUS_STEP_MARGIN_MS = 8_000;

/**
 * The earliest 30-second step the server still takes and has not taken after
 * `lastStep`: it accepts one step either side of now, each once and in order
 * (per account), so the previous, current and next step give three codes at
 * once. Only a fourth waits, for the step after the current one to begin.
 */
export async function nextUsableTotpStep(lastStep?: number): Promise<number> {
  const now = Date.now();
  const current = totpStep(now);
  const left = (current + 1) * TOTP_PERIOD_MS - now;
  const earliest = left > PREVIOUS_STEP_MARGIN_MS ? current - 1 : current;
  const step = lastStep === undefined ? earliest : Math.max(earliest, lastStep + 1);
  if (step > current + 1) {
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * TOTP_PERIOD_MS - Date.now() + 200));
  }
  return step;
}

/** A customer's authenticator app as a story uses it: every code from a step the account has not used. */
export type Authenticator = {
  secret: string;
  /** The next code the server takes, waiting only when the three steps it accepts now are spent. */
  code(): Promise<string>;
};

/** The app holding `secret`, whose codes up to `lastStep` are spent (the one that turned 2FA on, say). */
export function authenticator(secret: string, lastStep?: number): Authenticator {
  let last = lastStep;
  return {
    secret,
    async code() {
      const step = await nextUsableTotpStep(last);
      last = step;
      return generateTotp(secret, step * TOTP_PERIOD_MS);
    },
  };
}

/** Six digits that are not the code of the steps the server would accept now (one either side). */
export function wrongTotp(secret: string): string {
  const now = Date.now();
  const valid = new Set([-1, 0, 1].map((offset) => generateTotp(secret, now + offset * TOTP_PERIOD_MS)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String((123_456 + candidate * 7_919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

export function generateTotp(secret: string, timestamp = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret.replace(/\s+/g, '').toUpperCase()),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}
