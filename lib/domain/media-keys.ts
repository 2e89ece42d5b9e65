import { createHash } from 'node:crypto';

/**
 * Where media live in the bucket. Photos: `photos/<tenantId>/<galleryToken>/<personId>/<file>`;
 * an object created under such a key is a photo of that person. Selfies:
 * `selfies/<tenantId>/<galleryToken>/<personId>.jpg`.
 */
export interface PhotoLocation {
  tenantId: string;
  token: string;
  personId: string;
  fileName: string;
}

const PHOTO_KEY = /^photos\/(ten_[0-9a-z]{26})\/([A-Za-z0-9_-]{1,128})\/(per_[0-9a-z]{26})\/([^/]{1,255})$/;
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
 * The two top-level folders of the media bucket. The photo CDN serves `photos` only (its origin
 * path), and IAM grants, lifecycle rules and the ingest trigger name them (infra/).
 */
export const MEDIA_FOLDERS = { photos: 'photos', selfies: 'selfies' } as const;
