import sharp from 'sharp';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- piexifjs ships no types and no ES module
const piexif = require('piexifjs');

/**
 * JPEG files built the way phones write them, with every kind of metadata that must not reach
 * a stored selfie: EXIF (GPS, camera, time, an embedded thumbnail), ICC, XMP, IPTC, comments,
 * a second image (MPF), segments between progressive scans and bytes after the end of image.
 */

/** What the fixtures' metadata says; none of it may be found in a stored selfie. */
export const PHONE = {
  make: 'PhoneMaker',
  model: 'Model X',
  takenAt: '2026:05:17 09:41:12',
  latitude: [
    [52, 1],
    [31, 1],
    [1234, 100],
  ] as const,
  longitude: [
    [13, 1],
    [24, 1],
    [5678, 100],
  ] as const,
};

/** GPS rationals as piexif writes them (big-endian numerator, denominator), found byte for byte. */
function rationalBytes(rationals: readonly (readonly [number, number])[]): Buffer {
  const bytes = Buffer.alloc(rationals.length * 8);
  rationals.forEach(([numerator, denominator], index) => {
    bytes.writeUInt32BE(numerator, index * 8);
    bytes.writeUInt32BE(denominator, index * 8 + 4);
  });
  return bytes;
}

/** Byte strings whose presence means metadata survived: tags, signatures, the GPS position. */
export const METADATA_TRACES: readonly [string, Buffer][] = [
  ['camera make', Buffer.from(PHONE.make)],
  ['camera model', Buffer.from(PHONE.model)],
  ['time taken', Buffer.from(PHONE.takenAt.slice(0, 10))],
  ['GPS latitude', rationalBytes(PHONE.latitude)],
  ['GPS longitude', rationalBytes(PHONE.longitude)],
  ['EXIF signature', Buffer.from('Exif\0\0', 'latin1')],
  ['XMP signature', Buffer.from('http://ns.adobe.com/xap')],
  ['XMP GPS', Buffer.from('GPSLatitude')],
  ['ICC signature', Buffer.from('ICC_PROFILE')],
  ['IPTC signature', Buffer.from('Photoshop 3.0')],
  ['IPTC city', Buffer.from('Berlin-Mitte')],
  ['MPF signature', Buffer.from('MPF\0MM', 'latin1')],
  ['comment', Buffer.from('Secret Street 12')],
  ['trailer', Buffer.from('Image_UTC_Data')],
];

/** One marker segment: 0xFF, the marker, the length (itself included) and the payload. */
export function segment(marker: number, payload: Buffer | string): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'latin1');
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** A marker of the file and where it starts. */
export interface JpegMarker {
  marker: number;
  offset: number;
}

/**
 * Every marker of the first image in the file, scans and what lies between them included, and
 * where that image ends (just after its EOI). Throws where the structure is broken.
 */
