import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { createGallery } from '#lib/galleries/store/galleries';
import { getPerson } from '#lib/persons/store/persons';
import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { photoCdnPath, signPhotoUrls } from '#lib/photos/access/adapters/photo-url-signer';
import { personPhotoPrefix, photoObjectKey, selfieObjectKey } from '#lib/platform/media-keys';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { listObjectVersions, mediaS3 } from '#lib/platform/media-bucket';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';

const api = useLocalApi();

async function importOne(studio: TestTenant, name: string): Promise<string> {
  const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: { persons: [{ name }] },
  });
  return answer.body.persons[0].personId;
}

/** Uploads a photo under the person's prefix and delivers S3's notification to the ingest function. */
async function deliverPhoto(studio: TestTenant, personId: string, fileName: string, jpeg: Buffer, metadata = {}) {
  const key = photoObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, personId, fileName });
  await uploadObject(key, jpeg, metadata);
  await ingestPhoto(objectCreatedEvent(key, new Date(Date.now()).toISOString()));
  return key;
}

describe.each([0, 1])('GET persons/{personId}/photos, path variant %i', (variant) => {
  let studio: TestTenant;
  let personId: string;
  const jpeg = makeJpeg(64, 48);
  const path = (token: string, id: string) =>
    [`/group-shoot/checkin/${token}/persons/${id}/photos`, `/groupshoot/${token}/persons/${id}/photos`][variant]!;

  beforeAll(async () => {
    studio = await createTestTenant();
    personId = await importOne(studio, 'Photographed Person');
    await deliverPhoto(studio, personId, 'portrait 1.jpg', jpeg);
    await deliverPhoto(studio, personId, 'portrait-2.jpg', makeJpeg(16, 16), { width: '4000', height: '3000' });
  });

  it('lists the photos with file name, dimensions, creation time and a signed URL that serves the file', async () => {
    // Act
    const answer = await api.call(path(studio.token, personId), { headers: studio.serverHeaders });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      requestId: answer.headers.get('x-request-id'),
      galleryToken: studio.token,
      personId,
      urlsExpireAt: expect.any(String),
      pickedPhotoId: null,
      photos: [
        {
          photoId: expect.stringMatching(/^pho_[0-9a-f]{24}$/),
          fileName: 'portrait 1.jpg',
          width: 64,
          height: 48,
          capturedAt: null,
          createdAt: expect.any(String),
          url: expect.any(String),
          picked: false,
        },
        {
          photoId: expect.any(String),
          fileName: 'portrait-2.jpg',
          width: 4000,
          height: 3000,
          capturedAt: null,
          createdAt: expect.any(String),
          url: expect.any(String),
          picked: false,
        },
      ],
    });
    const url = new URL(answer.body.photos[0].url);
    expect([...url.searchParams.keys()].sort()).toEqual(['Expires', 'Key-Pair-Id', 'Signature']);
    expect(Number(url.searchParams.get('Expires')) * 1000).toBe(Date.parse(answer.body.urlsExpireAt));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('signs URLs that do not open with a tampered path or signature', async () => {
    const answer = await api.call(path(studio.token, personId), { headers: studio.serverHeaders });
    const [first, second] = answer.body.photos.map((photo: { url: string }) => new URL(photo.url));
    const swapped = new URL(first.toString());
    swapped.pathname = second.pathname;
    const forged = new URL(first.toString());
    forged.searchParams.set('Signature', `${forged.searchParams.get('Signature')!.slice(0, -4)}AAAA`);
    expect((await fetch(swapped)).status).toBe(403);
    expect((await fetch(forged)).status).toBe(403);
  });

  it('gives an empty list for a person without photos', async () => {
    const other = await importOne(studio, 'No photos');
    const answer = await api.call(path(studio.token, other), { headers: studio.serverHeaders });
    expect(answer.body.photos).toEqual([]);
  });

  it.each([
    ['an unknown person ID', () => 'per_00000000000000000000000000'],
    ['a malformed person ID', () => 'not-a-person'],
    ['a person of another gallery of the same tenant', () => 'OTHER_GALLERY'],
    ['a person of another tenant', () => 'OTHER_TENANT'],
  ])('gives 404 person_not_found for %s', async (_case, idOf) => {
    let id = idOf();
    if (id === 'OTHER_TENANT') id = await importOne(await createTestTenant(), 'Theirs');
    if (id === 'OTHER_GALLERY') {
      const sibling = await createGallery(studio.tenant.tenantId, {
        ...studio.gallery,
        galleryName: 'Sibling gallery',
      });
      id = await importOne({ ...studio, token: sibling.token }, 'Sibling');
    }
    const answer = await api.call(path(studio.token, id), { headers: studio.serverHeaders });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'person_not_found' }));
  });

  it('gives 404 gallery_not_found before looking at the person', async () => {
    const answer = await api.call(path('nope', personId), { headers: studio.serverHeaders });
    expect(answer.body.error).toBe('gallery_not_found');
  });
});

