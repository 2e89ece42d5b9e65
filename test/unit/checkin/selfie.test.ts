import { encode } from 'jpeg-js';
import { MAX_SELFIE_PIXELS } from '#lib/checkin/rules/checkin-limits';
import { decodeSelfie, readJpegFrameSize } from '#lib/checkin/rules/selfie';
import { refusalOf } from '../../support/domain-errors';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- piexifjs ships no types and no ES module
const piexif = require('piexifjs');

const MiB = 1024 * 1024;

/** A real baseline JPEG as jpeg-js writes it: SOI, APP0 JFIF, DQT, SOF0, DHT, SOS, image data, EOI. */
function cleanJpeg(width = 16, height = 12): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    pixels.set([(index * 7) % 256, (index * 3) % 256, 128, 255], index * 4);
  }
  return Buffer.from(encode({ data: pixels, width, height }, 80).data);
}

/** One marker segment: 0xFF, the marker, the length (itself included) and the payload. */
function segment(marker: number, payload: Buffer | string): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'latin1');
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** The JPEG with `segments` inserted after its JFIF segment, where cameras and editors put metadata. */
function withSegments(jpeg: Buffer, ...segments: Buffer[]): Buffer {
  const afterJfif = 4 + jpeg.readUInt16BE(4);
  return Buffer.concat([jpeg.subarray(0, afterJfif), ...segments, jpeg.subarray(afterJfif)]);
}

/** The segments before the image data, in order: marker and offset. */
function headerSegments(jpeg: Buffer): { marker: number; offset: number }[] {
  const segments: { marker: number; offset: number }[] = [];
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1]!;
    segments.push({ marker, offset });
    if (marker === 0xda) break;
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  return segments;
}

/** Where the segment with this marker starts. */
function offsetOf(jpeg: Buffer, marker: number): number {
  const found = headerSegments(jpeg).find((candidate) => candidate.marker === marker);
  if (!found) throw new Error(`The JPEG has no segment 0x${marker.toString(16)}`);
  return found.offset;
}

const exifSegment = () => {
  const exif = piexif.dump({
    '0th': { [piexif.ImageIFD.Make]: 'PhoneMaker', [piexif.ImageIFD.Model]: 'Model X' },
    GPS: {
      [piexif.GPSIFD.GPSLatitudeRef]: 'N',
      [piexif.GPSIFD.GPSLatitude]: [
        [52, 1],
        [31, 1],
        [1234, 100],
      ],
    },
  }) as string; // "Exif\0\0" and the TIFF structure, as a binary string
  return segment(0xe1, exif);
};
const xmpSegment = () =>
  segment(
    0xe1,
    'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>CreatorTool: Phone</rdf:RDF></x:xmpmeta>',
  );
