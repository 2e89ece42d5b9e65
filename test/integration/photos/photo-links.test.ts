import { resetClock, setClock } from '#lib/platform/clock';
import { createGallery, updateGallerySettings } from '#lib/galleries/store/galleries';
import { erasePersons } from '#lib/privacy/erasure';
import { PHOTO_LINK_LIFETIME_MS, signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { PHOTO_LINK_EMAIL_INTERVAL_MS } from '#lib/photos/notices/participant-emails';
import { ERROR_CATALOG } from '#lib/http/errors';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg } from '../../support/media';
import { useSesEmulator } from '../../support/ses';
import { type Participant, givePhoto, importParticipants, photoLinkOfEmail } from '../../support/photo-participants';

/**
 * POST /group-shoot sendPhotoLink and photosByLink (docs/photos.md#photo-links) over HTTP against
 * the local API, answers held to the OpenAPI document, emails read from the local SES.
 */
const CHECKIN_PAGE = 'https://checkin.example.com/page/';
process.env.CHECKIN_PAGE_URL = CHECKIN_PAGE;
process.env.PHOTO_LINK_ANSWER_MS = '150';
const api = useLocalApi();
const ses = useSesEmulator();

let clockOffset = 0;
beforeAll(() => setClock(() => Date.now() + clockOffset));
afterAll(() => resetClock());

const call = (studio: TestTenant, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { token: studio.token, ...body } });
const sendLink = (studio: TestTenant, email: unknown) => call(studio, { action: 'sendPhotoLink', email });
const openLink = (studio: TestTenant, photoLink: unknown) => call(studio, { action: 'photosByLink', photoLink });

const waitForEmails = (address: string, count: number) => ses.waitForEmailsTo(address, count);

