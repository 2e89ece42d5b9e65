import { randomInt } from 'node:crypto';

/**
 * Access codes are 4 characters of this alphabet: digits and uppercase letters without the
 * look-alikes 0/O and 1/I/L. 31^4 = 923,521 codes per gallery.
 */
export const ACCESS_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCESS_CODE_LENGTH = 4;

const ACCESS_CODE_SHAPE = new RegExp(`^[${ACCESS_CODE_ALPHABET}]{${ACCESS_CODE_LENGTH}}$`);

/** Whether `text` could be an access code (upper case, as codes are stored). */
export function isAccessCodeShaped(text: string): boolean {
  return ACCESS_CODE_SHAPE.test(text);
}

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
