import { createHash, randomBytes, randomFillSync } from 'node:crypto';

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

const randomPool = new Uint8Array(4096);
let randomPoolOffset = randomPool.length;

/**
 * A random fraction in [0, 1) in steps of 1/256, from the operating system's CSPRNG through a
 * pool of 4 KiB: the ULID generators' source. ulid's own draws one byte from the OS per
 * character, about 30 µs per ID, a visible share of a check-in's CPU; this is the same
 * randomness at about 1 µs.
 */
export function pooledRandomFraction(): number {
  if (randomPoolOffset >= randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  const byte = randomPool[randomPoolOffset]!;
  randomPoolOffset += 1;
  return byte / 256;
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
