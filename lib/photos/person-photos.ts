import { now } from '#lib/platform/clock';
import { PHOTO_URL_TTL_SECONDS, signPhotoUrls } from '#lib/photos/adapters/photo-url-signer';
import { getPerson } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/store/photos';
import type { ParticipantPhotos, PersonPhotos } from '#lib/photos/photo-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { DomainError } from '#lib/platform/domain-error';
import type { Photo } from '#lib/photos/rules/photo-model';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { isPersonIdShaped } from '#lib/platform/identifiers';

/** Photos with their signed URLs, and when those URLs stop working. */
export interface SignedPhotos {
  photos: { photo: Photo; url: string }[];
  urlsExpireAt: string;
}

/**
 * Signed CloudFront URLs for `photos`, valid for PHOTO_URL_TTL_SECONDS, in their order: what
 * the server-side photos route and the participant's myPhotos both answer with.
 */
export async function signPhotos(photos: Photo[]): Promise<SignedPhotos> {
  // Whole seconds: CloudFront's canned policy expires at a Unix second.
  const expiresAtMs = (Math.floor(now() / 1000) + PHOTO_URL_TTL_SECONDS) * 1000;
  const urls = photos.length === 0 ? [] : await signPhotoUrls(photos.map((photo) => photo.objectKey), expiresAtMs);
  return {
    // signPhotoUrls answers one URL per key, in order
    photos: photos.map((photo, index) => ({ photo, url: urls[index]! })),
    urlsExpireAt: new Date(expiresAtMs).toISOString(),
  };
}

/** A signed photo as the answers show it. */
export function signedPhotoView({ photo, url }: SignedPhotos['photos'][number]) {
  const { photoId, fileName, width, height, capturedAt, createdAt } = photo;
  return { photoId, fileName, width, height, capturedAt, createdAt, url };
}

/**
 * A person's assigned photos in the order they were taken, each with a signed CloudFront URL valid for PHOTO_URL_TTL_SECONDS.
 * person_not_found for an ID this gallery does not have (another gallery's person included).
 */
export async function listPersonPhotos(tenant: Tenant, token: string | undefined, personId: string | undefined): Promise<ResultMembers<typeof PersonPhotos>> {
  const { gallery } = await loadGroupShootGallery(tenant.tenantId, token);
  const scope = { tenantId: tenant.tenantId, token: gallery.token };
  const person = personId && isPersonIdShaped(personId) ? await getPerson(scope, personId) : undefined;
  if (!person) throw new DomainError('unknown_person');
  const signed = await signPhotos(await listPhotos(scope, person.personId));
  return {
    galleryToken: gallery.token,
    personId: person.personId,
    photos: signed.photos.map(signedPhotoView),
    urlsExpireAt: signed.urlsExpireAt,
  };
}

/**
 * The participant's own view of their photos (myPhotos, photosByLink): in the order they were
 * taken, each with a signed URL as the server-side route signs them, without person or photo
 * IDs: the participant needs the file, its name and size.
 */
export async function participantPhotosAnswer(scope: GalleryScope, person: Pick<Person, 'personId' | 'name'>): Promise<ResultMembers<typeof ParticipantPhotos>> {
  const signed = await signPhotos(await listPhotos(scope, person.personId));
  return {
    name: person.name,
    photos: signed.photos.map((signed) => {
      const { photoId: _photoId, ...view } = signedPhotoView(signed);
      return view;
    }),
    urlsExpireAt: signed.urlsExpireAt,
  };
}
