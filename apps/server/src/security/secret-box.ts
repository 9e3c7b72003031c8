import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest (AES-256-GCM) and keyed hashes, from one master key.
 * Each use gets its own subkey (HKDF), so a key leaked from one use opens
 * nothing else.
 */
export type SecretBox = {
  encrypt: (plaintext: string) => string;
  decrypt: (sealed: string) => string;
  /** A subkey for another purpose (e.g. captcha signatures), as hex. */
  subkey: (purpose: string) => string;
};

const VERSION = 'v1';

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `florin:${purpose}`, 32));
  const encryptionKey = derive('encryption');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || !body) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
    subkey: (purpose) => derive(purpose).toString('hex'),
  };
}

/**
 * The configured key, or (embedded installs only) one generated on the first
 * start and kept in DATA_DIR/secrets, readable by the owner alone.
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  const file = path.join(dataDir, 'secrets', 'encryption.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** Tokens and codes are stored as SHA-256: a leaked table does not let anyone use them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function hmacHex(key: string, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}
