import { MAX_PATHS_PER_ERASURE, photoCdnPath, photoInvalidationPaths } from '#lib/privacy/rules/cdn-invalidation';

const scope = { tenantId: 'ten_a', token: 'tok' };
const inbox = (index: number) => `photos/ten_a/tok/inbox/card-1/IMG_${index}.JPG`;

describe('photoInvalidationPaths', () => {
  it('maps an object under photos/ to its path on the CDN, whose origin path is /photos', () => {
    expect(photoCdnPath('photos/ten_a/tok/per_1/a.jpg')).toBe('/ten_a/tok/per_1/a.jpg');
  });

  it("gives a whole gallery's erasure one wildcard", () => {
    expect(
      photoInvalidationPaths(scope, {
        wholeGallery: true,
        personIds: [],
        objectKeys: ['photos/ten_a/tok/per_1/a.jpg', inbox(1)],
      }),
    ).toEqual(['/ten_a/tok/*']);
  });

  it('gives persons a wildcard for their folder and exact paths for their shoot photos in the inbox', () => {
    const paths = photoInvalidationPaths(scope, {
      wholeGallery: false,
      personIds: ['per_1'],
      objectKeys: ['photos/ten_a/tok/per_1/a.jpg', 'photos/ten_a/tok/per_1/b.jpg', inbox(1)],
    });
    expect(paths).toEqual(['/ten_a/tok/per_1/*', '/ten_a/tok/inbox/card-1/IMG_1.JPG']);
  });

  it(`falls back to the gallery's wildcard past ${MAX_PATHS_PER_ERASURE} paths`, () => {
    const keys = Array.from({ length: MAX_PATHS_PER_ERASURE }, (_, index) => inbox(index));
    const withFolder = [...keys, 'photos/ten_a/tok/per_1/a.jpg'];
    expect(
      photoInvalidationPaths(scope, { wholeGallery: false, personIds: ['per_1'], objectKeys: withFolder }),
    ).toEqual(['/ten_a/tok/*']);
    expect(photoInvalidationPaths(scope, { wholeGallery: false, personIds: [], objectKeys: keys })).toHaveLength(
      MAX_PATHS_PER_ERASURE,
    );
  });

  it('names no folder of a person who had no photo in it', () => {
    expect(
      photoInvalidationPaths(scope, {
        wholeGallery: false,
        personIds: ['per_1', 'per_2'],
        objectKeys: ['photos/ten_a/tok/per_2/a.jpg'],
      }),
    ).toEqual(['/ten_a/tok/per_2/*']);
  });

  it('asks for nothing when no photo was deleted (selfies are not on the CDN)', () => {
    expect(
      photoInvalidationPaths(scope, {
        wholeGallery: true,
        personIds: ['per_1'],
        objectKeys: ['selfies/ten_a/tok/per_1.jpg'],
      }),
    ).toEqual([]);
  });
});
