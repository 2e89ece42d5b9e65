/**
 * The shapes of the identifiers every part of the service reads: stated once, so that a route,
 * an object key, a cursor and a CLI option cannot disagree on what an ID looks like.
 */

/** Gallery tokens the service issues: 16 base62 characters (a gallery's secret). */
export const GALLERY_TOKEN_LENGTH = 16;

/** The widest token any gallery may have; anything longer or with other characters is not looked up. */
export const GALLERY_TOKEN_MAX_LENGTH = 128;

/** Source of a gallery token, for patterns that contain one (object keys). */
export const GALLERY_TOKEN_SOURCE = `[A-Za-z0-9_-]{1,${GALLERY_TOKEN_MAX_LENGTH}}`;

/** `ten_`, `per_`: a prefix and a lowercase ULID. */
export const TENANT_ID_SOURCE = 'ten_[0-9a-z]{26}';
export const PERSON_ID_SOURCE = 'per_[0-9a-z]{26}';

/** An Idempotency-Key a caller may send: 1 to 255 printable ASCII characters without spaces. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const GALLERY_TOKEN = new RegExp(`^${GALLERY_TOKEN_SOURCE}$`);
const PERSON_ID = new RegExp(`^${PERSON_ID_SOURCE}$`);

export function isGalleryTokenShaped(value: string): boolean {
  return GALLERY_TOKEN.test(value);
}

export function isPersonIdShaped(value: string): boolean {
  return PERSON_ID.test(value);
}
