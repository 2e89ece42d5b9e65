import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { MEDIA_FOLDERS, galleryMediaPrefixes, personPhotoPrefix } from '#lib/platform/media-keys';

/**
 * Which paths of the photo CDN an erasure invalidates. The CDN serves the media bucket's
 * `photos/` folder at its root (origin path `/photos`), so `photos/<t>/<g>/<p>/a.jpg` is
 * `/<t>/<g>/<p>/a.jpg` there. CloudFront counts a wildcard path as one path (its price and
 * its limit of 15 wildcard paths in progress), an exact path as one too (3,000 in progress):
 * a whole gallery is one wildcard; persons are one wildcard each for their folder (if it held
 * photos) and exact paths for their shoot photos in the inbox, and past MAX_PATHS_PER_ERASURE the gallery's
 * wildcard instead, which only makes the edge fetch the gallery's other photos again.
 */
export const MAX_PATHS_PER_ERASURE = 10;

export interface ErasedPhotos {
  /** The whole gallery's photos went. */
  wholeGallery: boolean;
  /** Persons whose photo folders were erased. */
  personIds: readonly string[];
  /** Keys of the photo objects that were deleted (their folders' and the inbox's). */
  objectKeys: readonly string[];
}

/** The CDN path of an object under photos/. */
export function photoCdnPath(objectKey: string): string {
  return `/${objectKey.slice(MEDIA_FOLDERS.photos.length + 1)}`;
}

/** The invalidation paths for what an erasure deleted; none when it deleted no photo object. */
export function photoInvalidationPaths(scope: GalleryScope, erased: ErasedPhotos): string[] {
  const photoKeys = erased.objectKeys.filter((key) => key.startsWith(`${MEDIA_FOLDERS.photos}/`));
  if (photoKeys.length === 0) return [];
  const galleryWildcard = [`${photoCdnPath(galleryMediaPrefixes(scope.tenantId, scope.token).photos)}*`];
  if (erased.wholeGallery) return galleryWildcard;
  const folders = erased.personIds
    .map((personId) => personPhotoPrefix({ ...scope, personId }))
    .filter((folder) => photoKeys.some((key) => key.startsWith(folder)));
  const outsideFolders = photoKeys.filter((key) => !folders.some((folder) => key.startsWith(folder)));
  const paths = [
    ...new Set([...folders.map((folder) => `${photoCdnPath(folder)}*`), ...outsideFolders.map(photoCdnPath)]),
  ];
  return paths.length > MAX_PATHS_PER_ERASURE ? galleryWildcard : paths;
}
