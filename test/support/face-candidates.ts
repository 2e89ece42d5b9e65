import type { FaceOpinion } from '#lib/faces/second-opinion';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { listPhotosForReview } from '#lib/photos/sorting/shoot-review';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type TestTenant, createTestTenant } from './factories';
import { storeConfirmedReferenceFace } from './face-galleries';
import { type Upload, newShoot, syntheticShoot } from './shoot-uploads';

/** Shoot photos whose face candidates name persons, for the tests of what goes when a face goes. */

/** A second opinion that sees two other persons' faces in a photo its card gives to someone else. */
function otherFaces(candidates: FaceCandidate[]): FaceOpinion {
  const opinion: Pick<FaceOpinion, 'onCard' | 'withoutCard'> = {
    onCard: async () => ({ kind: 'withhold', reason: 'face_mismatch', distance: 0.74, candidates }),
    withoutCard: async () => undefined,
  };
  return opinion as FaceOpinion;
}

/**
 * A sorted shoot of three imported persons (person0@example.com …) in a gallery of its own (of
 * `studio`, a new tenant without one), whose first card's next photo is withheld from the first,
 * the faces seeing the second (0.31, to be forgotten) and the third (0.45), who both have
 * confirmed reference faces (a placement keeps only the candidates whose face it finds after
 * writing them). `withheldPlaced: false` leaves that photo to be placed by the test.
 */
export async function withheldShoot(studio?: TestTenant, { withheldPlaced = true } = {}) {
  studio ??= await createTestTenant();
  const shoot = await newShoot(studio, 3);
  const [first, forgotten, kept] = shoot.persons;
  const uploads: Upload[] = syntheticShoot(shoot.scope, shoot.persons);
  const card = uploads.findIndex((upload) => upload.card.kind === 'card' && upload.card.code === first!.code);
  const withheld = uploads[card + 1]!;
  for (const upload of uploads.filter((upload) => upload !== withheld))
    await placeShootPhoto(shoot.scope, upload.facts, upload.card);
  await storeConfirmedReferenceFace(shoot.scope, forgotten!.personId);
  await storeConfirmedReferenceFace(shoot.scope, kept!.personId);
  const opinion = otherFaces([
    { personId: forgotten!.personId, distance: 0.31 },
    { personId: kept!.personId, distance: 0.45 },
  ]);
  const placeWithheld = () =>
    placeShootPhoto(shoot.scope, withheld.facts, withheld.card, { opinion, opinionOf: () => opinion });
  if (withheldPlaced) await placeWithheld();
  const inGallery = ['--tenant', studio.slug, '--gallery', shoot.scope.token];
  return {
    studio,
    scope: shoot.scope,
    first: first!,
    forgotten: forgotten!,
    kept: kept!,
    withheld,
    placeWithheld,
    inGallery,
  };
}

/** The candidates the review shows for the withheld photo, and those stored on its item. */
export async function candidatesOf(scope: GalleryScope, photoId: string) {
  const reviewed = (await listPhotosForReview(scope, { limit: 200 })).photos.find((photo) => photo.photoId === photoId);
  const stored = (await listShootItems(scope)).find((item) => item.kind === 'photo' && item.photoId === photoId);
  return { review: reviewed?.candidates, stored: stored?.kind === 'photo' ? stored.candidates : 'missing' };
}
