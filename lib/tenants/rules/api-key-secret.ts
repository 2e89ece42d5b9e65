import { hashSecret, randomBase62 } from '#lib/platform/secret-values';

/**
 * API keys look like `gsk_` followed by 40 base62 characters (about 238 random bits). The
 * prefix makes a leaked key recognisable to secret scanners and to people.
 */
export const API_KEY_PREFIX = 'gsk_';
const SECRET_LENGTH = 40;
const API_KEY_PATTERN = /^gsk_[0-9A-Za-z]{40}$/;

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
}

/** Whether a presented value has the shape of a key; others are refused without a lookup. */
export function hasApiKeyShape(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

export function hashApiKey(secret: string): string {
  return hashSecret(secret);
}

/** What may be shown of a key after creation: enough to tell keys apart, too little to use. */
export function displayPrefixOf(secret: string): string {
  return `${secret.slice(0, API_KEY_PREFIX.length + 6)}…`;
}
