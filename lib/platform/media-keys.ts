import { createHash } from 'node:crypto';
import { GALLERY_TOKEN_SOURCE, PERSON_ID_SOURCE, TENANT_ID_SOURCE } from '#lib/platform/identifiers';

/**
 * Where media live in the bucket. Photos: `photos/<tenantId>/<galleryToken>/<personId>/<file>`;
 * an object created under such a key is a photo of that person. A shoot's unsorted photos:
 * `photos/<tenantId>/<galleryToken>/inbox/<path>`, up to INBOX_PATH_DEPTH folders deep (one
 * folder per camera card or shoot, as the photographer uploads them); ingest sorts them to
 * persons by the camera cards among them. Selfies: `selfies/<tenantId>/<galleryToken>/<personId>.jpg`.
 */
export interface PhotoLocation {
  tenantId: string;
  token: string;
  personId: string;
  fileName: string;
}

const PHOTO_KEY = new RegExp(
  `^photos/(${TENANT_ID_SOURCE})/(${GALLERY_TOKEN_SOURCE})/(${PERSON_ID_SOURCE})/([^/]{1,255})$`,
);
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,254}$/;

export function isValidPhotoFileName(fileName: string): boolean {
  return FILE_NAME.test(fileName) && !fileName.includes('..');
}

export function photoObjectKey(location: PhotoLocation): string {
  return `photos/${location.tenantId}/${location.token}/${location.personId}/${location.fileName}`;
}

/** The photo an object key names; undefined for keys outside the photo layout. */
export function parsePhotoObjectKey(key: string): PhotoLocation | undefined {
  const match = PHOTO_KEY.exec(key);
  if (!match) return undefined;
  const [, tenantId, token, personId, fileName] = match as unknown as [string, string, string, string, string];
  return isValidPhotoFileName(fileName) ? { tenantId, token, personId, fileName } : undefined;
}

/** An inbox photo: its gallery and its path below the gallery's inbox folder. */
export interface InboxLocation {
  tenantId: string;
  token: string;
  /** `<folder>/…/<file>`, segments separated by `/`. */
  path: string;
}

/** Folders an inbox path may have above its file: a shoot folder with a folder per camera fits. */
export const INBOX_PATH_DEPTH = 3;

const INBOX_KEY = new RegExp(`^photos/(${TENANT_ID_SOURCE})/(${GALLERY_TOKEN_SOURCE})/inbox/(.{1,1000})$`);

/** Whether `path` can name an inbox photo: 1 to INBOX_PATH_DEPTH + 1 segments, each a valid file name. */
export function isValidInboxPath(path: string): boolean {
  const segments = path.split('/');
  return segments.length <= INBOX_PATH_DEPTH + 1 && segments.every(isValidPhotoFileName);
}

export function inboxObjectKey(location: InboxLocation): string {
  return `${inboxPrefix(location.tenantId, location.token)}${location.path}`;
}

/** The inbox photo an object key names; undefined for keys outside the inbox layout. */
export function parseInboxObjectKey(key: string): InboxLocation | undefined {
  const match = INBOX_KEY.exec(key);
  if (!match) return undefined;
  const [, tenantId, token, path] = match as unknown as [string, string, string, string];
  return isValidInboxPath(path) ? { tenantId, token, path } : undefined;
}

/** Where a gallery's unsorted shoot photos are uploaded. */
export function inboxPrefix(tenantId: string, token: string): string {
  return `photos/${tenantId}/${token}/inbox/`;
}

/** Derived from the object key, so a redelivered event records the same photo, not a second one. */
export function photoIdOf(objectKey: string): string {
  return `pho_${createHash('sha256').update(objectKey).digest('hex').slice(0, 24)}`;
}

export function selfieObjectKey(tenantId: string, token: string, personId: string): string {
  return `selfies/${tenantId}/${token}/${personId}.jpg`;
}

