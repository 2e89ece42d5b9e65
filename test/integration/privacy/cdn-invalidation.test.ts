import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { inboxObjectKey, photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import type { CardReading } from '#lib/photos/sorting/rules/shoot-sequence';
import { DEFAULT_RETENTION } from '#lib/galleries/rules/retention-policy';
import { erasePersons } from '#lib/privacy/erasure';
import { applyGalleryRetention, emptyRetentionTally } from '#lib/privacy/retention';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { createTestTenant } from '../../support/factories';
import { newShoot } from '../../support/shoot-uploads';
import { type CloudFrontEmulator, startCloudFrontEmulator } from '../../support/cloudfront-emulator';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';

const api = useLocalApi();
const DISTRIBUTION_ID = 'EPHOTOCDNTEST1';
let cloudFront: CloudFrontEmulator;

beforeAll(async () => {
  cloudFront = await startCloudFrontEmulator();
  process.env.PHOTO_CDN_DISTRIBUTION_ID = DISTRIBUTION_ID;
  process.env.CLOUDFRONT_ENDPOINT = cloudFront.endpoint;
});

afterAll(async () => {
  delete process.env.PHOTO_CDN_DISTRIBUTION_ID;
  delete process.env.CLOUDFRONT_ENDPOINT;
  await cloudFront.close();
});

beforeEach(() => {
  cloudFront.invalidations.length = 0;
});

/** A free participant of the studio's gallery, with `photos` photos in their folder. */
async function participantWithPhotos(studio: CheckinStudio, name: string, photos: number) {
  const answer = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: studio.validBody({ name }),
  });
  expect(answer.status).toBe(200);
  const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
  const personId: string = answer.body.personId;
  for (let index = 0; index < photos; index += 1) {
    const key = photoObjectKey({ ...scope, personId, fileName: `photo-${index}.jpg` });
    await uploadObject(key, makeJpeg(32, 24));
    await ingestPhoto(objectCreatedEvent(key));
  }
  return { scope, personId };
}

describe('the photo CDN forgets erased photos', () => {
  it("invalidates an erased person's photo folder, in one request to the configured distribution", async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const { scope, personId } = await participantWithPhotos(studio, 'Carla Cached', 2);
    await participantWithPhotos(studio, 'Kurt Kept', 1);
    // Act
    await erasePersons(scope, { personId });
    // Assess
    expect(cloudFront.invalidations).toEqual([
      {
        distributionId: DISTRIBUTION_ID,
        callerReference: expect.any(String),
        paths: [`/${scope.tenantId}/${scope.token}/${personId}/*`],
      },
    ]);
  });

  it("invalidates the exact inbox paths of a person's sorted shoot photos and card, not the others'", async () => {
    // Prepare: card A, a photo, card B, a photo, uploaded to the gallery's inbox and sorted
    const { scope, persons } = await newShoot(await createTestTenant(), 2);
    const [first, second] = persons as [{ personId: string; code: string }, { personId: string; code: string }];
    const sequence: [number, CardReading][] = [
      [1, { kind: 'card', code: first.code }],
      [2, { kind: 'photo' }],
      [3, { kind: 'card', code: second.code }],
      [4, { kind: 'photo' }],
    ];
    for (const [second, card] of sequence) {
      const path = `shoot/IMG_000${second}.JPG`;
      const objectKey = inboxObjectKey({ ...scope, path });
      await uploadObject(objectKey, makeJpeg(8, 8));
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
      await placeShootPhoto(scope, facts, card);
    }
    // Act
    await erasePersons(scope, { personId: first.personId });
    // Assess
    const inbox = `/${scope.tenantId}/${scope.token}/inbox/shoot`;
    expect(cloudFront.invalidations.map((invalidation) => invalidation.paths.sort())).toEqual([
      [`${inbox}/IMG_0001.JPG`, `${inbox}/IMG_0002.JPG`],
    ]);
  });

  it('sends nothing for an erasure that deleted no photo, nor for a dry run', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const withPhotos = await participantWithPhotos(studio, 'Dora Dry', 1);
    const without = await participantWithPhotos(studio, 'Nina Nophoto', 0);
    // Act
    await erasePersons(withPhotos.scope, { personId: withPhotos.personId }, { dryRun: true });
    await erasePersons(without.scope, { personId: without.personId });
    // Assess
    expect(cloudFront.invalidations).toEqual([]);
  });

  it("invalidates the whole gallery with one wildcard when retention erases its participants, after waiting out CloudFront's busy answer", async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const { scope } = await participantWithPhotos(studio, 'Greta Gallery', 1);
    await participantWithPhotos(studio, 'Gustav Gallery', 1);
    cloudFront.refuseNext(1);
    // Act
    const tally = emptyRetentionTally();
    await applyGalleryRetention(
      scope,
      Date.parse('2027-05-03T00:00:00Z') + (DEFAULT_RETENTION.personDays + 1) * 86_400_000,
      tally,
    );
    // Assess
    expect(tally.personsErased).toBe(2);
    expect(cloudFront.invalidations.map((invalidation) => invalidation.paths)).toEqual([
      [`/${scope.tenantId}/${scope.token}/*`],
    ]);
  });
});
