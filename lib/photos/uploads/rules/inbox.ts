import { isValidInboxPath } from '#lib/platform/media-keys';

/**
 * The rules of uploads to a gallery's inbox through the API (docs/photos.md#uploading-a-shoot):
 * which paths and files are taken, how a file is cut into parts, and the inbox listing's cursor.
 */

/** How long presigned upload URLs work. A batch of files is asked for just before it is sent. */
export const UPLOAD_URL_TTL_SECONDS = 3600;

const MEBIBYTE = 1024 * 1024;

/**
 * Part sizes a caller may ask for: S3 takes parts of at least 5 MiB (all but the last); a file
 * no larger than the part size goes up in one PUT.
 */
export const UPLOAD_PART_BYTES = { min: 5 * MEBIBYTE, default: 8 * MEBIBYTE, max: 64 * MEBIBYTE } as const;

/** What ingest reads: camera JPEGs. */
export const UPLOAD_CONTENT_TYPE = 'image/jpeg';

/** The longest inbox path: what the inbox's object key layout takes (lib/platform/media-keys.ts). */
export const INBOX_PATH_MAX_LENGTH = 1000;

const JPEG_NAME = /\.jpe?g$/i;

/** A camera as the upload command writes it (`Canon EOS R5 #0123`): S3 metadata travels as HTTP headers, printable ASCII only. */
export const CAMERA_PATTERN = /^[\x20-\x7e]{1,256}$/;

/** Whether a file may be uploaded under `path` below the inbox: a valid inbox path with a JPEG name. */
export function isUploadablePath(path: string): boolean {
  return path.length <= INBOX_PATH_MAX_LENGTH && JPEG_NAME.test(path) && isValidInboxPath(path);
}

/**
 * The sizes of the parts a file of `size` bytes goes up in: one entry (a single PUT) up to
 * `partSize`, else parts of `partSize` and a last one with the rest.
 */
export function partSizes(size: number, partSize: number): number[] {
  const sizes: number[] = [];
  for (let offset = 0; offset < size; offset += partSize) sizes.push(Math.min(partSize, size - offset));
  return sizes.length === 0 ? [0] : sizes;
}

/** A cursor of the inbox listing: base64url of a version tag and the last path of the page. */
export function encodeInboxCursor(lastPath: string): string {
  return Buffer.from(`i1:${lastPath}`, 'utf8').toString('base64url');
}

/**
 * The path a cursor continues after; undefined when it is not a cursor of this listing. Any
 * path is taken (an object uploaded by other means may have a name the API would refuse): the
 * listing stays below the gallery's inbox whatever it continues after.
 */
export function decodeInboxCursor(cursor: string): string | undefined {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const path = decoded.startsWith('i1:') ? decoded.slice(3) : '';
  return path.length >= 1 && path.length <= INBOX_PATH_MAX_LENGTH ? path : undefined;
}

/** The inbox listing's page sizes. */
export const INBOX_PAGE = { defaultLimit: 1000, maxLimit: 1000 } as const;
