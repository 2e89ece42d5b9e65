import sharp from 'sharp';
import { UnreadableImageError, readShootPhoto } from '#lib/photos/sorting/adapters/shoot-photo-reader';
import { type CardOptions, cardJpeg, makeShoot, portraitJpeg } from '../../../scripts/samples/synthetic-shoot';

const PHOTO = { width: 1600, height: 1067 };

/** The error `readShootPhoto` rejects with; fails the test when it resolves. */
async function refusalOfReading(bytes: Uint8Array): Promise<unknown> {
  return readShootPhoto(bytes).then(
    () => new Error('Expected a refusal, but the photo was read'),
    (error: unknown) => error,
  );
}

describe('readShootPhoto', () => {
  describe('finds the QR code of a camera card', () => {
    it.each<[string, Partial<CardOptions>]>([
      ['small (6 % of the short side), straight', { size: 0.06, angle: 0 }],
      ['small, turned 15°', { size: 0.06, angle: 15 }],
      ['small, turned 45°', { size: 0.06, angle: 45 }],
      ['small, turned 90°', { size: 0.06, angle: 90 }],
      ['medium (12 %), turned 45°, soft (blur 0.3 module)', { size: 0.12, angle: 45, blur: 0.3 }],
      ['medium, turned 15°, blurred (0.5 module)', { size: 0.12, angle: 15, blur: 0.5 }],
      ['large (25 %), turned -30°, blurred', { size: 0.25, angle: -30, blur: 0.5 }],
      ['filling the photo (45 %), turned 90°, soft', { size: 0.45, angle: 90, blur: 0.3 }],
      ['near the edge of the photo', { size: 0.1, angle: 10, at: { x: 0.1, y: 0.85 } }],
    ])('%s', async (_case, card) => {
      // Prepare
      const jpeg = await cardJpeg({ ...PHOTO, seed: 7, text: 'K7QM', size: 0.1, ...card });

      // Act
      const reading = await readShootPhoto(jpeg);

      // Assess
      expect(reading.codes).toEqual(['K7QM']);
    });

    it('in a 24 MP photo (decoded at half its size, then searched at 2000 px)', async () => {
      const jpeg = await cardJpeg({
        width: 6000,
        height: 4000,
        seed: 3,
        text: 'W2HB',
        size: 0.08,
        angle: 30,
        blur: 0.3,
      });

      const reading = await readShootPhoto(jpeg);

      expect(reading).toMatchObject({ width: 6000, height: 4000, codes: ['W2HB'] });
    });

    it('in a 24 MP photo, small, turned 45° and blurred by half a module: found only at the second look, sharpened', async () => {
      const jpeg = await cardJpeg({
        width: 6000,
        height: 4000,
        seed: 125,
        text: 'W2HB',
        size: 0.08,
        angle: 45,
        blur: 0.5,
      });

      expect((await readShootPhoto(jpeg)).codes).toEqual(['W2HB']);
    });

    it('trims the text around the code', async () => {
      const jpeg = await cardJpeg({ ...PHOTO, text: ' 9XRT\n', size: 0.15 });

      expect((await readShootPhoto(jpeg)).codes).toEqual(['9XRT']);
    });

    it('in a photo shown turned by its EXIF orientation, whose size it gives upright', async () => {
      const jpeg = await cardJpeg({ ...PHOTO, text: 'PP4D', size: 0.1, angle: 20, orientation: 6 });

      const reading = await readShootPhoto(jpeg);

      expect(reading).toMatchObject({ width: PHOTO.height, height: PHOTO.width, codes: ['PP4D'] });
      expect(await sharp(jpeg).metadata()).toMatchObject({ width: PHOTO.width, height: PHOTO.height, orientation: 6 });
    });
  });

  it.each([
    ['straight', { size: 0.1, angle: 0 }],
    ['small, turned 30°, soft', { size: 0.06, angle: 30, blur: 0.3 }],
  ])('finds a Data Matrix card (written by ZXing): %s', async (_case, card) => {
    const jpeg = await cardJpeg({ ...PHOTO, seed: 5, text: 'DM7A', symbology: 'DataMatrix', ...card });

    expect((await readShootPhoto(jpeg)).codes).toEqual(['DM7A']);
  });

  it('finds no code in portraits', async () => {
    // Prepare
    const portraits = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => portraitJpeg({ ...PHOTO, seed })));

    // Act
    const readings = await Promise.all(portraits.map((jpeg) => readShootPhoto(jpeg)));

    // Assess
    expect(readings.map((reading) => reading.codes)).toEqual([[], [], [], [], [], []]);
    expect(readings.map(({ width, height }) => [width, height])).toEqual(Array(6).fill([PHOTO.width, PHOTO.height]));
  });

  describe('EXIF', () => {
    it('gives the capture time with its sub-seconds, as written, and the camera with its serial number', async () => {
      const camera = { make: 'NIKON CORPORATION', model: 'NIKON Z 6_2', serial: '6012345' };
      const jpeg = await portraitJpeg({ ...PHOTO, capturedAt: '2026-11-20T10:00:01.120Z', camera });

      const reading = await readShootPhoto(jpeg);

      expect(reading).toMatchObject({
        capturedAt: '2026-11-20T10:00:01.120Z',
        camera: 'NIKON CORPORATION NIKON Z 6_2 #6012345',
      });
    });

    it.each([
      [2, '2026-11-20T23:59:59.980Z', '2026-11-20T23:59:59.980Z'],
      [3, '2026-11-20T10:00:01.007Z', '2026-11-20T10:00:01.007Z'],
    ] as const)('reads SubSecTimeOriginal of %i digits', async (digits, capturedAt, expected) => {
      const jpeg = await portraitJpeg({ ...PHOTO, capturedAt, subSecondDigits: digits });

      expect((await readShootPhoto(jpeg)).capturedAt).toBe(expected);
    });

    it('orders two shots of the same second by their sub-seconds', async () => {
      const [first, second] = await Promise.all(
        ['2026-11-20T10:00:01.350Z', '2026-11-20T10:00:01.900Z'].map((capturedAt) =>
          portraitJpeg({ ...PHOTO, capturedAt }),
        ),
      );

      const times = [(await readShootPhoto(first!)).capturedAt!, (await readShootPhoto(second!)).capturedAt!];

      expect(times[0]! < times[1]!).toBe(true);
    });

    it('gives the camera without a serial number when it wrote none, and no time', async () => {
      const jpeg = await portraitJpeg({ ...PHOTO, camera: { make: 'Canon', model: 'Canon EOS R5' } });

      expect(await readShootPhoto(jpeg)).toMatchObject({ camera: 'Canon Canon EOS R5', capturedAt: null });
    });

    it('gives nulls for a photo without EXIF', async () => {
      const jpeg = await portraitJpeg(PHOTO);
      expect((await sharp(jpeg).metadata()).exif).toBeUndefined();

      expect(await readShootPhoto(jpeg)).toEqual({ ...PHOTO, capturedAt: null, camera: null, codes: [] });
    });
  });

  describe('refuses bytes that are no image with UnreadableImageError', () => {
    it.each([
      ['text', Buffer.from('not a photo, just some text')],
      ['nothing', new Uint8Array(0)],
      ['a PDF header', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')],
    ])('%s', async (_case, bytes) => {
      const error = await refusalOfReading(bytes);

      expect(error).toBeInstanceOf(UnreadableImageError);
      expect((error as Error).name).toBe('UnreadableImageError');
    });

    it('a JPEG cut off halfway', async () => {
      const jpeg = await portraitJpeg(PHOTO);

      expect(await refusalOfReading(jpeg.subarray(0, jpeg.length / 2))).toBeInstanceOf(UnreadableImageError);
    });
  });

  it('reads a PNG as well, with no EXIF', async () => {
    const png = await sharp(await cardJpeg({ ...PHOTO, text: 'HJ5N', size: 0.12 }))
      .png()
      .toBuffer();

    expect(await readShootPhoto(png)).toEqual({ ...PHOTO, capturedAt: null, camera: null, codes: ['HJ5N'] });
  });
});

