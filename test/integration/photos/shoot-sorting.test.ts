import { HeadObjectCommand } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { getPerson } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/common/store/photos';
import { applyGovernor } from '#lib/photos/sorting/assign-shoot-photo';
import { type ShootPhotoFacts, listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { inboxObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { type CardReading, sequencePosition } from '#lib/photos/sorting/rules/shoot-sequence';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { assignShootPhotoByHand, listPhotosForReview } from '#lib/photos/sorting/shoot-review';
import { erasePersons } from '#lib/privacy/erasure';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { type Upload, expectedOwners, newShoot, syntheticShoot } from '../../support/shoot-uploads';
import { makeJpeg, testS3, uploadObject } from '../../support/media';
import { expectedShootIndex, storedShootIndex } from '../../support/shoot-index';
import { useTestTable } from '../../support/test-table';

useTestTable();

describe('sorting a shoot by its camera cards', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('assigns every photo to the person of the card before it, whatever the order and however often uploads arrive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 6 }),
        async (seed, parallel) => {
          // Prepare: a shoot, delivered shuffled, a fifth of it twice, `parallel` placements at a time
          const { scope, persons, personOfCode } = await newShoot(studio, 6);
          const uploads = syntheticShoot(scope, persons);
          const random = fc.sample(
            fc.shuffledSubarray(uploads, { minLength: uploads.length, maxLength: uploads.length }),
            { seed, numRuns: 1 },
          )[0]!;
          const deliveries = [...random, ...random.filter((_, index) => index % 5 === 0)];
          // Act
          for (let start = 0; start < deliveries.length; start += parallel) {
            await Promise.all(
              deliveries
                .slice(start, start + parallel)
                .map((upload) => placeShootPhoto(scope, upload.facts, upload.card)),
            );
          }
          // Assess: each photo's owner, each person's photos, and the statistics
          const expected = expectedOwners(uploads, personOfCode);
          const items = await listShootItems(scope);
          const photoItems = items.filter((item) => item.kind === 'photo');
          expect(
            Object.fromEntries(
              photoItems.map((item) => [item.photoId, (item as { personId?: string }).personId ?? null]),
            ),
          ).toEqual(Object.fromEntries(expected));
          for (const person of persons) {
            const owned = [...expected].filter(([, owner]) => owner === person.personId).map(([photoId]) => photoId);
            expect((await listPhotos(scope, person.personId)).map((photo) => photo.photoId).sort()).toEqual(
              owned.sort(),
            );
            expect((await getPerson(scope, person.personId))?.photoCount).toBe(owned.length);
          }
          const counters = (await getGalleryConfiguration(scope.tenantId, scope.token))!.counters;
          const assigned = [...expected.values()].filter((owner) => owner !== null).length;
          expect(counters).toMatchObject({
            photos: assigned,
            personsWithPhotos: persons.length,
            photosUnassigned: expected.size - assigned,
            cardPhotos: uploads.filter((upload) => upload.card.kind !== 'photo').length,
          });
          expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('gives each unassigned photo its reason and never delivers a card', async () => {
    // Prepare
    const { scope, persons } = await newShoot(studio, 2);
    const uploads = syntheticShoot(scope, persons);
    // Act: in capture order
    for (const upload of uploads) await placeShootPhoto(scope, upload.facts, upload.card);
    // Assess
    const items = await listShootItems(scope);
    const reasons = items
      .filter((item) => item.kind === 'photo' && !('personId' in item && item.personId))
      .map((item) => (item as { reason?: string }).reason);
    expect(reasons.sort()).toEqual([
      'before_first_card',
      'before_first_card',
      'before_first_card',
      'before_first_card',
      'no_capture_time',
      'no_capture_time',
      'unknown_code',
      'unknown_code',
      'unknown_code',
      'unknown_code',
    ]);
    const cardIds = new Set(items.filter((item) => item.kind === 'card').map((item) => item.photoId));
    const delivered = (await Promise.all(persons.map((person) => listPhotos(scope, person.personId)))).flat();
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.filter((photo) => cardIds.has(photo.photoId))).toEqual([]);
  });

  it('moves the photos after a late card from the earlier card’s person to its own', async () => {
    // Prepare: card A, four photos; the card of B between the second and third arrives last
    const { scope, persons } = await newShoot(studio, 2);
    const [first, second] = persons as [{ personId: string; code: string }, { personId: string; code: string }];
    const camera = 'Sony A7 IV #42';
    const upload = (index: number, card: CardReading): Upload => {
      const path = `card-test/DSC0${index}.JPG`;
      const objectKey = inboxObjectKey({ ...scope, path });
      return {
        facts: {
          photoId: photoIdOf(objectKey),
          objectKey,
          path,
          fileName: `DSC0${index}.JPG`,
          camera,
          capturedAt: `2026-11-20T09:00:0${index}.000Z`,
          width: 10,
          height: 10,
          uploadedAt: '2026-11-20T12:00:00.000Z',
        },
        card,
      };
    };
    const uploads = [
      upload(1, { kind: 'card', code: first.code }),
      upload(2, { kind: 'photo' }),
      upload(3, { kind: 'photo' }),
      upload(5, { kind: 'photo' }),
      upload(6, { kind: 'photo' }),
    ];
    for (const each of uploads) await placeShootPhoto(scope, each.facts, each.card);
    expect((await listPhotos(scope, first.personId)).length).toBe(4);
    // Act
    const placement = await placeShootPhoto(scope, upload(4, { kind: 'card', code: second.code }).facts, {
      kind: 'card',
      code: second.code,
    });
    // Assess
    expect(placement).toEqual({ kind: 'card', code: second.code, personId: second.personId });
    expect((await listPhotos(scope, first.personId)).map((photo) => photo.fileName)).toEqual([
      'DSC02.JPG',
      'DSC03.JPG',
    ]);
    expect((await listPhotos(scope, second.personId)).map((photo) => photo.fileName).sort()).toEqual([
      'DSC05.JPG',
      'DSC06.JPG',
    ]);
    expect([
      (await getPerson(scope, first.personId))?.photoCount,
      (await getPerson(scope, second.personId))?.photoCount,
    ]).toEqual([2, 2]);
  });
});

describe('placements that race', () => {
  it('keeps the later card when a placement that read an older card applies it afterwards', async () => {
    // Prepare: card A, card B, then a photo (B's); a slow placement still holding card A applies it now
    const studio = await createTestTenant();
    const { scope, persons } = await newShoot(studio, 2);
    const [first, second] = persons as [{ personId: string; code: string }, { personId: string; code: string }];
    const facts = (index: number): ShootPhotoFacts => {
      const path = `race/IMG_000${index}.JPG`;
      const objectKey = inboxObjectKey({ ...scope, path });
      return {
        photoId: photoIdOf(objectKey),
        objectKey,
        path,
        fileName: `IMG_000${index}.JPG`,
        camera: 'Fuji X-T5',
        capturedAt: `2026-11-20T09:00:0${index}.000Z`,
        width: 1,
        height: 1,
        uploadedAt: '2026-11-20T12:00:00.000Z',
      };
    };
    const cardA = facts(1);
    await placeShootPhoto(scope, cardA, { kind: 'card', code: first.code });
    await placeShootPhoto(scope, facts(2), { kind: 'card', code: second.code });
    await placeShootPhoto(scope, facts(3), { kind: 'photo' });
    const photo = (await listShootItems(scope)).find(
      (item) => item.kind === 'photo' && item.photoId === facts(3).photoId,
    )!;
    // Act
    const outcome = await applyGovernor(
      scope,
      { pk: photo.pk, sk: photo.sk },
      { position: sequencePosition(cardA.capturedAt!, cardA.fileName, cardA.photoId) },
      { personId: first.personId },
    );
    // Assess
    expect(outcome).toMatchObject({ outcome: 'superseded', state: { personId: second.personId } });
    expect((await listPhotos(scope, second.personId)).map((each) => each.photoId)).toEqual([facts(3).photoId]);
    expect(await listPhotos(scope, first.personId)).toEqual([]);
  });

  it('keeps a photo assigned by hand whatever card arrives later', async () => {
    // Prepare: a photo before any card, assigned by hand to B; then A's card arrives, before it
    const studio = await createTestTenant();
    const { scope, persons } = await newShoot(studio, 2);
    const [first, second] = persons as [{ personId: string; code: string }, { personId: string; code: string }];
    const path = (name: string) => `hand/${name}`;
    const facts = (name: string, second: number): ShootPhotoFacts => {
      const objectKey = inboxObjectKey({ ...scope, path: path(name) });
      return {
        photoId: photoIdOf(objectKey),
        objectKey,
        path: path(name),
        fileName: name,
        camera: null,
        capturedAt: `2026-11-20T09:00:0${second}.000Z`,
        width: 1,
        height: 1,
        uploadedAt: '2026-11-20T12:00:00.000Z',
      };
    };
    const photo = facts('B.JPG', 5);
    await placeShootPhoto(scope, photo, { kind: 'photo' });
    expect((await listPhotosForReview(scope)).photos.map((each) => [each.photoId, each.reason])).toEqual([
      [photo.photoId, 'before_first_card'],
    ]);
    expect(await assignShootPhotoByHand(scope, photo.photoId, second.personId)).toBe('assigned');
    // Act
    await placeShootPhoto(scope, facts('A.JPG', 1), { kind: 'card', code: first.code });
    // Assess
    expect((await listPhotos(scope, second.personId)).map((each) => each.photoId)).toEqual([photo.photoId]);
    expect(await listPhotos(scope, first.personId)).toEqual([]);
    expect((await listPhotosForReview(scope)).photos).toEqual([]);
    expect((await getGalleryConfiguration(scope.tenantId, scope.token))!.counters).toMatchObject({
      photos: 1,
      photosUnassigned: 0,
      cardPhotos: 1,
    });
  });
});

describe('erasing a person of a sorted shoot', () => {
  it('removes their sorted photos and the card showing their code, objects included, and leaves the others', async () => {
    // Prepare: card A, a photo, card B, a photo, each uploaded to the inbox
    const studio = await createTestTenant();
    const { scope, persons } = await newShoot(studio, 2);
    const [first, second] = persons as [{ personId: string; code: string }, { personId: string; code: string }];
    const uploads: Upload[] = (
      [
        [1, { kind: 'card', code: first.code }],
        [2, { kind: 'photo' }],
        [3, { kind: 'card', code: second.code }],
        [4, { kind: 'photo' }],
      ] as const
    ).map(([second, card]) => {
      const path = `erase/IMG_000${second}.JPG`;
      const objectKey = inboxObjectKey({ ...scope, path });
      const facts = {
        photoId: photoIdOf(objectKey),
        objectKey,
        path,
        fileName: `IMG_000${second}.JPG`,
        camera: null,
        capturedAt: `2026-11-20T09:00:0${second}.000Z`,
        width: 8,
        height: 8,
        uploadedAt: '2026-11-20T12:00:00.000Z',
      };
      return { facts, card };
    });
    for (const upload of uploads) {
      await uploadObject(upload.facts.objectKey, makeJpeg(8, 8));
      await placeShootPhoto(scope, upload.facts, upload.card);
    }
    // Act
    const receipt = await erasePersons(scope, { personId: first.personId });
    // Assess
    expect(receipt).toMatchObject({
      persons: [first.personId],
      photoRecords: 1,
      shootItems: 2,
      photoObjectVersions: 2,
    });
    const remaining = await listShootItems(scope);
    expect(remaining.flatMap((item) => (item.kind === 'erased_card' ? [] : [item.path])).sort()).toEqual([
      'erase/IMG_0003.JPG',
      'erase/IMG_0004.JPG',
    ]);
    // A's card stays as its position in the sequence, without anything else.
    const erasedCard = remaining.find((item) => item.kind === 'erased_card')!;
    expect(Object.keys(erasedCard).sort()).toEqual(['erasedAt', 'kind', 'pk', 'sk']);
    expect(erasedCard.sk).toContain(uploads[0]!.facts.photoId);
    expect(await objectExists(uploads[0]!.facts.objectKey)).toBe(false);
    expect(await objectExists(uploads[1]!.facts.objectKey)).toBe(false);
    expect(await objectExists(uploads[3]!.facts.objectKey)).toBe(true);
    expect((await listPhotos(scope, second.personId)).length).toBe(1);
    expect((await getGalleryConfiguration(scope.tenantId, scope.token))!.counters).toMatchObject({
      photos: 1,
      personsWithPhotos: 1,
      cardPhotos: 1,
      photosUnassigned: 0,
    });
  });
});

async function objectExists(key: string): Promise<boolean> {
  return testS3.send(new HeadObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key })).then(
    () => true,
    () => false,
  );
}
