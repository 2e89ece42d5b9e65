import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { decode } from 'jpeg-js';
import sharp from 'sharp';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { SELFIE_MAX_DIMENSION } from '#lib/checkin/adapters/selfie-image';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { testS3 } from '../../support/media';
import {
  METADATA_TRACES,
  cameraPicture,
  jpegStructure,
  multiPictureFile,
  occurrences,
  phonePictureWithEverything,
  progressiveWithSegmentsBetweenScans,
  withPhoneTrailer,
} from '../../support/phone-jpegs';

const api = useLocalApi();

const submit = (studio: CheckinStudio, body: unknown) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });

/** The selfie object the check-in stored, read back from S3. */
async function storedSelfie(studio: CheckinStudio, personId: string): Promise<Buffer> {
  const object = await testS3.send(
    new GetObjectCommand({
      Bucket: process.env.MEDIA_BUCKET,
      Key: `selfies/${studio.tenant.tenantId}/${studio.token}/${personId}.jpg`,
    }),
  );
  expect(object.ContentType).toBe('image/jpeg');
  return Buffer.from(await object.Body!.transformToByteArray());
}

const tracesIn = (jpeg: Buffer) => METADATA_TRACES.filter(([, trace]) => jpeg.includes(trace)).map(([name]) => name);

describe('POST /group-shoot submitCheckin: the stored selfie is re-encoded, without any metadata', () => {
  let studio: CheckinStudio;
  beforeAll(async () => {
    studio = await createCheckinStudio();
  });

  it.each([
    [
      'a phone picture with EXIF (GPS, camera, time, thumbnail, orientation 6), ICC, XMP, IPTC and a comment',
      phonePictureWithEverything,
      [300, 400],
    ],
    ['a multi-picture file (MPF) whose second image carries GPS, camera and time', multiPictureFile, [640, 480]],
    [
      'a progressive JPEG with a comment, EXIF and IPTC between its scans',
      progressiveWithSegmentsBetweenScans,
      [480, 360],
    ],
    ['a JPEG with a phone trailer after its end of image', withPhoneTrailer, [320, 240]],
    [
      'a 3000 × 2000 camera picture',
      () => cameraPicture({ width: 3000, height: 2000, quality: 80 }),
      [SELFIE_MAX_DIMENSION, 1365],
    ],
  ] as const)(
    'stores %s as one upright baseline JPEG, within bounds, with no metadata',
    async (_fixture, build, [width, height]) => {
      // Prepare
      const sent = await build();
      // Act
      const answer = await submit(
        studio,
        studio.validBody({
          name: `Selfie ${width}x${height}`,
          selfieBase64: `data:image/jpeg;base64,${sent.toString('base64')}`,
        }),
      );
      // Assess
      expect(answer.status).toBe(200);
      const stored = await storedSelfie(studio, answer.body.personId);
      const { markers, end } = jpegStructure(stored);
      expect(end).toBe(stored.length);
      expect(occurrences(stored, Buffer.from([0xff, 0xd8]))).toBe(1);
      expect(markers.filter(({ marker }) => (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe)).toEqual([]);
      expect(markers.some(({ marker }) => marker === 0xc0)).toBe(true);
      expect(tracesIn(stored)).toEqual([]);
      const metadata = await sharp(stored).metadata();
      expect([metadata.width, metadata.height, metadata.exif, metadata.icc, metadata.xmp, metadata.iptc]).toEqual([
        width,
        height,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      const decoded = decode(stored, { useTArray: true });
      expect([decoded.width, decoded.height]).toEqual([width, height]);
    },
  );

  it('refuses a JPEG whose image data is cut off with 400 invalid_selfie, and stores nothing', async () => {
    // Prepare
    const refused = await createCheckinStudio();
    const picture = await cameraPicture({ width: 320, height: 240 });
    // Act
    const answer = await submit(
      refused,
      refused.validBody({ selfieBase64: picture.subarray(0, Math.floor(picture.length * 0.6)).toString('base64') }),
    );
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'invalid_selfie' }));
    expect(await queryPartition(keys.personsOfGallery(refused.tenant.tenantId, refused.token))).toEqual([]);
    const listing = await testS3.send(
      new ListObjectsV2Command({
        Bucket: process.env.MEDIA_BUCKET,
        Prefix: `selfies/${refused.tenant.tenantId}/${refused.token}/`,
      }),
    );
    expect(listing.Contents ?? []).toEqual([]);
  });
});
