import { updateGallerySettings } from '#lib/galleries/store/galleries';
import type { FaceMatchingMode, FaceThresholds } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { listPersons } from '#lib/persons/store/persons';
import { type ReferenceOutcome, describeReferenceFace } from '#lib/faces/reference-faces';
import { deleteReferenceFaces, listReferenceFaces } from '#lib/faces/store/reference-faces';

export interface FaceMatchingChange {
  mode?: FaceMatchingMode;
  /** Replaces the gallery's own thresholds (an empty object: back to the defaults). */
  thresholds?: Partial<FaceThresholds>;
}

/** What switching did to the gallery's reference faces. */
export interface ReferenceFacesChange {
  described: Partial<Record<ReferenceOutcome, number>>;
  deleted: number;
}

/**
 * Changes a gallery's face matching. Switched off, its reference faces are deleted (nothing
 * uses them any more), confirmed or not; the marks of selfies rejected as not their person's
 * face stay, since the selfies do. Switched on, the consenting persons who have none yet are
 * described (their selfies were taken while it was off), unconfirmed, and a rejected selfie is
 * not. A person who did not consent is never described.
 */
export async function changeFaceMatching(
  scope: GalleryScope,
  change: FaceMatchingChange,
): Promise<ReferenceFacesChange> {
  await updateGallerySettings(scope.tenantId, scope.token, {
    ...(change.mode ? { faceMatching: change.mode } : {}),
    ...(change.thresholds ? { faceThresholds: change.thresholds } : {}),
  });
  if (change.mode === 'off')
    return { described: {}, deleted: await deleteReferenceFaces(scope, undefined, { keepRejections: true }) };
  if (change.mode === undefined) return { described: {}, deleted: 0 };
  const described: Partial<Record<ReferenceOutcome, number>> = {};
  const known = new Set((await listReferenceFaces(scope)).map((face) => face.personId));
  let afterPersonId: string | undefined;
  do {
    const page = await listPersons(scope, { limit: 100, afterPersonId });
    for (const person of page.persons) {
      if (known.has(person.personId) || !person.hasSelfie || person.consents.faceConsent !== true) continue;
      const outcome = await describeReferenceFace(scope, person.personId);
      described[outcome] = (described[outcome] ?? 0) + 1;
    }
    afterPersonId = page.lastPersonId;
  } while (afterPersonId);
  return { described, deleted: 0 };
}
