import {
  PHOTO_LINK_LIFETIME_MS,
  PHOTO_LINK_MAX_LENGTH,
  signPhotoLink,
  verifyPhotoLink,
} from '#lib/photos/links/rules/photo-link-token';

const KEY = 'k'.repeat(64);
const AT = Date.parse('2027-06-01T08:00:00Z');
const SUBJECT = {
  tenantId: 'ten_01jabcdefghjkmnpqrstvwxyz0',
  galleryToken: 'gallery1',
  personId: 'per_01jabcdefghjkmnpqrstvwxyz0',
};
const GALLERY = { tenantId: SUBJECT.tenantId, galleryToken: SUBJECT.galleryToken };

describe('photo links', () => {
  it('opens the person it was made for until it expires, seven days on', () => {
    // Act
    const { photoLink, expiresAt } = signPhotoLink(KEY, SUBJECT, AT);
    // Assess
    expect(PHOTO_LINK_LIFETIME_MS).toBe(7 * 24 * 60 * 60_000);
    expect(expiresAt).toBe('2027-06-08T08:00:00.000Z');
    expect(verifyPhotoLink(KEY, GALLERY, photoLink, AT)).toBe(SUBJECT.personId);
    expect(verifyPhotoLink(KEY, GALLERY, photoLink, AT + PHOTO_LINK_LIFETIME_MS - 1000)).toBe(SUBJECT.personId);
    expect(verifyPhotoLink(KEY, GALLERY, photoLink, AT + PHOTO_LINK_LIFETIME_MS)).toBeUndefined();
    expect(photoLink.length).toBeLessThanOrEqual(PHOTO_LINK_MAX_LENGTH);
    expect(photoLink).toMatch(/^[A-Za-z0-9_.-]+$/);
  });

  it('holds no email, name or code: only the person ID, the expiry and the MAC', () => {
    const [personId, expiry, mac, ...rest] = signPhotoLink(KEY, SUBJECT, AT).photoLink.split('.');
    expect([personId, Number(expiry) * 1000, mac!.length, rest]).toEqual([
      SUBJECT.personId,
      AT + PHOTO_LINK_LIFETIME_MS,
      43,
      [],
    ]);
  });

  const made = signPhotoLink(KEY, SUBJECT, AT).photoLink;
  const [personId, expiry, mac] = made.split('.') as [string, string, string];
  it.each([
    ['another key', () => verifyPhotoLink('other key', GALLERY, made, AT)],
    ['another gallery', () => verifyPhotoLink(KEY, { ...GALLERY, galleryToken: 'gallery2' }, made, AT)],
    [
      'another tenant',
      () => verifyPhotoLink(KEY, { ...GALLERY, tenantId: 'ten_01jabcdefghjkmnpqrstvwxyz1' }, made, AT),
    ],
    [
      'another person with the same MAC',
      () => verifyPhotoLink(KEY, GALLERY, `per_01jabcdefghjkmnpqrstvwxyz1.${expiry}.${mac}`, AT),
    ],
    [
      'a later expiry with the same MAC',
      () => verifyPhotoLink(KEY, GALLERY, `${personId}.${Number(expiry) + 1}.${mac}`, AT),
    ],
    [
      'a changed MAC',
      () =>
        verifyPhotoLink(KEY, GALLERY, `${personId}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, AT),
    ],
    ['a short MAC', () => verifyPhotoLink(KEY, GALLERY, `${personId}.${expiry}.${mac.slice(0, 20)}`, AT)],
    ['a part too many', () => verifyPhotoLink(KEY, GALLERY, `${made}.x`, AT)],
    ['no parts', () => verifyPhotoLink(KEY, GALLERY, '', AT)],
    ['a person ID of another shape', () => verifyPhotoLink(KEY, GALLERY, `ten_x.${expiry}.${mac}`, AT)],
  ])('refuses a link with %s', (_case, verify) => {
    expect(verify()).toBeUndefined();
  });
});
