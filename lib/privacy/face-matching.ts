import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  type FaceMatchingChange,
  type ReferenceFacesChange,
  changeFaceMatching,
} from '#lib/faces/face-matching-switch';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';

/** What changing face matching did: to the reference faces, and to the photos' candidate lists (switched off). */
export interface FaceMatchingSwitch extends ReferenceFacesChange {
  candidateLists: number;
}

/**
 * Changes a gallery's face matching (lib/faces/face-matching-switch.ts); switched off, its
 * reference faces are deleted first (no new second opinion names anyone), then nobody stays
 * among the face candidates of its photos: they are personal data that nothing compares with
 * any more (docs/photos.md#face-candidates-after-a-face-goes).
 */
export async function switchFaceMatching(scope: GalleryScope, change: FaceMatchingChange): Promise<FaceMatchingSwitch> {
  const changed = await changeFaceMatching(scope, change);
  const candidateLists = change.mode === 'off' ? await forgetFaceCandidates(scope, 'all') : 0;
  return { ...changed, candidateLists };
}
