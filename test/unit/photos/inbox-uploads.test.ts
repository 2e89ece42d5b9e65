import { multipartRefusalOf } from '#lib/photos/uploads/adapters/inbox-storage';
import {
  UPLOAD_PART_BYTES,
  decodeInboxCursor,
  encodeInboxCursor,
  isUploadablePath,
  partSizes,
} from '#lib/photos/uploads/rules/inbox';

const MEBIBYTE = 1024 * 1024;

describe('partSizes', () => {
  it.each<[number, number, number[]]>([
    [1, UPLOAD_PART_BYTES.default, [1]],
    [8 * MEBIBYTE, 8 * MEBIBYTE, [8 * MEBIBYTE]],
    [8 * MEBIBYTE + 1, 8 * MEBIBYTE, [8 * MEBIBYTE, 1]],
    [64 * MEBIBYTE, 5 * MEBIBYTE, [...new Array(12).fill(5 * MEBIBYTE), 4 * MEBIBYTE]],
  ])('cuts %i bytes in parts of %i as %j', (size, partSize, expected) => {
    // Act
    const sizes = partSizes(size, partSize);
    // Assess
    expect(sizes).toEqual(expected);
    expect(sizes.reduce((sum, part) => sum + part, 0)).toBe(size);
  });
});

describe('isUploadablePath', () => {
  it.each([
    ['IMG_0001.JPG', true],
    ['cam-a/day 1/IMG_0001.jpeg', true],
    ['a/b/c/IMG.jpg', true],
    ['a/b/c/d/IMG.jpg', false],
    ['../IMG.jpg', false],
    ['cam/../IMG.jpg', false],
    ['/IMG.jpg', false],
    ['cam//IMG.jpg', false],
    ['cam/IMG\t.jpg', false],
    ['cam/IMG.png', false],
    ['cam/IMG.jpg/', false],
  ])('%j: %s', (path, expected) => {
    expect(isUploadablePath(path)).toBe(expected);
  });
});

describe('the inbox cursor', () => {
  it('gives back the path it was made from, and refuses what it did not make', () => {
    expect(decodeInboxCursor(encodeInboxCursor('cam-a/IMG_0001.JPG'))).toBe('cam-a/IMG_0001.JPG');
    expect(decodeInboxCursor(Buffer.from('p1:per_x').toString('base64url'))).toBeUndefined();
    expect(decodeInboxCursor('')).toBeUndefined();
  });
});

describe('multipartRefusalOf', () => {
  const named = (name: string) => Object.assign(new Error(name), { name });

  it.each([
    ['NoSuchUpload', 'upload_not_found'],
    ['InvalidPart', 'invalid_parts'],
    ['InvalidPartOrder', 'invalid_parts'],
    ['EntityTooSmall', 'invalid_parts'],
    ['SlowDown', undefined],
    ['AccessDenied', undefined],
  ])('takes S3 error %s for %s', (name, reason) => {
    expect(multipartRefusalOf(named(name))).toBe(reason);
  });
});
