import { randomBytes } from 'node:crypto';

/**
 * Where uploaded documents live: a folder on this machine by default, an
 * S3-compatible bucket when several instances must share them. Callers keep
 * the key (in the database) and never see a path or URL.
 */
export type FileStorage = {
  /** Stores bytes under a new random, unguessable key (no user-supplied name in it) and returns the key. */
  put(bytes: Buffer, contentType: string): Promise<string>;
  /** The bytes, or null when the key is unknown. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
};

/** 32 random bytes in lower-case hex: unguessable, and safe as a file name on any file system. */
const STORAGE_KEY = /^[0-9a-f]{64}$/;

export function newStorageKey(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Only keys this module could have made reach a disk or a bucket; anything
 * else (`../`, absolute paths, a different length) is treated as unknown.
 */
export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}
