import { HeadObjectCommand } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { getPerson } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/common/store/photos';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { THUMBNAIL_SIZE, storeShootThumbnail } from '#lib/photos/sorting/adapters/shoot-thumbnails';
import { thumbnailKey } from '#lib/platform/media-keys';
import { erasePersons } from '#lib/privacy/erasure';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg, testS3, uploadObject } from '../../support/media';
import { type Upload, expectedOwners, newShoot, syntheticShoot } from '../../support/shoot-uploads';
import { expectedShootIndex, storedShootIndex } from '../../support/shoot-index';
import { useTestTable } from '../../support/test-table';

useTestTable();

async function objectExists(key: string): Promise<boolean> {
  try {
    await testS3.send(new HeadObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

const tinyJpeg = makeJpeg(8, 8);

/** An upload as the photographer's tools make it: the object, then its placement (the S3 event). */
async function deliver(scope: { tenantId: string; token: string }, upload: Upload): Promise<void> {
  await uploadObject(upload.facts.objectKey, tinyJpeg);
  // As ingest does: the thumbnail first, then the placement.
  await storeShootThumbnail(upload.facts.objectKey, tinyJpeg);
  await placeShootPhoto(scope, upload.facts, upload.card);
}

describe('erasing a person in the middle of a shoot', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('leaves the erased person nothing, gives nobody else their photos, and deletes every one of them, whenever it happens', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (seed, parallel, erasedIndex, erasedAt) => {
          // Prepare: a shoot delivered shuffled, a fifth of it twice, and after the erasure the
          // whole folder once more (a re-run of `photos upload`, which uploads the erased card and photos again)
          const { scope, persons, personOfCode } = await newShoot(studio, 6);
          const uploads = syntheticShoot(scope, persons);
          const random = fc.sample(
            fc.shuffledSubarray(uploads, { minLength: uploads.length, maxLength: uploads.length }),
            { seed, numRuns: 1 },
          )[0]!;
          const deliveries = [...random, ...random.filter((_, index) => index % 5 === 0)];
          const erased = persons[erasedIndex]!;
          const erasureBatch = Math.floor(erasedAt * Math.ceil(deliveries.length / parallel));
          // Act: the erasure runs alongside one batch of placements
          let batch = 0;
          for (let start = 0; start < deliveries.length; start += parallel, batch += 1) {
            const placements = deliveries.slice(start, start + parallel).map((upload) => deliver(scope, upload));
            await Promise.all(
              batch === erasureBatch ? [...placements, erasePersons(scope, { personId: erased.personId })] : placements,
            );
          }
          if (erasureBatch >= batch) await erasePersons(scope, { personId: erased.personId });
          for (const upload of uploads) await deliver(scope, upload);
          // Assess
          const owners = expectedOwners(uploads, personOfCode);
          const erasedPhotos = new Set(
            [...owners].filter(([, owner]) => owner === erased.personId).map(([photoId]) => photoId),
          );
          const erasedCard = uploads.find((upload) => upload.card.kind === 'card' && upload.card.code === erased.code)!;
          expect(await getPerson(scope, erased.personId)).toBeUndefined();
          expect(await listPhotos(scope, erased.personId)).toEqual([]);
          for (const person of persons.filter((each) => each !== erased)) {
            const theirs = (await listPhotos(scope, person.personId)).map((photo) => photo.photoId);
            expect(theirs.filter((photoId) => owners.get(photoId) !== person.personId)).toEqual([]);
          }
          const items = await listShootItems(scope);
          const remaining = new Set(items.flatMap((item) => (item.kind === 'erased_card' ? [] : [item.photoId])));
          expect([...erasedPhotos, erasedCard.facts.photoId].filter((photoId) => remaining.has(photoId))).toEqual([]);
          expect(
            items.filter(
              (item) =>
                item.kind === 'photo' && (item.heldFor === erased.personId || item.personId === erased.personId),
            ),
          ).toEqual([]);
          const erasedObjects = uploads
            .filter((upload) => erasedPhotos.has(upload.facts.photoId) || upload === erasedCard)
            .map((upload) => upload.facts.objectKey);
          expect((await Promise.all(erasedObjects.map(objectExists))).filter(Boolean)).toEqual([]);
          // The persons' shoot index is the shoot's, and holds nothing of the erased person
          const index = await storedShootIndex(scope);
          expect(index).toEqual(await expectedShootIndex(scope));
          expect(index.filter((line) => line.includes(erased.personId))).toEqual([]);
          const erasedThumbnails = erasedObjects.map((key) => thumbnailKey(key, THUMBNAIL_SIZE));
          expect((await Promise.all(erasedThumbnails.map(objectExists))).filter(Boolean)).toEqual([]);
          const counters = (await getGalleryConfiguration(scope.tenantId, scope.token))!.counters;
          const delivered = items.filter((item) => item.kind === 'photo' && item.personId).length;
          expect(counters).toMatchObject({
            photos: delivered,
            photosUnassigned: items.filter((item) => item.kind === 'photo' && !item.personId).length,
            cardPhotos: items.filter((item) => item.kind === 'card').length,
          });
        },
      ),
      { numRuns: 6 },
    );
  }, 180_000);
});