const iccSegment = () =>
  segment(0xe2, Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01', 'latin1'), Buffer.alloc(128, 7)]));
const iptcSegment = () => segment(0xed, 'Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x10By-line: Someone');
const commentSegment = () => segment(0xfe, 'Shot at Secret Street 12');

describe('decodeSelfie', () => {
  const jpeg = cleanJpeg();

  it.each([
    ['a data URI', `data:image/jpeg;base64,${jpeg.toString('base64')}`],
    ['a data URI of image/jpg', `data:image/jpg;base64,${jpeg.toString('base64')}`],
    ['a data URI in capitals', `data:IMAGE/JPEG;BASE64,${jpeg.toString('base64')}`],
    ['a data URI with a parameter', `data:image/jpeg;name=me.jpg;base64,${jpeg.toString('base64')}`],
    ['raw base64', jpeg.toString('base64')],
    ['raw base64 with line breaks', jpeg.toString('base64').replace(/.{76}/g, '$&\r\n')],
    ['base64url', jpeg.toString('base64url')],
  ])('gives the bytes of %s', (_form, submitted) => {
    expect(decodeSelfie(submitted).equals(jpeg)).toBe(true);
  });

  it.each([
    ['image/png', `data:image/png;base64,${jpeg.toString('base64')}`],
    ['no media type', `data:;base64,${jpeg.toString('base64')}`],
    ['text/plain', `data:text/plain;base64,${jpeg.toString('base64')}`],
    ['no base64 marker', `data:image/jpeg,${jpeg.toString('base64')}`],
  ])('refuses a data URI with %s as invalid_selfie', (_case, submitted) => {
    expect(refusalOf(() => decodeSelfie(submitted))).toMatchObject({
      reason: 'invalid_selfie',
      message: 'The selfie data URI must be data:image/jpeg;base64,…',
    });
  });

  it.each([
    ['empty', ''],
    ['white space only', ' \n '],
    ['an empty data URI', 'data:image/jpeg;base64,'],
    ['characters outside base64', 'not base64!'],
    ['padding in the middle', 'QUJD=QUJD'],
    ['three padding characters', 'QUI==='],
  ])('refuses %s as invalid_selfie', (_case, submitted) => {
    expect(refusalOf(() => decodeSelfie(submitted))).toMatchObject({
      reason: 'invalid_selfie',
      message: 'The selfie is not valid base64.',
    });
  });

  it('accepts exactly 3 MiB once decoded', () => {
    const bytes = Buffer.alloc(3 * MiB, 0xab);

    expect(decodeSelfie(bytes.toString('base64')).length).toBe(3 * MiB);
  });

  it.each([
    ['one byte over 3 MiB', 3 * MiB + 1, 'base64'],
    ['one byte over 3 MiB, as unpadded base64url', 3 * MiB + 1, 'base64url'],
    ['three bytes over 3 MiB, as base64url', 3 * MiB + 3, 'base64url'],
    ['10 MiB', 10 * MiB, 'base64'],
  ] as const)('refuses %s as selfie_too_large', (_case, size, encoding) => {
    const submitted = Buffer.alloc(size, 0xab).toString(encoding);

    expect(refusalOf(() => decodeSelfie(submitted)).reason).toBe('selfie_too_large');
  });

  it('refuses a data URI over 3 MiB as selfie_too_large', () => {
    const submitted = `data:image/jpeg;base64,${Buffer.alloc(3 * MiB + 1).toString('base64')}`;

    expect(refusalOf(() => decodeSelfie(submitted)).reason).toBe('selfie_too_large');
  });

  it('measures a large selfie before checking its characters', () => {
    expect(refusalOf(() => decodeSelfie('!'.repeat(5 * MiB))).reason).toBe('selfie_too_large');
  });
});

/** The JPEG with its frame header declaring `width` × `height`. */
function declaring(jpeg: Buffer, width: number, height: number): Buffer {
  const frame = offsetOf(jpeg, 0xc0);
  const patched = Buffer.from(jpeg);
  patched.writeUInt16BE(height, frame + 5);
  patched.writeUInt16BE(width, frame + 7);
  return patched;
}

describe('readJpegFrameSize', () => {
  const clean = cleanJpeg(16, 12);

  it('gives the size the frame header declares', () => {
    expect(readJpegFrameSize(clean)).toEqual({ width: 16, height: 12 });
  });

  it('reads a progressive frame header (SOF2) as well', () => {
    const progressive = Buffer.from(clean);
    progressive[offsetOf(clean, 0xc0) + 1] = 0xc2;

    expect(readJpegFrameSize(progressive)).toEqual({ width: 16, height: 12 });
  });

  it('reads past EXIF, XMP, ICC, IPTC, comments and fill bytes to the frame header', () => {
    const tagged = withSegments(
      clean,
      exifSegment(),
      xmpSegment(),
      iccSegment(),
      iptcSegment(),
      commentSegment(),
      Buffer.from([0xff, 0xff]),
    );

    expect(readJpegFrameSize(tagged)).toEqual({ width: 16, height: 12 });
  });

  it.each([
    [
      'bytes after its end, as phones append them',
      Buffer.concat([clean, Buffer.from('SEFHImage_UTC_Data1747474872000SEFT')]),
    ],
    ['a second image after its end (MPF)', Buffer.concat([clean, cleanJpeg(8, 8)])],
    ['no end marker', clean.subarray(0, clean.length - 2)],
    ['image data cut off', clean.subarray(0, offsetOf(clean, 0xda) + 20)],
  ])('leaves what follows the header to the decoder: accepts a JPEG with %s', (_case, bytes) => {
    expect(readJpegFrameSize(bytes)).toEqual({ width: 16, height: 12 });
  });

  it(`accepts exactly ${MAX_SELFIE_PIXELS} pixels and refuses one row more as invalid_selfie`, () => {
    expect(readJpegFrameSize(declaring(clean, 10_000, 5_000))).toEqual({ width: 10_000, height: 5_000 });
    expect(refusalOf(() => readJpegFrameSize(declaring(clean, 10_000, 5_001)))).toMatchObject({
      reason: 'invalid_selfie',
      message: 'The selfie has more than 50 megapixels.',
    });
  });

  it('refuses a decompression bomb of 65535 × 65535 pixels before anything decodes it', () => {
    expect(refusalOf(() => readJpegFrameSize(declaring(clean, 65_535, 65_535))).reason).toBe('invalid_selfie');
  });

  describe('refuses what is not a JPEG with a frame header as invalid_selfie', () => {
    const afterJfif = 4 + clean.readUInt16BE(4);
    const scanStart = offsetOf(clean, 0xda);
    const frameStart = offsetOf(clean, 0xc0);

    it.each([
      ['an empty file', Buffer.alloc(0)],
      ['a PNG', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
      ['text', Buffer.from('hello, this is not a picture')],
      ['only the start and end markers', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
      [
        'a JPEG cut off inside its header',
        Buffer.concat([clean.subarray(0, afterJfif + 10), Buffer.from([0xff, 0xd9])]),
      ],
      [
        'a segment longer than the file',
        Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0xff, 0xe1, 0xff, 0xff, 0xff, 0xd9])]),
      ],
      [
        'a segment length below 2',
        Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0xff, 0xe1, 0x00, 0x01]), clean.subarray(afterJfif)]),
      ],
      [
        'stray bytes between segments',
        Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0x00, 0x00]), clean.subarray(afterJfif)]),
      ],
      ['image data before any frame', Buffer.concat([clean.subarray(0, frameStart), clean.subarray(scanStart)])],
      [
        'a frame header too short for its size',
        Buffer.concat([
          clean.subarray(0, frameStart),
          segment(0xc0, Buffer.from([8, 0, 12])),
          clean.subarray(scanStart),
        ]),
      ],
      ['a width of 0', declaring(clean, 0, 12)],
      ['a height of 0 (to be defined later by a DNL segment, which decoders do not support)', declaring(clean, 16, 0)],
    ])('%s', (_case, bytes) => {
      expect(refusalOf(() => readJpegFrameSize(bytes))).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie is not a JPEG image.',
      });
    });
  });
});
