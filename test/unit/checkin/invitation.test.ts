import {
  INVITATION_LIFETIME_MS,
  invitationEmailContent,
  invitationUrl,
  signInvitation,
  verifyInvitation,
} from '#lib/checkin/rules/invitation';
import { signPhotoLink, verifyPhotoLink } from '#lib/photos/links/rules/photo-link-token';

const KEY = 'test-key-0123456789abcdef';
const GALLERY = { tenantId: 'ten_1', galleryToken: 'gal_1' };
const SUBJECT = { ...GALLERY, personId: 'per_01h00000000000000000000000' };
const AT = Date.parse('2027-03-01T10:00:00Z');

describe('check-in invitations', () => {
  it('name their person in their gallery until they expire, 14 days on', () => {
    const { invitation, expiresAt } = signInvitation(KEY, SUBJECT, AT);
    expect(verifyInvitation(KEY, GALLERY, invitation, AT)).toBe(SUBJECT.personId);
    expect(verifyInvitation(KEY, GALLERY, invitation, AT + INVITATION_LIFETIME_MS - 1000)).toBe(SUBJECT.personId);
    expect(verifyInvitation(KEY, GALLERY, invitation, AT + INVITATION_LIFETIME_MS)).toBeUndefined();
    expect(expiresAt).toBe('2027-03-15T10:00:00.000Z');
  });

  it('open nothing in another gallery or tenant, with another key, or changed', () => {
    const { invitation } = signInvitation(KEY, SUBJECT, AT);
    expect(verifyInvitation(KEY, { ...GALLERY, galleryToken: 'gal_2' }, invitation, AT)).toBeUndefined();
    expect(verifyInvitation(KEY, { ...GALLERY, tenantId: 'ten_2' }, invitation, AT)).toBeUndefined();
    expect(verifyInvitation('another-key', GALLERY, invitation, AT)).toBeUndefined();
    const [personId, expiry, mac] = invitation.split('.');
    expect(verifyInvitation(KEY, GALLERY, `${personId}.${Number(expiry) + 86_400}.${mac}`, AT)).toBeUndefined();
    expect(verifyInvitation(KEY, GALLERY, 'per_x.1.abc', AT)).toBeUndefined();
  });

  it('are no photo links, and photo links are no invitations', () => {
    const { invitation } = signInvitation(KEY, SUBJECT, AT);
    const { photoLink } = signPhotoLink(KEY, SUBJECT, AT);
    expect(verifyPhotoLink(KEY, GALLERY, invitation, AT)).toBeUndefined();
    expect(verifyInvitation(KEY, GALLERY, photoLink, AT)).toBeUndefined();
  });

  it("travel in the page address's fragment", () => {
    const url = new URL(
      invitationUrl('https://checkin.example/page/', {
        tenantSlug: 'acme',
        galleryToken: 'gal_1',
        invitation: 'per_1.2.abc',
      }),
    );
    expect([url.searchParams.get('tenant'), url.searchParams.get('token'), url.hash]).toEqual([
      'acme',
      'gal_1',
      '#invitation/per_1.2.abc',
    ]);
  });
});

describe('the invitation email', () => {
  const input = {
    personName: 'Jürgen <Müller>',
    galleryName: 'Acme portraits',
    studioName: 'Studio',
    checkinUrl: 'https://checkin.example/?tenant=acme#invitation/x',
    expiresAt: '2027-03-15T10:00:00.000Z',
  };

  it("greets by name, then a capitalised sentence, in the participant's language with its own dates", () => {
    const german = invitationEmailContent({ ...input, language: 'de' });
    expect(german.text.split('\n').slice(0, 3)).toEqual([
      'Guten Tag Jürgen <Müller>,',
      '',
      expect.stringMatching(/^Sie sind zum Fotoshooting/),
    ]);
    expect(german.text).toContain('bis zum 15. März 2027');
    expect(invitationEmailContent({ ...input, language: 'fr' }).text).toContain("jusqu'au 15 mars 2027");
    expect(invitationEmailContent({ ...input, language: 'en' }).text).toContain('until 15 March 2027');
  });

  it('escapes what participants and studios typed in its HTML, and keeps its subject on one line', () => {
    const { html, subject } = invitationEmailContent({ ...input, galleryName: 'Acme\r\nBcc: x@y', language: 'en' });
    expect(html).toContain('Jürgen &#60;Müller&#62;');
    expect(html).not.toContain('<Müller>');
    expect(subject).toBe('Your check-in link: Acme Bcc: x@y');
  });
});
