import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 text; bytes at or above 248 (= 4 * 62) are dropped to avoid modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Lowercase letters and digits without look-alikes, for tokens people may read aloud or type. */
const TOKEN_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      const limit = 256 - (256 % TOKEN_ALPHABET.length);
      if (byte < limit && out.length < length) out += TOKEN_ALPHABET[byte % TOKEN_ALPHABET.length];
    }
  }
  return out;
}

/**
 * SHA-256 of a high-entropy secret. Secrets with 200+ random bits need no slow hash: the
 * hash is only there so a leaked table does not leak usable keys.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
