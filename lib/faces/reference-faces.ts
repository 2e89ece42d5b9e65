import { nowIso } from '#lib/platform/clock';
import type { ChangeRecord } from '#lib/events/adapters/stream-records';
import { insertedPersonOfRecord } from '#lib/persons/store/person-records';
import { findMediaObject } from '#lib/platform/media-bucket';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { faceMatchingOf } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { getPerson } from '#lib/persons/store/persons';
import { mainFace } from '#lib/faces/rules/face-descriptors';
import { putReferenceFace, referenceFaceState } from '#lib/faces/store/reference-faces';

/** The face model is loaded with the first selfie to describe: it costs seconds and hundreds of MB. */
const faceModel = () => import('#lib/faces/adapters/face-model');

export type ReferenceOutcome =
  | 'stored'
  | 'no_face'
  | 'not_consenting'
  | 'matching_off'
  | 'person_gone'
  | 'selfie_gone'
  /** The person's card photos showed the selfie is not their face: it is never described again. */
  | 'not_their_face'
  /** Erased, withdrawn, the selfie gone or matching switched off while the selfie was described: nothing stored. */
  | 'changed_meanwhile';

/**
 * A consenting person's reference face: the main face of their selfie, described by the face
 * model and stored with the person, unconfirmed (a photo their own card governs confirms it,
 * lib/faces/second-opinion.ts). Nothing is computed for a gallery whose face matching is off,
 * for a person without a selfie or without face consent (given on a gallery that asks for it),
 * or whose selfie was rejected as not their face; a selfie showing no face gives no reference.
 * Running it again keeps what is stored.
 */
export async function describeReferenceFace(scope: GalleryScope, personId: string): Promise<ReferenceOutcome> {
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) return 'person_gone';
  if (faceMatchingOf(configuration.gallery).mode === 'off') return 'matching_off';
  const person = await getPerson(scope, personId);
  if (!person) return 'person_gone';
  if (!configuration.gallery.granularConsents.face || person.consents.faceConsent !== true || !person.hasSelfie)
    return 'not_consenting';
  const known = await referenceFaceState(scope, personId);
  if (known !== 'none') return known === 'face' ? 'stored' : 'not_their_face';
  // Retention or erasure may have deleted the selfie since the person was stored.
  const selfie = await findMediaObject(selfieObjectKey(scope.tenantId, scope.token, personId));
  if (!selfie) return 'selfie_gone';
  const model = await faceModel();
  const faces = await model.describeFaces(Buffer.from(selfie.bytes)).catch((error: unknown) => {
    if (error instanceof model.UnreadableFaceImageError) return [];
    throw error;
  });
  const face = mainFace(faces);
  if (!face) return 'no_face';
  if (await putReferenceFace(scope, { personId, descriptor: face.descriptor }, nowIso())) return 'stored';
  // Described twice at once (a redelivered stream record): the other one stored it.
  const stored = await referenceFaceState(scope, personId);
  if (stored === 'rejected') return 'not_their_face';
  return stored === 'face' ? 'stored' : 'changed_meanwhile';
}

/**
 * The persons whose reference face a batch of the table's stream asks for: person items
 * written with a selfie and face consent (the stack filters the stream so; this checks again).
 */
export function personsToDescribe(
  records: readonly ChangeRecord[],
): { id: string; scope: GalleryScope; personId: string }[] {
  return records.flatMap((record) => {
    const inserted = insertedPersonOfRecord(record);
    if (!inserted) return [];
    const { scope, item } = inserted;
    const consents = typeof item.consents === 'object' ? (item.consents as { faceConsent?: unknown } | null) : null;
    if (typeof item.personId !== 'string' || item.hasSelfie !== true || consents?.faceConsent !== true) return [];
    return [{ id: record.id, scope, personId: item.personId }];
  });
}
