import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { deleteReferenceFaces, getReferenceFace } from '#lib/faces/store/reference-faces';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { withdrawFaceConsentRecords } from '#lib/privacy/store/person-erasure';

/**
 * Faces that leave: a withdrawn face consent takes the person's reference face with it, and the
 * person out of every shoot photo's face candidates (personal data of theirs:
 * docs/personal-data.md). The reference face goes first, so that no new second opinion names
 * them; the candidates after (docs/photos.md#face-candidates-after-a-face-goes).
 */

/** What a withdrawal changed; `unknown_person` changes nothing. */
export type FaceConsentWithdrawal =
  { outcome: 'withdrawn'; referenceFaces: number; candidateLists: number } | { outcome: 'unknown_person' };

/**
 * Withdraws a person's face consent (the studio's, on the person's word): the consent is false
 * from now on, their reference face is deleted at once, and they leave the face candidates of
 * every other photo. Safe to run again: a withdrawn person's run changes nothing.
 */
export async function withdrawFaceConsent(scope: GalleryScope, personId: string): Promise<FaceConsentWithdrawal> {
  const hadReference = (await getReferenceFace(scope, personId)) !== undefined;
  if (!(await withdrawFaceConsentRecords(scope, personId))) return { outcome: 'unknown_person' };
  const candidateLists = await forgetFaceCandidates(scope, new Set([personId]));
  return { outcome: 'withdrawn', referenceFaces: hadReference ? 1 : 0, candidateLists };
}

/** What forgetting a gallery's faces removed. */
export interface GalleryFacesForgotten {
  referenceFaces: number;
  candidateLists: number;
}

/**
 * Every face of a gallery that no longer matches faces (switched off, or its check-in stopped
 * asking for face consent): its reference faces are deleted, then nobody stays among the face
 * candidates of its photos. Safe to run again.
 */
export async function forgetFacesOfGallery(scope: GalleryScope): Promise<GalleryFacesForgotten> {
  // The marks of rejected selfies stay with the selfies: asked again, the gallery must not describe them again.
  const referenceFaces = await deleteReferenceFaces(scope, undefined, { keepRejections: true });
  return { referenceFaces, candidateLists: await forgetFaceCandidates(scope, 'all') };
}
