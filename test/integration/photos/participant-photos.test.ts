import { createGallery, updateGallerySettings } from '#lib/galleries/store/galleries';
import { ERROR_CATALOG } from '#lib/http/errors';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg } from '../../support/media';
import { type Participant, givePhoto, importParticipants } from '../../support/photo-participants';

/**
 * POST /group-shoot myPhotos: a participant's photos by gallery token, access code and email
 * (or employee ID where the person has none), where the gallery takes these ways in. Over HTTP
 * against the local API (answers held to the OpenAPI document); the attempt limits are in
 * photo-lookup-limits.test.ts.
 */
const api = useLocalApi();

const importPersons = (
  studio: TestTenant,
  token: string,
  persons: { name: string; email?: string; employeeId?: string }[],
) => importParticipants(api.call, studio, token, persons);

const lookUp = (studio: TestTenant, body: Record<string, unknown>) =>
  api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: { action: 'myPhotos', token: studio.token, ...body },
  });

describe('POST /group-shoot myPhotos', () => {
  let studio: TestTenant;
  let ada: Participant;
  let grace: Participant;
  let linus: Participant;
  const portrait = makeJpeg(64, 48);

  beforeAll(async () => {
    studio = await createTestTenant();
    // One client (127.0.0.1) asks many times here, and many of its pairs are wrong: this gallery lets it.
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: {
        photoLookups: { limit: 500, windowMs: 60_000 },
        photoLookupFailuresPerSite: { limit: 500, windowMs: 60_000 },
      },
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: true },
    });
    [ada, grace, linus] = (await importPersons(studio, studio.token, [
      { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com', employeeId: 'E-1' },
      { name: 'Grace Hopper', employeeId: 'E-2' },
      { name: 'Linus Nobody', email: 'linus@example.com' },
    ])) as [Participant, Participant, Participant];
    await givePhoto(studio, studio.token, ada.personId, 'ada-1.jpg', portrait);
    await givePhoto(studio, studio.token, ada.personId, 'ada-2.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, grace.personId, 'grace.jpg', makeJpeg(20, 20));
  });

  it("answers the photos of the right code and email, with signed URLs that serve the files, each photo's ID, and not the person's", async () => {
    // Act: the code in lower case with space around it, the address in other case
    const answer = await lookUp(studio, { code: ` ${ada.code.toLowerCase()} `, email: ' ada.lovelace@example.COM ' });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      requestId: answer.headers.get('x-request-id'),
      name: 'Ada Lovelace',
      urlsExpireAt: expect.any(String),
      photos: [
        {
          photoId: expect.stringMatching(/^pho_/),
          fileName: 'ada-1.jpg',
          width: 64,
          height: 48,
          capturedAt: null,
          createdAt: expect.any(String),
          url: expect.any(String),
          picked: false,
        },
        {
          photoId: expect.stringMatching(/^pho_/),
          fileName: 'ada-2.jpg',
          width: 64,
          height: 48,
          capturedAt: null,
          createdAt: expect.any(String),
          url: expect.any(String),
          picked: false,
        },
      ],
      faceConsent: false,
    });
    const url = new URL(answer.body.photos[0].url);
    expect([...url.searchParams.keys()].sort()).toEqual(['Expires', 'Key-Pair-Id', 'Signature']);
    expect(Number(url.searchParams.get('Expires')) * 1000).toBe(Date.parse(answer.body.urlsExpireAt));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(portrait)).toBe(true);
  });

  it('answers the photos of the right code and employee ID for a person without an email', async () => {
    const answer = await lookUp(studio, { code: grace.code, employeeId: 'E-2' });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('Grace Hopper');
    expect(answer.body.photos.map((photo: { fileName: string }) => photo.fileName)).toEqual(['grace.jpg']);
  });

  it('answers an empty list to a right pair without photos yet', async () => {
    const answer = await lookUp(studio, { code: linus.code, email: 'linus@example.com' });
    expect([answer.status, answer.body.photos]).toEqual([200, []]);
  });

  it('takes the email when both factors are given', async () => {
    const answer = await lookUp(studio, { code: ada.code, email: 'ada.lovelace@example.com', employeeId: 'wrong' });
    expect(answer.status).toBe(200);
  });

  const unknownCode = (code: string) => (code.startsWith('A') ? 'BBBB' : 'AAAA');
  it.each([
    ['an unknown code', () => ({ code: unknownCode(ada.code), email: 'ada.lovelace@example.com' })],
    ['another email', () => ({ code: ada.code, email: 'grace@example.com' })],
    ["another person's email", () => ({ code: ada.code, email: 'linus@example.com' })],
    ['the employee ID of a person who has an email', () => ({ code: ada.code, employeeId: 'E-1' })],
    ['a wrong employee ID', () => ({ code: grace.code, employeeId: 'E-3' })],
    ['an employee ID in other case', () => ({ code: grace.code, employeeId: 'e-2' })],
    ['an email for a person without one', () => ({ code: grace.code, email: 'grace@example.com' })],
    ['no second factor', () => ({ code: ada.code })],
    ['blank factors', () => ({ code: ada.code, email: ' ', employeeId: '' })],
  ])('gives the one refusal for %s: 404 photos_not_found, the same body', async (_case, bodyOf) => {
    // Act
    const answer = await lookUp(studio, bodyOf());
    // Assess
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      ok: false,
      error: 'photos_not_found',
      message: ERROR_CATALOG.photos_not_found.message,
      requestId: expect.any(String),
    });
  });

  it.each([
    ['a code of 3 characters', { code: 'ABC', email: 'a@example.com' }, 'code'],
    ['a code with a character outside the alphabet', { code: 'ABC0', email: 'a@example.com' }, 'code'],
    ['no code', { email: 'a@example.com' }, 'code'],
    ['an email over 200 characters', { code: 'ABCD', email: `${'a'.repeat(200)}@example.com` }, 'email'],
    ['an employee ID that is a number', { code: 'ABCD', employeeId: 7 }, 'employeeId'],
    ['an email that is a number', { code: 'ABCD', email: 7 }, 'email'],
  ])('gives 400 invalid_field for %s', async (_case, body, field) => {
    const answer = await lookUp(studio, body);
    expect([answer.status, answer.body.error, answer.body.field]).toEqual([400, 'invalid_field', field]);
  });

  it('never shows a person of another gallery or another tenant', async () => {
    // Prepare: the same code and email in a sibling gallery and in another tenant's gallery
    const sibling = await createGallery(studio.tenant.tenantId, {
      ...studio.gallery,
      galleryName: 'Sibling',
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    const [theirs] = await importPersons(studio, sibling.token, [
      { name: 'Sibling Ada', email: 'sibling@example.com' },
    ]);
    await givePhoto(studio, sibling.token, theirs!.personId, 'sibling.jpg', makeJpeg(8, 8));
    const other = await createTestTenant();
    const [foreign] = await importPersons(other, other.token, [{ name: 'Foreign', email: 'foreign@example.com' }]);
    // Act
    const answers = await Promise.all([
      lookUp(studio, { code: theirs!.code, email: 'sibling@example.com' }),
      lookUp(studio, { code: foreign!.code, email: 'foreign@example.com' }),
      api.call('/group-shoot', {
        method: 'POST',
        headers: studio.publicHeaders,
        body: { action: 'myPhotos', token: other.token, code: foreign!.code, email: 'foreign@example.com' },
      }),
      api.call('/group-shoot', {
        method: 'POST',
        headers: studio.publicHeaders,
        body: { action: 'myPhotos', token: sibling.token, code: theirs!.code, email: 'sibling@example.com' },
      }),
    ]);
    // Assess: in the own gallery an unknown pair (unless the code happens to exist there), another tenant's token unknown
    expect(answers.slice(0, 2).map((answer) => answer.body.error)).toEqual(['photos_not_found', 'photos_not_found']);
    expect([answers[2].status, answers[2].body.error]).toEqual([404, 'gallery_not_found']);
    expect([answers[3].status, answers[3].body.photos.map((photo: { fileName: string }) => photo.fileName)]).toEqual([
      200,
      ['sibling.jpg'],
    ]);
  });

  it('gives gallery_not_found for an unknown token and token_required without one', async () => {
    const unknown = await lookUp(studio, { token: 'nope', code: ada.code, email: 'ada.lovelace@example.com' });
    const missing = await lookUp(studio, { token: undefined, code: ada.code, email: 'ada.lovelace@example.com' });
    expect([unknown.status, unknown.body.error, missing.status, missing.body.error]).toEqual([
      404,
      'gallery_not_found',
      400,
      'token_required',
    ]);
  });

  it.each([
    [
      'code and email where the gallery takes only links',
      { codeAndEmail: false, codeAndEmployeeId: true },
      { email: 'ada.lovelace@example.com' },
    ],
    [
      'code and employee ID where the gallery takes only code and email',
      { codeAndEmail: true, codeAndEmployeeId: false },
      { employeeId: 'E-2' },
    ],
    ['no second factor where the gallery takes neither', { codeAndEmail: false, codeAndEmployeeId: false }, {}],
  ])('gives 403 photo_lookup_by_code_disabled for %s, right pair or not', async (_case, photoAccess, factor) => {
    // Prepare: a gallery of its own, with one way off
    const other = await createTestTenant();
    await updateGallerySettings(other.tenant.tenantId, other.token, { photoAccess });
    const [person] = await importPersons(other, other.token, [
      { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' },
    ]);
    // Act
    const answers = await Promise.all([
      lookUp(other, { code: person!.code, ...factor }),
      lookUp(other, { code: unknownCode(person!.code), ...factor }),
    ]);
    // Assess: the same answer for the right code and a wrong one
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(2).fill([403, 'photo_lookup_by_code_disabled']),
    );
  });

  it("checks the gallery before the body: the gallery's error comes before the code's", async () => {
    const unknown = await lookUp(studio, { token: 'nope', code: 'not a code', email: 42 });
    const missing = await lookUp(studio, { token: undefined, code: undefined });
    expect([unknown.status, unknown.body.error, missing.status, missing.body.error]).toEqual([
      404,
      'gallery_not_found',
      400,
      'token_required',
    ]);
  });
});
