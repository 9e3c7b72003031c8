import { sql, type Kysely } from 'kysely';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { DB } from '../db/schema.js';

/**
 * Self-hosted ALTCHA: a proof of work the browser solves in about a second,
 * signed by us, good for ten minutes and once.
 */
const COST = 1_000;
const LIFETIME_MS = 10 * 60_000;

export function createCaptcha(db: Kysely<DB>, secrets: { signature: string; key: string }) {
  return {
    async createChallenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: COST,
        counter: randomInt(1_000, 3_000),
        deriveKey,
        expiresAt: new Date(Date.now() + LIFETIME_MS),
        hmacSignatureSecret: secrets.signature,
        hmacKeySignatureSecret: secrets.key,
      });
    },

    /** True once per solved challenge; false when missing, wrong, expired or used before. */
    async verify(payload: string): Promise<boolean> {
      let parsed: { challenge: Challenge; solution: Solution };
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof parsed;
        if (!parsed?.challenge?.parameters || !parsed.solution) return false;
      } catch {
        return false;
      }
      const result = await verifySolution({
        challenge: parsed.challenge,
        solution: parsed.solution,
        deriveKey,
        hmacSignatureSecret: secrets.signature,
        hmacKeySignatureSecret: secrets.key,
      }).catch(() => null);
      if (!result?.verified) return false;
      const used = await sql`
        INSERT INTO used_captchas (signature, expires_at)
        VALUES (${parsed.challenge.signature ?? parsed.challenge.parameters.nonce}, now() + make_interval(secs => ${LIFETIME_MS / 1000}))
        ON CONFLICT DO NOTHING`.execute(db);
      // Old entries go once their challenge could no longer verify anyway.
      await sql`DELETE FROM used_captchas WHERE expires_at < now()`.execute(db);
      return used.numAffectedRows === 1n;
    },
  };
}

export type Captcha = ReturnType<typeof createCaptcha>;
