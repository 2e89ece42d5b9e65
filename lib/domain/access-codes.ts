import { randomInt } from 'node:crypto';

/**
 * Access codes are 4 characters of this alphabet: digits and uppercase letters without the
 * look-alikes 0/O and 1/I/L. 31^4 = 923,521 codes per gallery.
 */
export const ACCESS_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCESS_CODE_LENGTH = 4;

export function generateAccessCode(): string {
  let code = '';
  for (let index = 0; index < ACCESS_CODE_LENGTH; index += 1) {
    code += ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)];
  }
  return code;
}

/** A code not among `taken`, so one batch never proposes the same code twice. */
export function generateAccessCodeNotIn(taken: ReadonlySet<string>): string {
  for (;;) {
    const code = generateAccessCode();
    if (!taken.has(code)) return code;
  }
}
