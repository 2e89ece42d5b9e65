import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from 'jpeg-js';
import sharp from 'sharp';
import * as v from 'valibot';
import { SubmitCheckinRequest } from '#lib/checkin/checkin-schemas';
import { SELFIE_JPEG_QUALITY, SELFIE_MAX_DIMENSION, reencodeSelfie } from '#lib/checkin/adapters/selfie-image';
import { DomainError } from '#lib/platform/domain-error';
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

const START_OF_IMAGE = Buffer.from([0xff, 0xd8]);
const END_OF_IMAGE = Buffer.from([0xff, 0xd9]);
const isApplicationOrComment = (marker: number) => (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe;

const tracesIn = (jpeg: Buffer) => METADATA_TRACES.filter(([, trace]) => jpeg.includes(trace)).map(([name]) => name);

/** The refusal `reencodeSelfie` rejects with; fails the test when it resolves or rejects with something else. */
async function refusalOfReencoding(jpeg: Buffer): Promise<DomainError> {
  const outcome = await reencodeSelfie(jpeg).then(
    () => new Error('Expected a DomainError, but the selfie was re-encoded'),
    (error: unknown) => error,
  );
  if (outcome instanceof DomainError) return outcome;
  throw outcome;
}

/** The RGB values of the pixel at (x, y). */
async function pixelAt(jpeg: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

describe('reencodeSelfie', () => {
  describe.each([
    [
      'a phone picture with EXIF (GPS, camera, time, thumbnail), ICC, XMP, IPTC and a comment',
      phonePictureWithEverything,
    ],
    ['a multi-picture file (MPF) whose second image carries GPS, camera and time', multiPictureFile],
    ['a progressive JPEG with a comment, EXIF and IPTC between its scans', progressiveWithSegmentsBetweenScans],
    ['a JPEG with a phone trailer after its end of image', withPhoneTrailer],
  ])('%s', (_fixture, build) => {
    let sent: Buffer;
    let stored: Buffer;
    beforeAll(async () => {
      sent = await build();
      stored = await reencodeSelfie(sent);
    });

    it('is a fixture that carries metadata, and that decoders accept', async () => {
      expect(tracesIn(sent).length).toBeGreaterThan(0);
      await expect(sharp(sent, { failOn: 'error' }).toBuffer()).resolves.toBeInstanceOf(Buffer);
    });

    it('stores exactly one baseline image: one SOI, one EOI, nothing after it', () => {
      const { markers, end } = jpegStructure(stored);

      expect(end).toBe(stored.length);
      expect(occurrences(stored, START_OF_IMAGE)).toBe(1);
      expect(occurrences(stored, END_OF_IMAGE)).toBe(1);
      expect(
        markers
          .filter(({ marker }) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
          .map(({ marker }) => marker),
      ).toEqual([0xc0]);
      expect(markers.filter(({ marker }) => marker === 0xda)).toHaveLength(1);
    });

    it('stores no APP1 to APP15 and no comment segment, anywhere', () => {
      const { markers } = jpegStructure(stored);

      expect(markers.filter(({ marker }) => isApplicationOrComment(marker))).toEqual([]);
    });

    it('stores no GPS position, camera, time, signature or text of the metadata', async () => {
      const metadata = await sharp(stored).metadata();

      expect(tracesIn(stored)).toEqual([]);
      expect([metadata.exif, metadata.icc, metadata.xmp, metadata.iptc]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('stores a JPEG that two decoders read, the size of the first image', async () => {
      const metadata = await sharp(stored).metadata();
      const decoded = decode(stored, { useTArray: true });
      const sentSize = await sharp(sent).metadata();

      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'jpeg',
        sentSize.autoOrient.width,
        sentSize.autoOrient.height,
      ]);
      expect([decoded.width, decoded.height]).toEqual([metadata.width, metadata.height]);
    });
  });

  it('turns the picture upright by its EXIF orientation: stored 400 × 300 with orientation 6, it becomes 300 × 400', async () => {
    // Prepare: the red square is in the stored top-left corner, which orientation 6 shows top right
    const sent = await phonePictureWithEverything();
    expect((await pixelAt(sent, 10, 10))[0]).toBeGreaterThan(200);

    // Act
    const stored = await reencodeSelfie(sent);

    // Assess
    const { width, height } = await sharp(stored).metadata();
    expect([width, height]).toEqual([300, 400]);
    const [red, green, blue] = await pixelAt(stored, 300 - 10, 10);
    expect(red).toBeGreaterThan(200);
    expect(green! + blue!).toBeLessThan(80);
    const [redBottomLeft] = await pixelAt(stored, 10, 400 - 10);
    expect(redBottomLeft).toBeLessThan(200);
  });

  it(`fits a large picture within ${SELFIE_MAX_DIMENSION} px on its long side, in proportion`, async () => {
    const sent = await cameraPicture({ width: 3000, height: 2000, quality: 80 });

    const stored = await reencodeSelfie(sent);

    const { width, height } = await sharp(stored).metadata();
    expect([width, height]).toEqual([SELFIE_MAX_DIMENSION, 1365]);
  });

  it('never enlarges a small picture', async () => {
    const sent = await cameraPicture({ width: 64, height: 48 });

    const stored = await reencodeSelfie(sent);

    const { width, height } = await sharp(stored).metadata();
    expect([width, height]).toEqual([64, 48]);
  });

  it('is documented with its size and quality in the API reference and the OpenAPI document', () => {
    const reference = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api-reference.md'), 'utf8');
    const openapiDescription = v.getDescription(SubmitCheckinRequest.entries.selfieBase64);

    expect(reference).toContain(`at most ${SELFIE_MAX_DIMENSION} pixels on its longer side`);
    expect(reference).toContain(`a baseline JPEG of quality ${SELFIE_JPEG_QUALITY}`);
    expect(openapiDescription).toContain(`at most ${SELFIE_MAX_DIMENSION} px on its longer side`);
  });

  describe('refuses as invalid_selfie', () => {
    it('a JPEG cut off in its image data', async () => {
      const picture = await cameraPicture({ width: 320, height: 240 });

      const refusal = await refusalOfReencoding(picture.subarray(0, Math.floor(picture.length * 0.6)));

      expect(refusal).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie could not be decoded as an image.',
      });
    });

    it('a PNG, which the decoder would read as well', async () => {
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();

      expect(await refusalOfReencoding(png)).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie is not a JPEG image.',
      });
    });

    it('a decompression bomb, from its header, before decoding anything', async () => {
      const picture = await cameraPicture({ width: 64, height: 48 });
      const frame = jpegStructure(picture).markers.find(({ marker }) => marker === 0xc0)!.offset;
      picture.writeUInt16BE(60_000, frame + 5);
      picture.writeUInt16BE(60_000, frame + 7);

      expect(await refusalOfReencoding(picture)).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie has more than 50 megapixels.',
      });
    });
  });
});