describe('photo ingest', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('records a redelivered event once, and counts the person and photos in the stats', async () => {
    const personId = await importOne(studio, 'Counted');
    const key = await deliverPhoto(studio, personId, 'a.jpg', makeJpeg(8, 8));
    await ingestPhoto(objectCreatedEvent(key));
    await deliverPhoto(studio, personId, 'b.jpg', makeJpeg(8, 8));

    const person = await getPerson({ tenantId: studio.tenant.tenantId, token: studio.token }, personId);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(person?.photoCount).toBe(2);
    expect(stats.body.photos).toEqual({ total: 2, unassigned: 0, withheld: 0, cards: 0 });
    expect(stats.body.persons.withPhotos).toBe(1);
  });

  it('ignores objects outside the photo layout, and leaves them where they are', async () => {
    await uploadObject('somewhere/else.jpg', makeJpeg(8, 8));
    await ingestPhoto(objectCreatedEvent('somewhere/else.jpg'));
    expect(await listObjectVersions('somewhere/else.jpg')).toEqual([{ key: 'somewhere/else.jpg' }]);
  });

  it('deletes on arrival a photo uploaded under the folder of a person who does not exist (an erased one), and records nothing', async () => {
    // Prepare
    const ghost = 'per_00000000000000000000000001';
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const beside = photoObjectKey({ ...scope, personId: ghost, fileName: 'ghost.jpg.keep' });
    await uploadObject(beside, makeJpeg(8, 8)); // no event: only the uploaded key may go
    // Act
    await deliverPhoto(studio, ghost, 'ghost.jpg', makeJpeg(8, 8));
    // Assess
    const answer = await api.call(`/groupshoot/${studio.token}/persons/${ghost}/photos`, {
      headers: studio.serverHeaders,
    });
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(await listObjectVersions(personPhotoPrefix({ ...scope, personId: ghost }))).toEqual([{ key: beside }]);
    expect(answer.body.error).toBe('person_not_found');
    expect(stats.body.photos.total).toBe(2); // only the two of the previous test
  });

  it('deletes exactly the version its event names, on a versioned bucket', async () => {
    // Prepare: the local S3 server keeps no versions, so the request is looked at, not sent
    const key = photoObjectKey({
      tenantId: studio.tenant.tenantId,
      token: studio.token,
      personId: 'per_00000000000000000000000002',
      fileName: 'late.jpg',
    });
    await uploadObject(key, makeJpeg(8, 8));
    const event = objectCreatedEvent(key);
    event.Records[0]!.s3.object.versionId = 'version-of-the-upload';
    const deletions: unknown[] = [];
    const s3 = mediaS3();
    const send = s3.send.bind(s3);
    const spy = jest.spyOn(s3, 'send').mockImplementation(((command: { input: unknown }) => {
      if (command instanceof DeleteObjectCommand) return Promise.resolve(deletions.push(command.input));
      return send(command as never);
    }) as never);
    // Act
    try {
      await ingestPhoto(event);
    } finally {
      spy.mockRestore();
    }
    // Assess
    expect(deletions).toEqual([{ Bucket: process.env.MEDIA_BUCKET, Key: key, VersionId: 'version-of-the-upload' }]);
  });

  it("keeps the objects of the photos it records, a person's second photo too (whose first try fails on the photo count)", async () => {
    const personId = await importOne(studio, 'Just imported');
    const keys = [
      await deliverPhoto(studio, personId, 'first.jpg', makeJpeg(8, 8)),
      await deliverPhoto(studio, personId, 'second.jpg', makeJpeg(8, 8)),
    ];
    expect(
      await listObjectVersions(personPhotoPrefix({ tenantId: studio.tenant.tenantId, token: studio.token, personId })),
    ).toEqual(keys.map((key) => ({ key })));
    expect((await getPerson({ tenantId: studio.tenant.tenantId, token: studio.token }, personId))?.photoCount).toBe(2);
  });
});

