import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** Algorithm.Argon2id: the package declares a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

/** A hash of nothing anyone knows, verified when the account does not exist, so timing tells nothing. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword('florin-decoy-password-never-used');
    await verify(await decoy, password);
    return false;
  }
  return verify(passwordHash, password);
}

/** zxcvbn's list is ordered by how often each password appears in leaks: the first 10,000 are refused. */
const COMMON_COUNT = 10_000;
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_COUNT));
  return common.has(password.toLowerCase());
}
