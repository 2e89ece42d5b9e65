/**
 * Every limit on what a caller sends, in one place: validation (check-in, import rows, query
 * parameters), the OpenAPI document (through each feature's schemas) and the error messages read
 * these. docs/api-reference.md lists them; a test holds that table to this module.
 */

/** Longest accepted value of each text field, in characters after trimming; `name` also needs one. */
export const TEXT_LIMITS = {
  name: 200,
  email: 200,
  employeeId: 100,
  phone: 50,
  department: 100,
  notes: 1000,
  orderNotes: 1000,
  shootingDayId: 100,
  selectedPackageId: 100,
} as const;

export type LimitedTextField = keyof typeof TEXT_LIMITS;

/** Longest accepted value of a `text` and of a `textarea` custom form field. */
export const CUSTOM_TEXT_LIMITS = { text: 500, textarea: 2000 } as const;

/** Persons in one import request. */
export const MAX_PERSONS_PER_IMPORT = 500;

/** A selfie once decoded from base64: within the body limit, which stays under Lambda's 6 MB payload. */
export const MAX_SELFIE_BYTES = 3 * 1024 * 1024;

/**
 * The most pixels (width × height) a selfie may declare: a phone's full-resolution 50 MP
 * picture (8160 × 6120) fits, a decompression bomb's 65535 × 65535 does not. It also bounds
 * the decoder's memory (see lib/checkin/adapters/selfie-image.ts).
 */
export const MAX_SELFIE_PIXELS = 50_000_000;

/**
 * The largest photo object the ingest function downloads whole: a 102 MP medium-format JPEG is
 * about 21 MB, a 24 MP one about 5 MB (docs/benchmarks.md, section 7); anything bigger is not a
 * camera's photo, and reading it would exhaust the function's memory.
 */
export const MAX_PHOTO_OBJECT_BYTES = 64 * 1024 * 1024;

/**
 * Files in one request for upload URLs, and uploads completed or aborted in one request
 * (POST …/uploads, POST …/uploads/complete): 50 multipart uploads of 13 presigned part URLs
 * each keep the answer far below Lambda's 6 MB.
 */
export const MAX_FILES_PER_UPLOAD_REQUEST = 50;

/** A status or retry token as sent back (issued tokens are far shorter). */
export const CHECKOUT_TOKEN_MAX_LENGTH = 200;

/** The check-in page's return URL of a paid check-in. */
export const RETURN_URL_MAX_LENGTH = 2000;

/** A size in mebibytes for messages: 3145728 → "3 MiB". */
export function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}