describe('makeShoot', () => {
  it('shoots each person on one camera in capture order: test shots, a card of no person, cards and portraits, every card readable', async () => {
    // Prepare
    const codes = ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE'];

    // Act
    const photos = await makeShoot({ codes, cameras: 2, photosPerPerson: 2, width: 800, height: 533 });

    // Assess
    const camera1 = photos.filter((photo) => photo.path.startsWith('camera-1/'));
    expect(camera1.map((photo) => [photo.kind, photo.code ?? null, photo.expectedCode])).toEqual([
      ['portrait', null, null],
      ['portrait', null, null],
      ['card', 'AAAA', 'AAAA'],
      ['portrait', null, 'AAAA'],
      ['portrait', null, 'AAAA'],
      ['card', 'ZZZZ', 'AAAA'],
      ['card', 'CCCC', 'CCCC'],
      ['portrait', null, 'CCCC'],
      ['portrait', null, 'CCCC'],
      ['card', 'EEEE', 'EEEE'],
      ['portrait', null, 'EEEE'],
      ['portrait', null, 'EEEE'],
    ]);
    expect(
      photos.filter((photo) => photo.kind === 'card' && photo.path.startsWith('camera-2/')).map((photo) => photo.code),
    ).toEqual(['BBBB', 'DDDD']);
    const readings = await Promise.all(photos.map((photo) => readShootPhoto(photo.bytes)));
    expect(readings.map((reading) => reading.codes)).toEqual(photos.map((photo) => (photo.code ? [photo.code] : [])));
    expect(readings.map((reading) => [reading.camera, reading.capturedAt])).toEqual(
      photos.map((photo) => [photo.camera, photo.capturedAt]),
    );
    expect(new Set(photos.map((photo) => photo.camera)).size).toBe(2);
    for (const camera of [camera1, photos.filter((photo) => photo.path.startsWith('camera-2/'))]) {
      const times = camera.map((photo) => photo.capturedAt);
      expect([...times].sort()).toEqual(times);
      expect(new Set(times.map((time) => time.slice(0, 19))).size).toBeLessThan(times.length); // some share a second
    }
  });
});
