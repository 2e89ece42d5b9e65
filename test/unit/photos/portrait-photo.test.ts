import type { Photo } from '#lib/photos/common/rules/photo-model';
import { pickedPhotoOf, portraitPhotoOf } from '#lib/photos/access/rules/portrait-photo';

const photo = (photoId: string, capturedAt: string | null, fileName = `${photoId}.jpg`): Photo => ({
  photoId,
  personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz',
  fileName,
  objectKey: `photos/${fileName}`,
  width: 648,
  height: 648,
  capturedAt,
  createdAt: '2026-12-06T10:00:00.000Z',
});

// Listed out of capture order on purpose: the rule must not rely on the order it is handed.
const later = photo('pho_b', '2026-12-06T10:05:00.000');
const earlier = photo('pho_a', '2026-12-06T10:01:00.000');
const undated = photo('pho_c', null);
const photos = [undated, later, earlier];

describe('portraitPhotoOf', () => {
  it.each([
    ['the picked photo, wherever it is in the list', 'pho_b', later],
    ['the picked photo without a capture time', 'pho_c', undated],
    ['without a pick, the first by capture order', undefined, earlier],
    ['for a pick no longer among the photos, the first by capture order', 'pho_gone', earlier],
  ])('takes %s', (_case, pickedPhotoId, expected) => {
    expect(portraitPhotoOf(photos, pickedPhotoId)).toBe(expected);
  });

  it('has no portrait for a person without photos, picked or not', () => {
    expect([portraitPhotoOf([], undefined), portraitPhotoOf([], 'pho_a')]).toEqual([undefined, undefined]);
  });
});

describe('pickedPhotoOf', () => {
  it('finds only a pick among the photos: none without a pick, none for a pick that left the person', () => {
    expect([
      pickedPhotoOf(photos, 'pho_a'),
      pickedPhotoOf(photos, undefined),
      pickedPhotoOf(photos, 'pho_gone'),
    ]).toEqual([earlier, undefined, undefined]);
  });
});
