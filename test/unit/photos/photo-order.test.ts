import fc from 'fast-check';
import { type Photo, sortPhotosByCapture } from '#lib/photos/common/rules/photo-model';

const photo = (photoId: string, fileName: string, capturedAt: string | null, createdAt: string): Photo => ({
  photoId,
  personId: 'per_a',
  fileName,
  objectKey: `photos/t/g/per_a/${fileName}`,
  width: null,
  height: null,
  capturedAt,
  createdAt,
});

describe('sortPhotosByCapture', () => {
  it('orders by capture time, not by upload, then by file name and photo ID; photos without a capture time last, by upload', () => {
    // Prepare: uploaded in the order of the list
    const photos = [
      photo('pho_1', 'no-exif-b.jpg', null, '2026-11-20T09:00:01.000Z'),
      photo('pho_2', 'DSC_0003.JPG', '2026-11-20T10:00:03.000Z', '2026-11-20T09:00:02.000Z'),
      photo('pho_3', 'no-exif-a.jpg', null, '2026-11-20T09:00:03.000Z'),
      photo('pho_4', 'DSC_0002.JPG', '2026-11-20T10:00:01.000Z', '2026-11-20T09:00:04.000Z'),
      photo('pho_6', 'DSC_0001.JPG', '2026-11-20T10:00:01.000Z', '2026-11-20T09:00:05.000Z'),
      photo('pho_5', 'DSC_0001.JPG', '2026-11-20T10:00:01.000Z', '2026-11-20T09:00:05.000Z'),
    ];
    // Act
    const sorted = sortPhotosByCapture(photos);
    // Assess
    expect(sorted.map((each) => each.photoId)).toEqual(['pho_5', 'pho_6', 'pho_4', 'pho_2', 'pho_1', 'pho_3']);
  });

  it('gives the same order whatever order the photos are read in', () => {
    const instant = fc
      .date({ min: new Date('2026-01-01'), max: new Date('2026-01-02'), noInvalidDate: true })
      .map((date) => date.toISOString());
    const photos = fc
      .uniqueArray(
        fc.record({
          photoId: fc.stringMatching(/^pho_[0-9a-f]{4}$/),
          fileName: fc.constantFrom('a.jpg', 'b.jpg', 'B.jpg'),
          capturedAt: fc.option(instant, { nil: null }),
          createdAt: instant,
        }),
        { selector: (each) => each.photoId, maxLength: 12 },
      )
      .map((drawn) => drawn.map((each) => photo(each.photoId, each.fileName, each.capturedAt, each.createdAt)));
    const twoOrders = photos.chain((all) =>
      fc.tuple(fc.constant(all), fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length })),
    );
    fc.assert(
      fc.property(twoOrders, ([all, shuffled]) => {
        expect(sortPhotosByCapture(shuffled)).toEqual(sortPhotosByCapture(all));
      }),
    );
  });

  it('leaves the list it was given as it was', () => {
    const photos = [
      photo('pho_2', 'b.jpg', null, '2026-01-01T00:00:00.000Z'),
      photo('pho_1', 'a.jpg', null, '2026-01-01T00:00:00.000Z'),
    ];
    sortPhotosByCapture(photos);
    expect(photos.map((each) => each.photoId)).toEqual(['pho_2', 'pho_1']);
  });
});