describe('photo URL signing failures', () => {
  let studio: TestTenant;
  let personId: string;
  beforeAll(async () => {
    studio = await createTestTenant();
    personId = await importOne(studio, 'Signed');
    await deliverPhoto(studio, personId, 'x.jpg', makeJpeg(8, 8));
  });

  it.each([
    ['no private key configured', undefined],
    ['a private key that is not a key', '-----BEGIN PRIVATE KEY-----\nbroken\n-----END PRIVATE KEY-----'],
  ])('gives 500 cdn_signing_unavailable with %s', async (_case, privateKey) => {
    const configured = process.env.CLOUDFRONT_PRIVATE_KEY;
    if (privateKey === undefined) delete process.env.CLOUDFRONT_PRIVATE_KEY;
    else process.env.CLOUDFRONT_PRIVATE_KEY = privateKey;
    try {
      const answer = await api.call(`/groupshoot/${studio.token}/persons/${personId}/photos`, {
        headers: studio.serverHeaders,
      });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual(
        expect.objectContaining({
          ok: false,
          error: 'cdn_signing_unavailable',
          requestId: answer.headers.get('x-request-id'),
        }),
      );
    } finally {
      process.env.CLOUDFRONT_PRIVATE_KEY = configured;
    }
  });
});

describe('the photo CDN serves the photos/ folder only', () => {
  let studio: TestTenant;
  let personId: string;
  let photoKey: string;
  const jpeg = makeJpeg(8, 8);
  beforeAll(async () => {
    studio = await createTestTenant();
    personId = await importOne(studio, 'Mapped');
    photoKey = await deliverPhoto(studio, personId, 'mapped.jpg', jpeg);
    await uploadObject(selfieObjectKey(studio.tenant.tenantId, studio.token, personId), jpeg);
  });

  /** A URL of the CDN for this path, signed as the API signs photo URLs. */
  const signed = (path: string) =>
    getSignedUrl({
      url: `${process.env.PHOTO_CDN_URL}${path}`,
      keyPairId: process.env.CLOUDFRONT_KEY_PAIR_ID!,
      privateKey: process.env.CLOUDFRONT_PRIVATE_KEY!,
      dateLessThan: new Date(Date.now() + 60_000).toISOString(),
    });

  it('names a photo by its key below photos/, as the distribution with origin path /photos serves it', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/persons/${personId}/photos`, {
      headers: studio.serverHeaders,
    });
    const url = new URL(answer.body.photos[0].url);
    expect(url.pathname).toBe(
      `${new URL(process.env.PHOTO_CDN_URL!).pathname}/${photoKey.slice('photos/'.length).split('/').map(encodeURIComponent).join('/')}`,
    );
    expect((await fetch(url)).status).toBe(200);
  });

  it("serves no selfie, even on a validly signed URL for the selfie's key", async () => {
    const selfieKey = selfieObjectKey(studio.tenant.tenantId, studio.token, personId);
    const [asWholeBucket, stepOut] = [
      signed(`/${selfieKey}`),
      signed(`/x%2F..%2F..%2F${selfieKey.split('/').join('%2F')}`),
    ];
    expect([(await fetch(asWholeBucket)).status, (await fetch(stepOut)).status]).toEqual([404, 404]);
    expect((await fetch(signed(photoCdnPath(photoKey)!))).status).toBe(200);
  });

  it('signs no URL for an object outside photos/', async () => {
    expect(photoCdnPath(selfieObjectKey(studio.tenant.tenantId, studio.token, personId))).toBeUndefined();
    await expect(
      signPhotoUrls([selfieObjectKey(studio.tenant.tenantId, studio.token, personId)], Date.now() + 60_000),
    ).rejects.toMatchObject({
      reason: 'photo_signing_unavailable',
    });
  });
});
