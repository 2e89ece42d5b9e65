import type { Tenant } from '#lib/tenants/store/tenants';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { describeReferenceFace } from '#lib/faces/reference-faces';
import { placementOpinions } from '#lib/faces/second-opinion';
import { faceMatchingOf } from '#lib/galleries/rules/face-matching';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { putMediaObject } from '#lib/platform/media-bucket';
import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { augment, packagedFaces } from '../faces/packaged-faces';
import { createBenchGallery, shootPhotoFacts } from './bench-api';
import type { RoundTripCounter } from './round-trip-counter';
import { median, rounded, timeEach, timed } from './statistics';

export type FaceIngestResult = Awaited<ReturnType<typeof measureFaceIngest>>;

/** A placement of a portrait without face matching: store it, the card before it, the photo and person read, the move. */
export const PLACEMENT_WITHOUT_FACES_FLOOR = { calls: 5, depth: 5 };

/**
 * What the second opinion from faces adds to placing a shoot photo (docs/benchmarks/faces.md):
 * `portraitCount` portraits, each after its person's card, placed in a gallery without face
 * matching and in one with it, against the face model alone on the same portraits.
 */
export async function measureFaceIngest(tenant: Tenant, counter: RoundTripCounter, portraitCount: number) {
  const byIdentity = new Map((await packagedFaces()).map((face) => [face.identity, face.image]));
  const identities = [...byIdentity.values()].slice(0, portraitCount);
  const portraits = await Promise.all(identities.map((selfie) => augment(selfie, 'jpeg-q40')));

  /** A gallery whose sitters checked in with their selfies (a reference face each), then each portrait placed after its sitter's card. */
  const placeAll = async (faceMatching: 'off' | 'withhold') => {
    const { token } = await createBenchGallery(tenant.tenantId, `Face ingest bench (${faceMatching})`, {
      selfieEnabled: true,
      showShootingDaySelector: false,
      granularConsents: { face: true, notification: false, hrExport: false },
      faceMatching,
    });
    const scope = { tenantId: tenant.tenantId, token };
    const codes: string[] = [];
    for (const [index, selfie] of identities.entries()) {
      const configuration = (await getGalleryConfiguration(scope.tenantId, scope.token))!;
      const request = parseSubmitCheckin({
        action: 'submitCheckin',
        token,
        name: `Sitter ${index}`,
        email: `sitter${index}@example.com`,
        faceConsent: true,
        selfieBase64: selfie.toString('base64'),
      });
      const answer = (await submitCheckin(tenant, configuration, request)) as { personId: string; code: string };
      await describeReferenceFace(scope, answer.personId);
      codes.push(answer.code);
    }
    const matching = faceMatchingOf((await getGalleryConfiguration(scope.tenantId, scope.token))!.gallery);
    const samples: number[] = [];
    let roundTrips = { calls: 0, depth: 0 };
    let delivered = 0;
    for (const [index, portrait] of portraits.entries()) {
      const facts = (name: string, second: number) =>
        shootPhotoFacts(scope, `bench/${name}`, `2026-11-20T10:${String(index).padStart(2, '0')}:0${second}.000Z`);
      await placeShootPhoto(scope, facts(`CARD_${index}.JPG`, 0), { kind: 'card', code: codes[index]! });
      const photo = facts(`IMG_${index}.JPG`, 1);
      await putMediaObject(photo.objectKey, portrait, 'image/jpeg');
      const faces = placementOpinions(scope, matching, { objectKey: photo.objectKey, bytes: portrait });
      const placing = await timed(() => counter.measure(() => placeShootPhoto(scope, photo, { kind: 'photo' }, faces)));
      const { result, count } = placing.result;
      samples.push(placing.milliseconds);
      roundTrips = { calls: count.calls, depth: count.depth };
      if (result.kind === 'photo' && result.personId) delivered += 1;
    }
    return { ms: rounded(median(samples)), roundTrips, delivered };
  };

  // The model is loaded and warm before either side is timed: its cold load is a study of its own (docs/benchmarks/faces.md).
  await loadFaceModel();
  await describeFaces(portraits[0]!);
  const without = await placeAll('off');
  const withFaces = await placeAll('withhold');
  const modelAloneMs = rounded(median((await timeEach(portraits, 1, describeFaces)).milliseconds));
  const faceStepMs = rounded(withFaces.ms - without.ms);
  return {
    portraits: portraits.length,
    withoutFaceMatchingMs: without.ms,
    withFaceMatchingMs: withFaces.ms,
    modelAloneMs,
    faceStepMs,
    faceStepRatio: rounded(faceStepMs / modelAloneMs, 2),
    roundTripsWithout: without.roundTrips,
    roundTripsWith: withFaces.roundTrips,
    deliveredWithFaceMatching: withFaces.delivered,
  };
}