export function jpegStructure(jpeg: Buffer): { markers: JpegMarker[]; end: number } {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('No SOI at the start');
  const markers: JpegMarker[] = [{ marker: 0xd8, offset: 0 }];
  let offset = 2;
  while (offset + 1 < jpeg.length) {
    if (jpeg[offset] !== 0xff) throw new Error(`No marker at ${offset}`);
    const marker = jpeg[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    markers.push({ marker, offset });
    if (marker === 0xd9) return { markers, end: offset + 2 };
    offset += 2 + jpeg.readUInt16BE(offset + 2);
    if (marker !== 0xda) continue;
    // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
    while (
      offset + 1 < jpeg.length &&
      !(jpeg[offset] === 0xff && jpeg[offset + 1] !== 0 && (jpeg[offset + 1]! < 0xd0 || jpeg[offset + 1]! > 0xd7))
    ) {
      offset += 1;
    }
  }
  throw new Error('No EOI');
}

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** `segments` inserted right after the SOI, where phones put their APPn segments. */
export function insertAfterStart(jpeg: Buffer, ...segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * A camera-like picture: a gradient with noise (so it compresses like a photo) and a pure red
 * square in its top-left corner, which shows where a turn took it.
 */
export async function cameraPicture(options: {
  width: number;
  height: number;
  progressive?: boolean;
  quality?: number;
  p3Profile?: boolean;
}): Promise<Buffer> {
  const { width, height } = options;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      if (x < width / 4 && y < height / 4) {
        pixels[at] = 255;
        continue;
      }
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 24;
      pixels[at] = (40 + ((x * 80) / width + noise)) | 0;
      pixels[at + 1] = (60 + ((y * 150) / height + noise)) | 0;
      pixels[at + 2] = (90 + (((x + y) * 120) / (width + height) + noise)) | 0;
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (options.p3Profile) image.withIccProfile('p3');
  return image.jpeg({ quality: options.quality ?? 90, progressive: options.progressive ?? false }).toBuffer();
}

/** An APP1 EXIF segment with camera, time and GPS position, and optionally orientation and a thumbnail. */
export function exifSegment(options: { orientation?: number; thumbnail?: Buffer } = {}): Buffer {
  const exif = piexif.dump({
    '0th': {
      [piexif.ImageIFD.Make]: PHONE.make,
      [piexif.ImageIFD.Model]: PHONE.model,
      [piexif.ImageIFD.DateTime]: PHONE.takenAt,
      ...(options.orientation ? { [piexif.ImageIFD.Orientation]: options.orientation } : {}),
    },
    Exif: { [piexif.ExifIFD.DateTimeOriginal]: PHONE.takenAt },
    GPS: {
      [piexif.GPSIFD.GPSLatitudeRef]: 'N',
      [piexif.GPSIFD.GPSLatitude]: PHONE.latitude,
      [piexif.GPSIFD.GPSLongitudeRef]: 'E',
      [piexif.GPSIFD.GPSLongitude]: PHONE.longitude,
    },
    ...(options.thumbnail
      ? { '1st': { [piexif.ImageIFD.Compression]: 6 }, thumbnail: options.thumbnail.toString('binary') }
      : {}),
  }) as string; // "Exif\0\0" and the TIFF structure, as a binary string
  return segment(0xe1, Buffer.from(exif, 'binary'));
}

export const xmpSegment = () =>
  segment(
    0xe1,
    'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description ' +
      `exif:GPSLatitude="52,31.2057N" tiff:Make="${PHONE.make}" exif:DateTimeOriginal="2026-05-17T09:41:12"/></rdf:RDF></x:xmpmeta>`,
  );

/** APP13 "Photoshop 3.0" with an 8BIM IPTC resource: by-line and city. */
export function iptcSegment(): Buffer {
  const dataset = (tag: number, value: string) =>
    Buffer.concat([Buffer.from([0x1c, 0x02, tag, 0, value.length]), Buffer.from(value, 'latin1')]);
  const iptc = Buffer.concat([dataset(0x50, 'Someone'), dataset(0x5a, 'Berlin-Mitte')]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iptc.length);
  const padding = Buffer.alloc(iptc.length % 2);
  return segment(
    0xed,
    Buffer.concat([Buffer.from('Photoshop 3.0\0' + '8BIM\x04\x04\0\0', 'latin1'), size, iptc, padding]),
  );
}

export const commentSegment = () => segment(0xfe, 'Shot at Secret Street 12');

/**
 * A phone picture with every metadata segment in its primary image: EXIF with GPS, camera, time,
 * orientation 6 (stored sideways, 400 × 300) and a thumbnail; a Display P3 ICC profile; XMP;
 * IPTC; a comment.
 */
export async function phonePictureWithEverything(): Promise<Buffer> {
  const picture = await cameraPicture({ width: 400, height: 300, p3Profile: true });
  const thumbnail = await cameraPicture({ width: 160, height: 120, quality: 70 });
  return insertAfterStart(
    picture,
    exifSegment({ orientation: 6, thumbnail }),
    xmpSegment(),
    iptcSegment(),
    commentSegment(),
  );
}

/**
 * A multi-picture file as phones write them (CIPA DC-007): the primary image with an APP2 "MPF"
 * index, and a second JPEG after the primary's EOI whose own EXIF carries GPS, camera and time.
 */
export async function multiPictureFile(): Promise<Buffer> {
  const primary = await cameraPicture({ width: 640, height: 480 });
  const secondary = insertAfterStart(await cameraPicture({ width: 320, height: 240 }), exifSegment());
  // "MPF\0", a big-endian TIFF header, one IFD (version, number of images, MP entries), the entries.
  const index = Buffer.alloc(4 + 8 + 2 + 3 * 12 + 4 + 2 * 16);
  index.write('MPF\0MM\0\x2a', 0, 'latin1');
  index.writeUInt32BE(8, 8);
  index.writeUInt16BE(3, 12);
  const entry = (at: number, tag: number, type: number, count: number) => {
    index.writeUInt16BE(tag, at);
    index.writeUInt16BE(type, at + 2);
    index.writeUInt32BE(count, at + 4);
  };
  entry(14, 0xb000, 7, 4);
  index.write('0100', 22, 'latin1');
  entry(26, 0xb001, 4, 1);
  index.writeUInt32BE(2, 34);
  entry(38, 0xb002, 7, 32);
  index.writeUInt32BE(8 + 2 + 36 + 4, 46); // MP entries right after the IFD, relative to the TIFF header
  const withIndex = insertAfterStart(primary, segment(0xe2, index));
  const indexAt = 2 + 4; // after the SOI, the APP2 marker and its length
  const tiffHeaderAt = indexAt + 4; // after "MPF\0"
  const entries = tiffHeaderAt + 8 + 2 + 36 + 4; // the MP entries, after the IFD
  withIndex.writeUInt32BE(0x20030000, entries); // representative, baseline primary image
  withIndex.writeUInt32BE(withIndex.length, entries + 4);
  withIndex.writeUInt32BE(0x00020002, entries + 16); // disparity image (a second view)
  withIndex.writeUInt32BE(secondary.length, entries + 20);
  withIndex.writeUInt32BE(withIndex.length - tiffHeaderAt, entries + 24);
  return Buffer.concat([withIndex, secondary]);
}

/**
 * A progressive JPEG with a comment, EXIF (GPS) and IPTC inserted between its first and second
 * scans, where decoders read and skip them.
 */
export async function progressiveWithSegmentsBetweenScans(): Promise<Buffer> {
  const progressive = await cameraPicture({ width: 480, height: 360, progressive: true });
  const { markers } = jpegStructure(progressive);
  const firstScan = markers.findIndex(({ marker }) => marker === 0xda);
  const afterFirstScan = markers[firstScan + 1]!.offset;
  return Buffer.concat([
    progressive.subarray(0, afterFirstScan),
    commentSegment(),
    exifSegment(),
    iptcSegment(),
    progressive.subarray(afterFirstScan),
  ]);
}

/** A JPEG followed by a Samsung-style trailer after its EOI: tagged blocks with capture time and a footer. */
export async function withPhoneTrailer(): Promise<Buffer> {
  const picture = await cameraPicture({ width: 320, height: 240 });
  const trailer = Buffer.from(
    '\0\0\x01\x0aImage_UTC_Data1747474872000\0\0\xa1\x0aMCC_Data262SEFH\0\0\0\x02Secret Street 12 GPS 52.5201 13.4049SEFT',
    'latin1',
  );
  return Buffer.concat([picture, trailer]);
}