describe('POST /group-shoot sendPhotoLink and photosByLink', () => {
  let studio: TestTenant;
  let ada: Participant;
  let child1: Participant;
  let noPhotos: Participant;

  beforeAll(async () => {
    studio = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { photoLookups: { limit: 500, windowMs: 60_000 } },
    });
    [ada, child1, , noPhotos] = (await importParticipants(api.call, studio, studio.token, [
      { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com' },
      { name: 'First Child', email: 'parent@example.com' },
      { name: 'Second Child', email: 'parent@example.com' },
      { name: 'Not Yet', email: 'not.yet@example.com' },
    ])) as [Participant, Participant, Participant, Participant];
    await givePhoto(studio, studio.token, ada.personId, 'ada.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, child1.personId, 'child1.jpg', makeJpeg(16, 16));
  });
  beforeEach(() => {
    // Each test starts outside the email throttle of the ones before it.
    clockOffset += PHOTO_LINK_EMAIL_INTERVAL_MS + 1000;
  });

  it('answers the same for a known and an unknown address, after at least the same time, and emails only the known one a link that opens the photos', async () => {
    // Act
    const started = Date.now();
    const known = await sendLink(studio, ' ada.lovelace@EXAMPLE.com ');
    const knownMs = Date.now() - started;
    const unknown = await sendLink(studio, 'nobody.here@example.com');
    const unknownMs = Date.now() - started - knownMs;
    // Assess
    for (const answer of [known, unknown])
      expect([answer.status, answer.body]).toEqual([
        200,
        { ok: true, photoLinkRequested: true, requestId: answer.headers.get('x-request-id') },
      ]);
    expect(Math.min(knownMs, unknownMs)).toBeGreaterThanOrEqual(150);
    const [email] = await waitForEmails('Ada.Lovelace@Example.com', 1);
    expect(await ses.emailsTo('nobody.here@example.com')).toEqual([]);
    expect(email!.subject).toBe(`Your photo link: ${studio.gallery.galleryName}`);
    expect(email!.body.text).toContain(`${CHECKIN_PAGE}?tenant=${studio.slug}&token=${studio.token}#my-photos/link/`);
    expect(email!.body.text).not.toContain(ada.code);
    const opened = await openLink(studio, photoLinkOfEmail(email!.body.text!));
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      ok: true,
      requestId: expect.any(String),
      name: 'Ada Lovelace',
      urlsExpireAt: expect.any(String),
      photos: [expect.objectContaining({ fileName: 'ada.jpg', url: expect.any(String) })],
      faceConsent: false,
    });
    // The photo's ID is what pickPhoto names; the person's is in no participant answer.
    expect(opened.body.photos[0]).toEqual(
      expect.objectContaining({ photoId: expect.stringMatching(/^pho_/), picked: false }),
    );
    expect(opened.body).not.toHaveProperty('personId');
  });

  it("writes the link email in the language the page asks for, else the gallery's", async () => {
    // Prepare
    await updateGallerySettings(studio.tenant.tenantId, studio.token, { defaultLanguage: 'fr' });
    const before = (await ses.emailsTo('Ada.Lovelace@Example.com')).length;
    // Act
    await call(studio, { action: 'sendPhotoLink', email: 'ada.lovelace@example.com', language: 'de' });
    clockOffset += PHOTO_LINK_EMAIL_INTERVAL_MS + 1000;
    await call(studio, { action: 'sendPhotoLink', email: 'ada.lovelace@example.com' });
    const emails = await waitForEmails('Ada.Lovelace@Example.com', before + 2);
    await updateGallerySettings(studio.tenant.tenantId, studio.token, { defaultLanguage: 'en' });
    // Assess
    const latest = emails.slice(-2);
    expect(latest.map((email) => email.subject)).toEqual([
      `Ihr Link zu Ihren Fotos: ${studio.gallery.galleryName}`,
      `Le lien vers vos photos : ${studio.gallery.galleryName}`,
    ]);
    expect(latest[0]!.body.text).toMatch(/^Guten Tag Ada Lovelace,\n\nHier ist der Link/);
  });

  it('sends one link to each person with the address, each opening only that person', async () => {
    // Act
    await sendLink(studio, 'parent@example.com');
    const emails = await waitForEmails('parent@example.com', 2);
    const opened = await Promise.all(emails.map((email) => openLink(studio, photoLinkOfEmail(email.body.text!))));
    // Assess
    expect(opened.map((answer) => answer.body.name).sort()).toEqual(['First Child', 'Second Child']);
    expect(opened.find((answer) => answer.body.name === 'Second Child')!.body.photos).toEqual([]);
  });

  it('emails a person at most once per interval, however often asked, with the same answer each time', async () => {
    // Act
    const answers = await Promise.all([
      sendLink(studio, 'not.yet@example.com'),
      sendLink(studio, 'not.yet@example.com'),
      sendLink(studio, 'not.yet@example.com'),
    ]);
    const first = await waitForEmails('not.yet@example.com', 1);
    clockOffset += PHOTO_LINK_EMAIL_INTERVAL_MS / 2;
    await sendLink(studio, 'not.yet@example.com');
    clockOffset += PHOTO_LINK_EMAIL_INTERVAL_MS / 2 + 1000;
    await sendLink(studio, 'not.yet@example.com');
    const after = await waitForEmails('not.yet@example.com', 2);
    // Assess
    expect(answers.map((answer) => answer.body.photoLinkRequested)).toEqual([true, true, true]);
    expect([first.length, after.length]).toEqual([1, 2]);
  });

  it('gives 403 photo_link_invalid to an expired, forged, foreign or malformed link, and takes a link until it expires', async () => {
    // Prepare
    await sendLink(studio, 'ada.lovelace@example.com');
    const emails = await waitForEmails('Ada.Lovelace@Example.com', 2);
    const photoLink = photoLinkOfEmail(emails.at(-1)!.body.text!);
    const [personId, expiry, mac] = photoLink.split('.') as [string, string, string];
    const sibling = await createGallery(studio.tenant.tenantId, { ...studio.gallery, galleryName: 'Sibling' });
    const otherTenant = await createTestTenant();
    const cases = [
      `${noPhotos.personId}.${expiry}.${mac}`,
      `${personId}.${Number(expiry) + 86_400}.${mac}`,
      `${personId}.${expiry}.${mac.slice(0, -2)}AA`,
      signPhotoLink(
        'another key',
        { tenantId: studio.tenant.tenantId, galleryToken: studio.token, personId },
        Date.now(),
      ).photoLink,
      'not-a-link',
    ];
    // Act
    const answers = await Promise.all(cases.map((link) => openLink(studio, link)));
    const inSibling = await call(studio, { action: 'photosByLink', token: sibling.token, photoLink });
    const inOtherTenant = await api.call('/group-shoot', {
      method: 'POST',
      headers: otherTenant.publicHeaders,
      body: { action: 'photosByLink', token: otherTenant.token, photoLink },
    });
    const lastMoment = clockOffset;
    clockOffset += PHOTO_LINK_LIFETIME_MS - 60_000;
    const late = await openLink(studio, photoLink);
    clockOffset = lastMoment + PHOTO_LINK_LIFETIME_MS + 1000;
    const expired = await openLink(studio, photoLink);
    // Assess
    for (const answer of [...answers, inSibling, inOtherTenant, expired]) {
      expect([answer.status, answer.body]).toEqual([
        403,
        {
          ok: false,
          error: 'photo_link_invalid',
          message: ERROR_CATALOG.photo_link_invalid.message,
          requestId: expect.any(String),
        },
      ]);
    }
    expect(late.status).toBe(200);
  });

  it('ends the links of an erased person, and erases the idempotency record of a photosByLink answer', async () => {
    // Prepare
    const [erin] = await importParticipants(api.call, studio, studio.token, [
      { name: 'Erin Erased', email: 'erin@example.com' },
    ]);
    await sendLink(studio, 'erin@example.com');
    const [email] = await waitForEmails('erin@example.com', 1);
    const photoLink = photoLinkOfEmail(email!.body.text!);
    // With an Idempotency-Key: the record names the person although the answer does not, so erasure finds it.
    const remembered = await api.call('/group-shoot', {
      method: 'POST',
      headers: { ...studio.publicHeaders, 'Idempotency-Key': `photos-by-link-${erin!.personId}` },
      body: { action: 'photosByLink', token: studio.token, photoLink },
    });
    expect([remembered.status, remembered.body.name]).toEqual([200, 'Erin Erased']);
    // Act
    const receipt = await erasePersons(
      { tenantId: studio.tenant.tenantId, token: studio.token },
      { personId: erin!.personId },
    );
    const answer = await openLink(studio, photoLink);
    const asked = await sendLink(studio, 'erin@example.com');
    // Assess
    expect(receipt.idempotencyRecords).toBe(1);
    expect([answer.status, answer.body.error]).toEqual([403, 'photo_link_invalid']);
    expect(asked.body.photoLinkRequested).toBe(true);
    expect(await waitForEmails('erin@example.com', 2)).toHaveLength(1);
  });

  it.each([
    ['no email', { action: 'sendPhotoLink' }, 400, 'email_required'],
    ['a blank email', { action: 'sendPhotoLink', email: ' ' }, 400, 'email_required'],
    ['an email that is no address', { action: 'sendPhotoLink', email: 'ada at example' }, 400, 'invalid_field'],
    ['an email that is a number', { action: 'sendPhotoLink', email: 7 }, 400, 'invalid_field'],
    [
      'a language of none of ours',
      { action: 'sendPhotoLink', email: 'ada@example.com', language: 'EN' },
      400,
      'invalid_field',
    ],
    ['no photoLink', { action: 'photosByLink' }, 400, 'invalid_field'],
    ['a photoLink over its length', { action: 'photosByLink', photoLink: 'x'.repeat(500) }, 400, 'invalid_field'],
    [
      'an unknown gallery',
      { action: 'sendPhotoLink', token: 'nope', email: 'ada@example.com' },
      404,
      'gallery_not_found',
    ],
  ])('refuses %s', async (_case, body, status, error) => {
    const answer = await call(studio, body);
    expect([answer.status, answer.body.error]).toEqual([status, error]);
  });

  it('draws on the per-client lookup budget of the email or link it names', async () => {
    // Prepare
    const limited = await createTestTenant();
    await updateGallerySettings(limited.tenant.tenantId, limited.token, {
      publicLimits: { photoLookups: { limit: 2, windowMs: 60 * 60_000 } },
    });
    // Act: the same client, one email three times, then a link and another email.
    const answers = [
      await sendLink(limited, 'a@example.com'),
      await sendLink(limited, 'a@example.com'),
      await sendLink(limited, 'a@example.com'),
      await openLink(limited, 'not-a-link'),
      await sendLink(limited, 'b@example.com'),
    ];
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 403, 200]);
  });
});
