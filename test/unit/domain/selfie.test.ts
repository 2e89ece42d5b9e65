import { decode, encode } from 'jpeg-js';
import { decodeSelfie, stripJpegMetadata } from '#lib/domain/selfie';
import { refusalOf } from '../../support/domain-errors';

// eslint-disable-next-line @typescript-eslint/no-require-imports
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

const headerMarkers = (jpeg: Buffer) => headerSegments(jpeg).map(({ marker }) => marker);

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
      [piexif.GPSIFD.GPSLatitude]: [[52, 1], [31, 1], [1234, 100]],
    },
  }) as string; // "Exif\0\0" and the TIFF structure, as a binary string
  return segment(0xe1, exif);
};
const xmpSegment = () =>
  segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>CreatorTool: Phone</rdf:RDF></x:xmpmeta>');
const iccSegment = () => segment(0xe2, Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01', 'latin1'), Buffer.alloc(128, 7)]));
const iptcSegment = () => segment(0xed, 'Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x10By-line: Someone');
const commentSegment = () => segment(0xfe, 'Shot at Secret Street 12');
const adobeSegment = () => segment(0xee, Buffer.from([...Buffer.from('Adobe', 'latin1'), 0, 100, 0, 0, 0, 0, 1]));

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

describe('stripJpegMetadata', () => {
  const clean = cleanJpeg();

  it('leaves a JPEG without metadata byte for byte as it is', () => {
    expect(stripJpegMetadata(clean).equals(clean)).toBe(true);
  });

  it.each([
    ['EXIF', exifSegment, ['Exif', 'PhoneMaker']],
    ['XMP', xmpSegment, ['http://ns.adobe.com/xap', 'CreatorTool']],
    ['an ICC profile', iccSegment, ['ICC_PROFILE']],
    ['IPTC', iptcSegment, ['Photoshop 3.0', 'By-line']],
    ['a comment', commentSegment, ['Secret Street']],
  ] as const)('removes %s', (_kind, metadata, traces) => {
    // Prepare
    const tagged = withSegments(clean, metadata());
    expect(tagged.includes(traces[0])).toBe(true);

    // Act
    const stripped = stripJpegMetadata(tagged);

    // Assess
    for (const trace of traces) expect(stripped.includes(trace)).toBe(false);
    expect(stripped.equals(clean)).toBe(true);
  });

  it('removes every metadata segment of a phone picture, and nothing else', () => {
    const tagged = withSegments(clean, exifSegment(), xmpSegment(), iccSegment(), iptcSegment(), commentSegment());

    const stripped = stripJpegMetadata(tagged);

    expect(stripped.equals(clean)).toBe(true);
  });

  it('removes the EXIF that piexif writes into a JPEG', () => {
    const exif = piexif.dump({ '0th': { [piexif.ImageIFD.Make]: 'PhoneMaker' } });
    const tagged = Buffer.from(piexif.insert(exif, clean.toString('binary')), 'binary');

    const stripped = stripJpegMetadata(tagged);

    expect(tagged.includes('PhoneMaker')).toBe(true);
    expect(stripped.includes('PhoneMaker')).toBe(false);
    expect(stripped.includes('JFIF')).toBe(true);
  });

  it('removes the comments jpeg-js writes', () => {
    const pixels = Buffer.alloc(8 * 8 * 4, 200);
    const commented = Buffer.from(encode({ data: pixels, width: 8, height: 8, comments: ['Secret Street 12'] }, 80).data);

    const stripped = stripJpegMetadata(commented);

    expect(commented.includes('Secret Street')).toBe(true);
    expect(stripped.includes('Secret Street')).toBe(false);
  });

  it('keeps the JFIF and Adobe segments that decoding needs', () => {
    // Prepare
    const tagged = withSegments(clean, exifSegment(), adobeSegment());

    // Act
    const stripped = stripJpegMetadata(tagged);

    // Assess
    expect(headerMarkers(tagged)).toEqual([0xe0, 0xe1, 0xee, 0xdb, 0xc0, 0xc4, 0xda]);
    expect(headerMarkers(stripped)).toEqual([0xe0, 0xee, 0xdb, 0xc0, 0xc4, 0xda]);
    expect(stripped.equals(withSegments(clean, adobeSegment()))).toBe(true);
  });

  it('removes an APP0 segment that is not JFIF', () => {
    const tagged = withSegments(clean, segment(0xe0, 'JFXX\0\x10thumbnail'));

    expect(stripJpegMetadata(tagged).equals(clean)).toBe(true);
  });

  it('copies the image data unchanged, so the picture decodes to the same pixels', () => {
    const tagged = withSegments(clean, exifSegment(), iccSegment());

    const stripped = stripJpegMetadata(tagged);

    expect(stripped.subarray(offsetOf(stripped, 0xda)).equals(clean.subarray(offsetOf(clean, 0xda)))).toBe(true);
    expect(Buffer.from(decode(stripped).data).equals(Buffer.from(decode(clean).data))).toBe(true);
  });

  it('skips fill bytes between segments', () => {
    const afterJfif = 4 + clean.readUInt16BE(4);
    const padded = Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0xff, 0xff]), clean.subarray(afterJfif)]);

    expect(stripJpegMetadata(padded).equals(clean)).toBe(true);
  });

  describe('refuses what is not a well-formed JPEG as invalid_selfie', () => {
    const afterJfif = 4 + clean.readUInt16BE(4);
    const scanStart = offsetOf(clean, 0xda);
    const frameStart = offsetOf(clean, 0xc0);

    it.each([
      ['an empty file', Buffer.alloc(0)],
      ['a PNG', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
      ['text', Buffer.from('hello, this is not a picture')],
      ['only the start and end markers', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
      ['a JPEG cut off before its end', clean.subarray(0, clean.length - 10)],
      ['a JPEG without its end marker', clean.subarray(0, clean.length - 2)],
      ['a JPEG cut off inside its header', Buffer.concat([clean.subarray(0, afterJfif + 10), Buffer.from([0xff, 0xd9])])],
      ['a segment longer than the file', Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0xff, 0xe1, 0xff, 0xff, 0xff, 0xd9])])],
      ['a segment length below 2', Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0xff, 0xe1, 0x00, 0x01]), clean.subarray(afterJfif)])],
      ['stray bytes between segments', Buffer.concat([clean.subarray(0, afterJfif), Buffer.from([0x00, 0x00]), clean.subarray(afterJfif)])],
      ['image data before any frame', Buffer.concat([clean.subarray(0, frameStart), clean.subarray(scanStart)])],
    ])('%s', (_case, bytes) => {
      expect(refusalOf(() => stripJpegMetadata(bytes))).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie is not a JPEG image.',
      });
    });
  });
});
