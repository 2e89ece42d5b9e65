import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { ingestPhotoObject } from '#lib/photos/sorting/ingest-photo';
import { MAX_PHOTO_OBJECT_BYTES } from '#lib/photos/common/rules/photo-limits';
import { logger } from '#lib/platform/logger';
import { inboxObjectKey } from '#lib/platform/media-keys';
import { admin } from '../../support/admin';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';

const api = useLocalApi();

const CAPTURED_AT = '2026-11-20T10:00:00.000Z';

describe('the S3 ingest function and inbox objects larger than a camera writes', () => {
  let studio: TestTenant;
  const keyOf = (path: string) => inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path });
  const unassigned = async () =>
    Object.fromEntries(
      (
        (await admin('photo', 'unassigned', '--tenant', studio.slug, '--gallery', studio.token, '--json')).json() as {
          photos: { path: string; reason: string }[];
        }
      ).photos.map((photo) => [photo.path, photo.reason]),
    );

  beforeEach(async () => {
    studio = await createTestTenant();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('does not download an object its event announces over the cap: unassigned as too_large, counted, with a warning', async () => {
    // Prepare: the object is small; its event says it is one byte over the cap
    const key = keyOf('camera-1/HUGE.JPG');
    await uploadObject(key, makeJpeg(64, 48), { 'captured-at': CAPTURED_AT, camera: 'Big Camera' });
    const event = objectCreatedEvent(key);
    event.Records[0]!.s3.object.size = MAX_PHOTO_OBJECT_BYTES + 1;
    const warn = jest.spyOn(logger, 'warn');
    // Act
    await ingestPhoto(event);
    // Assess
    expect(warn).toHaveBeenCalledWith('photo object ingested', {
      outcome: 'too_large',
      objectSize: MAX_PHOTO_OBJECT_BYTES + 1,
    });
    expect(await unassigned()).toEqual({ 'camera-1/HUGE.JPG': 'too_large' });
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.photos).toEqual({ total: 0, unassigned: 1, withheld: 0, cards: 0 });
  });

  it('refuses the download of an object over the cap that its event understated, and keeps its metadata', async () => {
    // Prepare: a real JPEG over a lowered cap; the event announces 1 byte
    const bytes = makeJpeg(64, 48);
    const key = keyOf('camera-1/UNDERSTATED.JPG');
    await uploadObject(key, bytes, { 'captured-at': CAPTURED_AT, camera: 'Big Camera' });
    // Act
    const outcome = await ingestPhotoObject(
      { objectKey: key, uploadedAt: new Date().toISOString(), size: 1 },
      bytes.length - 1,
    );
    const again = await ingestPhotoObject(
      { objectKey: key, uploadedAt: new Date().toISOString(), size: 1 },
      bytes.length - 1,
    );
    // Assess
    expect([outcome, again]).toEqual(['too_large', 'too_large']);
    const review = await admin('photo', 'unassigned', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    expect(review.json().photos).toEqual([
      expect.objectContaining({
        path: 'camera-1/UNDERSTATED.JPG',
        reason: 'too_large',
        camera: 'Big Camera',
        capturedAt: CAPTURED_AT,
      }),
    ]);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.photos.unassigned).toBe(1);
  });

  it('reads an object of exactly the cap', async () => {
    // Prepare
    const bytes = makeJpeg(64, 48);
    const key = keyOf('camera-1/FITS.JPG');
    await uploadObject(key, bytes, { 'captured-at': CAPTURED_AT });
    // Act
    const outcome = await ingestPhotoObject(
      { objectKey: key, uploadedAt: new Date().toISOString(), size: bytes.length },
      bytes.length,
    );
    // Assess
    expect(outcome).toBe('unassigned');
    expect(await unassigned()).toEqual({ 'camera-1/FITS.JPG': 'before_first_card' });
  });
});
