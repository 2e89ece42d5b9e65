import { now } from '#lib/platform/clock';
import { PHOTO_URL_TTL_SECONDS, signPhotoUrls } from '#lib/photos/access/adapters/photo-url-signer';
import { getPerson } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/common/store/photos';
import type { ParticipantPhotos, PersonPhotos } from '#lib/photos/access/photo-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { DomainError } from '#lib/platform/domain-error';
import type { Photo } from '#lib/photos/common/rules/photo-model';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { isPersonIdShaped } from '#lib/platform/identifiers';
import { pickedPhotoOf } from '#lib/photos/access/rules/portrait-photo';

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
  const urls =
    photos.length === 0
      ? []
      : await signPhotoUrls(
          photos.map((photo) => photo.objectKey),
          expiresAtMs,
        );
  return {
    // signPhotoUrls answers one URL per key, in order
    photos: photos.map((photo, index) => ({ photo, url: urls[index]! })),
    urlsExpireAt: new Date(expiresAtMs).toISOString(),
  };
}

/** A signed photo as the answers show it; `picked` where it is the person's pick. */
export function signedPhotoView({ photo, url }: SignedPhotos['photos'][number], pickedPhotoId: string | undefined) {
  const { photoId, fileName, width, height, capturedAt, createdAt } = photo;
  return { photoId, fileName, width, height, capturedAt, createdAt, url, picked: photoId === pickedPhotoId };
}

/** A person's photos, signed, with the pick as the answers show it: none where the picked photo is no longer among them. */
async function signedPhotosWithPick(scope: GalleryScope, person: Pick<Person, 'personId' | 'pickedPhotoId'>) {
  const photos = await listPhotos(scope, person.personId);
  const pickedPhotoId = pickedPhotoOf(photos, person.pickedPhotoId)?.photoId;
  const signed = await signPhotos(photos);
  return {
    pickedPhotoId,
    photos: signed.photos.map((one) => signedPhotoView(one, pickedPhotoId)),
    urlsExpireAt: signed.urlsExpireAt,
  };
}

/**
 * A person's assigned photos in the order they were taken, each with a signed CloudFront URL valid for PHOTO_URL_TTL_SECONDS,
 * and the person's pick. person_not_found for an ID this gallery does not have (another gallery's person included).
 * `loaded`: the gallery the pipeline read already.
 */
export async function listPersonPhotos(
  tenant: Tenant,
  token: string | undefined,
  personId: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof PersonPhotos>> {
  const { gallery } = await loadGroupShootGallery(tenant.tenantId, token, loaded);
  const scope = { tenantId: tenant.tenantId, token: gallery.token };
  const person = personId && isPersonIdShaped(personId) ? await getPerson(scope, personId) : undefined;
  if (!person) throw new DomainError('unknown_person');
  const { pickedPhotoId, photos, urlsExpireAt } = await signedPhotosWithPick(scope, person);
  return {
    galleryToken: gallery.token,
    personId: person.personId,
    urlsExpireAt,
    pickedPhotoId: pickedPhotoId ?? null,
    photos,
  };
}

/**
 * The participant's own view of their photos (myPhotos, photosByLink, pickPhoto): in the order
 * they were taken, each with a signed URL as the server-side route signs them, its ID (what
 * pickPhoto names) and whether it is the pick, and whether the person consents to face matching
 * now (what withdrawFaceConsent withdraws); without the person's ID.
 */
export async function participantPhotosAnswer(
  scope: GalleryScope,
  person: Pick<Person, 'personId' | 'name' | 'pickedPhotoId' | 'consents'>,
): Promise<ResultMembers<typeof ParticipantPhotos>> {
  const { photos, urlsExpireAt } = await signedPhotosWithPick(scope, person);
  return { name: person.name, photos, urlsExpireAt, faceConsent: person.consents.faceConsent === true };
}
