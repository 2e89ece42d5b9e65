import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { describeReferenceFace } from '#lib/faces/reference-faces';
import { placementOpinions } from '#lib/faces/second-opinion';
import { getReferenceFace, listReferenceFaces } from '#lib/faces/store/reference-faces';
import { changeFaceMatching } from '#lib/faces/face-matching-switch';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { faceMatchingOf } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { inboxObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { listPhotos } from '#lib/photos/common/store/photos';
import { erasePersons } from '#lib/privacy/erasure';
import { augment, packagedFaces } from '../../../scripts/faces/packaged-faces';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { checkInWithSelfie, createFaceGallery, descriptorItems, placeWithFaces } from '../../support/face-galleries';
import { makeJpeg, uploadObject } from '../../support/media';
import { useTestTable } from '../../support/test-table';
import { keys } from '../../support/table-keys';

useTestTable();

/**
 * Biometrics only from the person (docs/photos.md#whose-face-the-selfie-shows): a reference face
 * described from a selfie has a say only once a photo that the person's own card governs shows
 * that face. Real faces through the real model: one man in several real photos (the participant),
 * and women cut from face-api's demo photos (the faces a participant might upload instead of their own).
 */

let studio: TestTenant;
let man: Buffer[];
/** A woman's face, and a recompressed copy of it (a second photo of her, 0.12 from the first). */
let woman: { face: Buffer; again: Buffer };
let otherWoman: { face: Buffer; again: Buffer };
/** A third woman's face, and a photo of her in which the model finds no face (her back turned: a pattern without one). */
let thirdWoman: { face: Buffer; faceless: Buffer };

beforeAll(async () => {
  studio = await createTestTenant();
  const packaged = await packagedFaces();
  const of = (identity: string) => packaged.filter((face) => face.identity === identity).map((face) => face.image);
  man = of('human-facematch-man');
  const withCopy = async (face: Buffer) => ({ face, again: await augment(face, 'jpeg-q40') });
  woman = await withCopy(of('face-api-sample1-person1')[0]!);
  otherWoman = await withCopy(of('face-api-sample3-person2')[0]!);
  const third = of('face-api-sample4-person1')[0]!;
  thirdWoman = { face: third, faceless: makeJpeg(640, 480) };
}, 120_000);

async function shootPhoto(scope: GalleryScope, photoId: string) {
  return (await listShootItems(scope)).find((item) => item.kind === 'photo' && item.photoId === photoId);
}

/** Every item of the gallery's reference-face partition: faces and the marks of rejected selfies. */
async function faceItemsOf(scope: GalleryScope) {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.referenceFacesOfGallery(scope.tenantId, scope.token) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

describe("a participant who uploads someone else's face as their selfie, with face consent", () => {
  it.each([
    ['one after the other', false],
    ['at once (the later of the two sees both contradictions)', true],
  ])(
    "has no photo of that person filled in, their own card photos delivered, and the stranger's template deleted and never described again: portraits placed %s",
    async (_, together) => {
      // Prepare: a gallery that fills in; the man checks in with a woman's face as his selfie
      const scope = await createFaceGallery(studio.tenant, 'fill');
      const participant = await checkInWithSelfie(studio.tenant, scope, 'participant', true, woman.face);
      expect(await describeReferenceFace(scope, participant.personId)).toBe('stored');

      // Act: the woman photographed before the first card; the man's card and two portraits of him; the woman again
      const before = await placeWithFaces(scope, 1, { kind: 'photo' }, woman.again);
      await placeWithFaces(scope, 2, { kind: 'card', code: participant.code }, man[0]!);
      const portraits = together
        ? await Promise.all([
            placeWithFaces(scope, 3, { kind: 'photo' }, man[1]!),
            placeWithFaces(scope, 4, { kind: 'photo' }, man[2]!),
          ])
        : [
            await placeWithFaces(scope, 3, { kind: 'photo' }, man[1]!),
            await placeWithFaces(scope, 4, { kind: 'photo' }, man[2]!),
          ];
      const after = await placeWithFaces(scope, 5, { kind: 'photo' }, woman.again);

      // Assess: the woman's photo before the first card is nobody's (a fill-in would have given it to him), without candidates
      const unassigned = await shootPhoto(scope, before.photoId);
      expect(unassigned).toMatchObject({ reason: 'before_first_card' });
      expect(unassigned).not.toHaveProperty('personId');
      expect(unassigned).not.toHaveProperty('candidates');
      // His own portraits are his, not withheld; so is the woman's photo after his card, by the card alone, as for anyone without a reference face
      expect(portraits.map(({ placement }) => placement)).toEqual([
        { kind: 'photo', personId: participant.personId },
        { kind: 'photo', personId: participant.personId },
      ]);
      const delivered = (await listPhotos(scope, participant.personId)).map((photo) => photo.photoId).sort();
      expect(delivered).toEqual([...portraits.map(({ photoId }) => photoId), after.photoId].sort());
      expect((await getGalleryConfiguration(scope.tenantId, scope.token))!.counters.photosWithheld).toBe(0);
      // The woman's template is gone, and her selfie is not described again, even when matching is switched off and on
      expect(await getReferenceFace(scope, participant.personId)).toBeUndefined();
      expect(await descriptorItems(scope)).toEqual([]);
      expect(await describeReferenceFace(scope, participant.personId)).toBe('not_their_face');
      await changeFaceMatching(scope, { mode: 'off' });
      expect(await changeFaceMatching(scope, { mode: 'fill' })).toEqual({
        described: { not_their_face: 1 },
        deleted: 0,
      });
      expect(await descriptorItems(scope)).toEqual([]);
      // The mark holds no face, names the two portraits, and goes with the person
      const marks = await faceItemsOf(scope);
      expect(marks.map((item) => [item.personId, [...(item.rejectedBy as string[])].sort()])).toEqual([
        [participant.personId, portraits.map(({ photoId }) => photoId).sort()],
      ]);
      await erasePersons(scope, { personId: participant.personId });
      expect(await faceItemsOf(scope)).toEqual([]);
    },
    120_000,
  );

  it('keeps a reference face that only one photo after the card contradicts (the next person after a missed card comes last)', async () => {
    // Prepare
    const scope = await createFaceGallery(studio.tenant, 'withhold');
    const participant = await checkInWithSelfie(studio.tenant, scope, 'participant', true, thirdWoman.face);
    expect(await describeReferenceFace(scope, participant.personId)).toBe('stored');
    // Act: her card, a photo of her in which the model finds no face, then the man twice (a missed card)
    await placeWithFaces(scope, 1, { kind: 'card', code: participant.code }, man[0]!);
    await placeWithFaces(scope, 2, { kind: 'photo' }, thirdWoman.faceless);
    await placeWithFaces(scope, 3, { kind: 'photo' }, man[1]!);
    await placeWithFaces(scope, 4, { kind: 'photo' }, man[2]!);
    // Assess: the first two photos after her card do not both contradict her selfie, so it stays, unconfirmed
    expect(await getReferenceFace(scope, participant.personId)).toMatchObject({ personId: participant.personId });
    expect((await getReferenceFace(scope, participant.personId))?.confirmed).toBeUndefined();
  }, 120_000);
});

describe('a reference face confirmed by a photo of the person’s own card', () => {
  it('fills in and withholds only once confirmed, and only confirmed faces are candidates', async () => {
    // Prepare: two participants with their own faces; neither is confirmed yet
    const scope = await createFaceGallery(studio.tenant, 'fill');
    const first = await checkInWithSelfie(studio.tenant, scope, 'first', true, woman.face);
    const second = await checkInWithSelfie(studio.tenant, scope, 'second', true, otherWoman.face);
    for (const person of [first, second]) expect(await describeReferenceFace(scope, person.personId)).toBe('stored');

    // Act and assess: before any card, a photo of the first is not filled in
    const early = await placeWithFaces(scope, 1, { kind: 'photo' }, woman.again);
    expect(early.placement).toEqual({ kind: 'photo', personId: null, reason: 'before_first_card' });
    // Her card and a portrait of her confirm her face; the portrait is hers, with her face's box
    await placeWithFaces(scope, 2, { kind: 'card', code: first.code }, man[0]!);
    const confirming = await placeWithFaces(scope, 3, { kind: 'photo' }, woman.again);
    expect(confirming.placement).toEqual({ kind: 'photo', personId: first.personId });
    expect(await getReferenceFace(scope, first.personId)).toMatchObject({ confirmed: true });
    expect((await listPhotos(scope, first.personId))[0]?.faceBox).toBeDefined();
    // The second woman after the first one's card (a missed card): withheld now, and the second,
    // unconfirmed, is no candidate, though hers is the face in the photo
    const missed = await placeWithFaces(scope, 4, { kind: 'photo' }, otherWoman.again);
    expect(missed.placement).toMatchObject({ kind: 'photo', personId: null, heldFor: first.personId });
    const withheld = await shootPhoto(scope, missed.photoId);
    expect(withheld).toMatchObject({ reason: expect.stringMatching(/^face_(mismatch|uncertain)$/) });
    expect(withheld?.kind === 'photo' && withheld.candidates?.map((each) => each.personId)).toEqual([first.personId]);
    // A later photo of the first woman on a camera without a card: filled in for her, now confirmed
    const objectKey = inboxObjectKey({ ...scope, path: 'other/IMG_0001.JPG' });
    await uploadObject(objectKey, woman.face);
    const settings = faceMatchingOf((await getGalleryConfiguration(scope.tenantId, scope.token))!.gallery);
    const filled = await placeShootPhoto(
      scope,
      {
        photoId: photoIdOf(objectKey),
        objectKey,
        path: 'other/IMG_0001.JPG',
        fileName: 'IMG_0001.JPG',
        camera: 'Nikon Z9 #3002',
        capturedAt: '2027-05-03T11:00:00.000Z',
        width: 1,
        height: 1,
        uploadedAt: '2027-05-03T12:00:00.000Z',
      },
      { kind: 'photo' },
      placementOpinions(scope, settings, { objectKey, bytes: woman.face }),
    );
    expect(filled).toEqual({ kind: 'photo', personId: first.personId });
    expect((await listReferenceFaces(scope)).map((face) => [face.personId, face.confirmed ?? false]).sort()).toEqual(
      [
        [first.personId, true],
        [second.personId, false],
      ].sort(),
    );
  }, 120_000);
});