/** Where all of one person's photos are. */
export function personPhotoPrefix(location: Omit<PhotoLocation, 'fileName'>): string {
  return `photos/${location.tenantId}/${location.token}/${location.personId}/`;
}

/** Where all selfies and all photos of a gallery are. */
export function galleryMediaPrefixes(tenantId: string, token: string): { selfies: string; photos: string } {
  return { selfies: `selfies/${tenantId}/${token}/`, photos: `photos/${tenantId}/${token}/` };
}

/**
 * The top-level folders of the media bucket. The photo CDN serves `photos` only (its origin
 * path), and IAM grants, lifecycle rules and the ingest trigger name them (infra/). HR exports
 * (`hr-exports`) and the cached portrait crops they are made of (`portrait-crops`) expire by
 * lifecycle rules of their own (docs/hr-export.md), as do the studio console's thumbnails
 * (`thumbnails`; the studio docs say how they are kept and deleted).
 */
export const MEDIA_FOLDERS = {
  photos: 'photos',
  selfies: 'selfies',
  hrExports: 'hr-exports',
  portraitCrops: 'portrait-crops',
  thumbnails: 'thumbnails',
} as const;

/** The ZIP of one HR export: `hr-exports/<tenantId>/<galleryToken>/<exportId>.zip`. */
export function hrExportObjectKey(tenantId: string, token: string, exportId: string): string {
  return `${MEDIA_FOLDERS.hrExports}/${tenantId}/${token}/${exportId}.zip`;
}

/** The version of the crop recipe (docs/hr-export.md): a new recipe gets new keys, so no old crop is reused. */
export const PORTRAIT_CROP_VERSION = 'v1';

/**
 * A cached square crop of one photo at one size:
 * `portrait-crops/<tenantId>/<galleryToken>/<personId>/<photoId>-<size>[-face]-v1.jpg`, `-face`
 * when it was cut around the person's face box rather than by attention (a photo whose face
 * became known later is cut again).
 */
export function portraitCropKey(location: {
  tenantId: string;
  token: string;
  personId: string;
  photoId: string;
  size: number;
  aroundFace: boolean;
}): string {
  const framing = location.aroundFace ? '-face' : '';
  return `${portraitCropPrefix(location)}${location.photoId}-${location.size}${framing}-${PORTRAIT_CROP_VERSION}.jpg`;
}

/** Where all cached crops of one person's photos are. */
export function portraitCropPrefix(location: { tenantId: string; token: string; personId: string }): string {
  return `${MEDIA_FOLDERS.portraitCrops}/${location.tenantId}/${location.token}/${location.personId}/`;
}

/** Where a gallery's HR exports and cached portrait crops are. */
export function galleryExportPrefixes(tenantId: string, token: string): { hrExports: string; portraitCrops: string } {
  return {
    hrExports: `${MEDIA_FOLDERS.hrExports}/${tenantId}/${token}/`,
    portraitCrops: `${MEDIA_FOLDERS.portraitCrops}/${tenantId}/${token}/`,
  };
}

/** The version of the thumbnail recipe: a new recipe gets new keys, so no old thumbnail is reused. */
export const THUMBNAIL_VERSION = 'v1';

/**
 * A small copy of a photo or selfie for the studio console: `thumbnails/<object key>@<size>-v1.jpg`.
 * It mirrors the object's key under its own folder, so a prefix of objects (a gallery's, a
 * person's) names their thumbnails too (thumbnailPrefix); `@` is in no object key, so the
 * thumbnails of one object are exactly those under `thumbnailPrefix(objectKey + '@')`.
 */
export function thumbnailKey(objectKey: string, size: number): string {
  return `${thumbnailPrefix(`${objectKey}@`)}${size}-${THUMBNAIL_VERSION}.jpg`;
}

/** Where the thumbnails of the objects under `objectPrefix` are. */
export function thumbnailPrefix(objectPrefix: string): string {
  return `${MEDIA_FOLDERS.thumbnails}/${objectPrefix}`;
}
