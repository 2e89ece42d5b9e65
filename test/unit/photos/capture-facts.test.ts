import sharp from 'sharp';
import { captureFactsOf, exifBlockOfJpeg } from '#lib/photos/common/rules/capture-facts';
import { captureTimeOfMetadata } from '#lib/photos/common/rules/capture-time';
import { portraitJpeg } from '../../../scripts/samples/synthetic-shoot';
import { makeJpeg, makeJpegWithGps } from '../../support/media';

describe('captureTimeOfMetadata', () => {
  it.each([
    ['2026-11-20T10:00:01.120Z', '2026-11-20T10:00:01.120Z'],
    ['2026-11-20T10:00:01Z', null], // no milliseconds
    ['2026-11-20T10:00:01.120+01:00', null],
    ['2026-02-30T10:00:01.120Z', null], // no such day
    ['2026-11-20T24:00:00.000Z', null],
    ['', null],
  ])('reads captured-at %j as %j', (value, expected) => {
    expect(captureTimeOfMetadata({ 'captured-at': value })).toBe(expected);
  });

  it('reads no capture time without the entry', () => {
    expect(captureTimeOfMetadata({ camera: 'Canon EOS R5' })).toBeNull();
  });
});

describe('exifBlockOfJpeg', () => {
  const camera = { make: 'Canon', model: 'EOS R5', serial: '032021001234' };

  it('finds the block sharp finds, from the first bytes only', async () => {
    // Prepare: EXIF, then a colour profile, then the image data
    const jpeg = await sharp(
      await portraitJpeg({ width: 640, height: 480, capturedAt: '2026-11-20T10:00:01.120Z', camera }),
    )
      .keepExif()
      .withIccProfile('p3')
      .toBuffer();
    const fromSharp = (await sharp(jpeg).metadata()).exif;
    // Act
    const block = exifBlockOfJpeg(jpeg.subarray(0, 16 * 1024));
    // Assess
    expect(fromSharp).toBeDefined();
    expect(block?.equals(fromSharp!)).toBe(true);
    expect(captureFactsOf(block)).toEqual({
      capturedAt: '2026-11-20T10:00:01.120Z',
      camera: 'Canon EOS R5 #032021001234',
    });
  });

  it('finds a block inserted right after the start of the image, as phones and piexif write it', () => {
    const block = exifBlockOfJpeg(makeJpegWithGps());
    expect(block?.subarray(0, 6).toString('latin1')).toBe('Exif\0\0');
  });

  it('steps over the segments before it: fill bytes, JFIF, an XMP packet in another APP1', () => {
    // Prepare
    const jpeg = makeJpegWithGps();
    const segment = (marker: number, payload: Buffer) =>
      Buffer.concat([
        Buffer.from([0xff, marker]),
        Buffer.from([(payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
        payload,
      ]);
    const before = Buffer.concat([
      segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
      Buffer.from([0xff]),
      segment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.alloc(3000, 0x20)])),
    ]);
    // Act
    const block = exifBlockOfJpeg(Buffer.concat([jpeg.subarray(0, 2), before, jpeg.subarray(2)]));
    // Assess
    expect(block?.equals(exifBlockOfJpeg(jpeg)!)).toBe(true);
  });

  it.each([
    ['a JPEG without EXIF', () => makeJpeg(32, 24)],
    ['bytes that are no JPEG', () => Buffer.from('not a photo at all')],
    ['no bytes', () => Buffer.alloc(0)],
    ['a head cut inside the EXIF block', () => makeJpegWithGps().subarray(0, 40)],
  ])('finds none in %s', (_case, bytes) => {
    expect(exifBlockOfJpeg(bytes())).toBeUndefined();
  });

  it('finds none in a PNG', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    expect(exifBlockOfJpeg(png)).toBeUndefined();
  });
});
