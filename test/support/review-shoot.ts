import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import type { FaceOpinion } from '#lib/faces/second-opinion';
import type { TestTenant } from './factories';
import { storeConfirmedReferenceFace } from './face-galleries';
import { makeJpeg, uploadObject } from './media';
import { type Upload, newShoot, syntheticShoot } from './shoot-uploads';

/** A second opinion that finds someone else's face in the photos a card gives to a person, and fills nothing in. */
function someoneElsesFace(personId: string): FaceOpinion {
  const opinion: Pick<FaceOpinion, 'onCard' | 'withoutCard'> = {
    onCard: async () => ({
      kind: 'withhold',
      reason: 'face_mismatch',
      distance: 0.74,
      candidates: [{ personId, distance: 0.31 }],
    }),
    withoutCard: async () => undefined,
  };
  return opinion as FaceOpinion;
}

/**
 * A sorted synthetic shoot of two persons (syntheticShoot) with a review queue of eleven: the
 * first photo after the first person's card withheld by the faces (which see the second person,
 * at 0.31, whose confirmed reference face is planted), and ten photos of nobody. Only the withheld photo has an image in the bucket
 * (1200×800), unless `images` asks for every file's, cards included.
 */
export async function reviewShoot(tenant: TestTenant, options: { images?: 'withheld' | 'all' } = {}) {
  const shoot = await newShoot(tenant, 2);
  const uploads: Upload[] = syntheticShoot(shoot.scope, shoot.persons);
  const card = uploads.findIndex(
    (upload) => upload.card.kind === 'card' && upload.card.code === shoot.persons[0]!.code,
  );
  const withheld = uploads[card + 1]!;
  for (const upload of uploads.filter((upload) => upload !== withheld))
    await placeShootPhoto(shoot.scope, upload.facts, upload.card);
  await storeConfirmedReferenceFace(shoot.scope, shoot.persons[1]!.personId);
  const opinion = someoneElsesFace(shoot.persons[1]!.personId);
  await placeShootPhoto(shoot.scope, withheld.facts, withheld.card, { opinion, opinionOf: () => opinion });
  const image = makeJpeg(1200, 800);
  for (const upload of options.images === 'all' ? uploads : [withheld])
    await uploadObject(upload.facts.objectKey, image);
  return { shoot, uploads, withheld };
}
