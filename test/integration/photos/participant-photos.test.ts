import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as postGroupShoot } from '../../../functions/checkin/post-group-shoot';
import { lambdaContext } from '../../../scripts/local/api-gateway-event';
import { installRoundTripCounter } from '../../../scripts/bench/round-trip-counter';
import { resetClock, setClock } from '#lib/platform/clock';
import { db } from '#lib/platform/table/client';
import { createGallery, updateGallerySettings } from '#lib/galleries/store/galleries';
import { recordPhoto } from '#lib/photos/store/photos';
import { photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { DEFAULT_PUBLIC_LIMITS, type PublicLimits } from '#lib/galleries/rules/public-limits';
import { ERROR_CATALOG } from '#lib/http/errors';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg, uploadObject } from '../../support/media';

/**
 * POST /group-shoot myPhotos: a participant's photos by gallery token, access code and email
 * (or employee ID where the person has none). Pairs over HTTP against the local API (answers
 * held to the OpenAPI document); the attempt limits in process, so that each request can come
 * from an address of its own and the clock stands still.
 */
const api = useLocalApi();
const counter = installRoundTripCounter(db);

interface Participant {
  personId: string;
  code: string;
  email: string | null;
  employeeId: string | null;
}

async function importPersons(studio: TestTenant, token: string, persons: { name: string; email?: string; employeeId?: string }[]): Promise<Participant[]> {
  const answer = await api.call(`/groupshoot/${token}/persons`, { method: 'POST', headers: studio.serverHeaders, body: { persons } });
  expect(answer.status).toBe(200);
  return answer.body.persons;
}

/** A photo of the person as ingest records one: the object in the bucket and its record. */
async function givePhoto(studio: TestTenant, token: string, personId: string, fileName: string, jpeg: Buffer): Promise<void> {
  const objectKey = photoObjectKey({ tenantId: studio.tenant.tenantId, token, personId, fileName });
  await uploadObject(objectKey, jpeg);
  const recorded = await recordPhoto(
    { tenantId: studio.tenant.tenantId, token },
    { photoId: photoIdOf(objectKey), personId, fileName, objectKey, width: 64, height: 48, capturedAt: null, createdAt: new Date(Date.now() + fileName.length).toISOString() },
  );
  expect(recorded).toBe('recorded');
}

const lookUp = (studio: TestTenant, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { action: 'myPhotos', token: studio.token, ...body } });

describe('POST /group-shoot myPhotos', () => {
  let studio: TestTenant;
  let ada: Participant;
  let grace: Participant;
  let linus: Participant;
  const portrait = makeJpeg(64, 48);

  beforeAll(async () => {
    studio = await createTestTenant();
    // One client (127.0.0.1) asks many times here: this gallery lets it.
    await updateGallerySettings(studio.tenant.tenantId, studio.token, { publicLimits: { photoLookups: { limit: 500, windowMs: 60_000 } } });
    [ada, grace, linus] = await importPersons(studio, studio.token, [
      { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com', employeeId: 'E-1' },
      { name: 'Grace Hopper', employeeId: 'E-2' },
      { name: 'Linus Nobody', email: 'linus@example.com' },
    ]) as [Participant, Participant, Participant];
    await givePhoto(studio, studio.token, ada.personId, 'ada-1.jpg', portrait);
    await givePhoto(studio, studio.token, ada.personId, 'ada-2.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, grace.personId, 'grace.jpg', makeJpeg(20, 20));
  });

  it('answers the photos of the right code and email, with signed URLs that serve the files, and no ID members', async () => {
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
        { fileName: 'ada-1.jpg', width: 64, height: 48, capturedAt: null, createdAt: expect.any(String), url: expect.any(String) },
        { fileName: 'ada-2.jpg', width: 64, height: 48, capturedAt: null, createdAt: expect.any(String), url: expect.any(String) },
      ],
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
    expect(answer.body).toEqual({ ok: false, error: 'photos_not_found', message: ERROR_CATALOG.photos_not_found.message, requestId: expect.any(String) });
  });

  it.each([
    ['a code of 3 characters', { code: 'ABC', email: 'a@example.com' }, 'code'],
    ['a code with a character outside the alphabet', { code: 'ABC0', email: 'a@example.com' }, 'code'],
    ['no code', { email: 'a@example.com' }, 'code'],
    ['an email over 200 characters', { code: 'ABCD', email: `${'a'.repeat(200)}@example.com` }, 'email'],
    ['an employee ID that is a number', { code: 'ABCD', employeeId: 7 }, 'employeeId'],
  ])('gives 400 invalid_field for %s', async (_case, body, field) => {
    const answer = await lookUp(studio, body);
    expect([answer.status, answer.body.error, answer.body.field]).toEqual([400, 'invalid_field', field]);
  });

  it('never shows a person of another gallery or another tenant', async () => {
    // Prepare: the same code and email in a sibling gallery and in another tenant's gallery
    const sibling = await createGallery(studio.tenant.tenantId, { ...studio.gallery, galleryName: 'Sibling' });
    const [theirs] = await importPersons(studio, sibling.token, [{ name: 'Sibling Ada', email: 'sibling@example.com' }]);
    await givePhoto(studio, sibling.token, theirs!.personId, 'sibling.jpg', makeJpeg(8, 8));
    const other = await createTestTenant();
    const [foreign] = await importPersons(other, other.token, [{ name: 'Foreign', email: 'foreign@example.com' }]);
    // Act
    const answers = await Promise.all([
      lookUp(studio, { code: theirs!.code, email: 'sibling@example.com' }),
      lookUp(studio, { code: foreign!.code, email: 'foreign@example.com' }),
      api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { action: 'myPhotos', token: other.token, code: foreign!.code, email: 'foreign@example.com' } }),
      api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { action: 'myPhotos', token: sibling.token, code: theirs!.code, email: 'sibling@example.com' } }),
    ]);
    // Assess: in the own gallery an unknown pair (unless the code happens to exist there), another tenant's token unknown
    expect(answers.slice(0, 2).map((answer) => answer.body.error)).toEqual(['photos_not_found', 'photos_not_found']);
    expect([answers[2]!.status, answers[2]!.body.error]).toEqual([404, 'gallery_not_found']);
    expect([answers[3]!.status, answers[3]!.body.photos.map((photo: { fileName: string }) => photo.fileName)]).toEqual([200, ['sibling.jpg']]);
  });

  it('gives gallery_not_found for an unknown token and token_required without one', async () => {
    const unknown = await lookUp(studio, { token: 'nope', code: ada.code, email: 'ada.lovelace@example.com' });
    const missing = await lookUp(studio, { token: undefined, code: ada.code, email: 'ada.lovelace@example.com' });
    expect([unknown.status, unknown.body.error, missing.status, missing.body.error]).toEqual([404, 'gallery_not_found', 400, 'token_required']);
  });

  it("checks the gallery before the body: the gallery's error comes before the code's", async () => {
    const unknown = await lookUp(studio, { token: 'nope', code: 'not a code', email: 42 });
    const missing = await lookUp(studio, { token: undefined, code: undefined });
    expect([unknown.status, unknown.body.error, missing.status, missing.body.error]).toEqual([404, 'gallery_not_found', 400, 'token_required']);
  });
});

describe('myPhotos attempt limits', () => {
  function event(sourceIp: string, slug: string, body: unknown) {
    return {
      version: '2.0',
      routeKey: 'POST /group-shoot',
      rawPath: '/v1/group-shoot',
      rawQueryString: '',
      headers: { 'x-tenant-slug': slug, 'content-type': 'application/json' },
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: 'localhost',
        domainPrefix: 'localhost',
        http: { method: 'POST', path: '/v1/group-shoot', protocol: 'HTTP/1.1', sourceIp, userAgent: 'test' },
        requestId: `req-${Math.random().toString(36).slice(2)}`,
        routeKey: 'POST /group-shoot',
        stage: 'v1',
        time: new Date(clockMs).toUTCString(),
        timeEpoch: clockMs,
      },
      body: JSON.stringify(body),
      isBase64Encoded: false,
    } as APIGatewayProxyEventV2;
  }

  async function post(studio: TestTenant, sourceIp: string, body: Record<string, unknown>) {
    const { statusCode, headers, body: text } = (await postGroupShoot(
      event(sourceIp, studio.slug, { action: 'myPhotos', token: studio.token, ...body }) as any,
      lambdaContext('photos'),
    )) as APIGatewayProxyStructuredResultV2;
    return { status: statusCode ?? 200, headers: (headers ?? {}) as Record<string, string>, body: JSON.parse(String(text)) };
  }

  let clockMs = 0;
  beforeEach(() => {
    clockMs = Date.parse('2027-06-01T08:00:00Z');
    setClock(() => clockMs);
  });
  afterEach(() => resetClock());

  async function studioWith(limits: Partial<PublicLimits>) {
    const studio = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, { publicLimits: limits });
    const [person] = await importPersons(studio, studio.token, [{ name: 'Limited', email: 'limited@example.com' }]);
    return { studio, person: person! };
  }
  const wrongCode = (code: string) => (code === 'ZZZZ' ? 'YYYY' : 'ZZZZ');

  it('refuses a client past its lookup budget with 429 and Retry-After, right pairs included, and writes nothing then', async () => {
    // Prepare
    const { studio, person } = await studioWith({ photoLookups: { limit: 3, windowMs: 60 * 60_000 } });
    const right = { code: person.code, email: 'limited@example.com' };
    // Act
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push(await post(studio, '198.51.100.1', right));
    const { result: refused, count } = await counter.measure(() => post(studio, '198.51.100.1', right));
    const otherClient = await post(studio, '198.51.100.2', right);
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect([refused.status, refused.body.error, refused.headers['Retry-After']]).toEqual([429, 'rate_limit_exceeded', '1200']);
    expect(refused.body.message).toBe('Rate limit of 3 requests per hour exceeded; retry in 1200 seconds.');
    expect(count.operations.filter((operation) => operation !== 'Query' && operation !== 'GetItem')).toEqual([]);
    expect(otherClient.status).toBe(200);
  });

  it("refuses every client once the gallery's wrong pairs are spent, the right pair too, and writes nothing then", async () => {
    // Prepare
    const { studio, person } = await studioWith({ photoLookupFailures: { limit: 3, windowMs: 3 * 60 * 60_000 } });
    const wrong = { code: wrongCode(person.code), email: 'limited@example.com' };
    // Act: three wrong pairs, each from an address of its own
    const wrongs = [];
    for (let index = 1; index <= 3; index += 1) wrongs.push(await post(studio, `203.0.113.${index}`, wrong));
    const { result: refused, count } = await counter.measure(() => post(studio, '203.0.113.50', { code: person.code, email: 'limited@example.com' }));
    // Assess
    expect(wrongs.map((answer) => [answer.status, answer.body.error])).toEqual(Array(3).fill([404, 'photos_not_found']));
    expect([refused.status, refused.body.error, refused.headers['Retry-After'], refused.headers['X-RateLimit-Limit']]).toEqual([429, 'rate_limit_exceeded', '3600', '3']);
    expect(refused.body.message).toMatch(/wrong access code or email.*retry in 3600 seconds/);
    expect(Number(refused.headers['X-RateLimit-Reset'])).toBe(Math.floor(clockMs / 1000) + 3600);
    // The refused request took from its own client's counter and wrote nothing else: no person read, no photos, no refund.
    expect(count.operations.sort()).toEqual(['Query', 'Query', 'UpdateItem']);
    clockMs += 3600 * 1000;
    expect((await post(studio, '203.0.113.51', { code: person.code, email: 'limited@example.com' })).status).toBe(200);
  });

  it('gives a right pair its charge back, so that lookups of right pairs never spend the budget of wrong ones', async () => {
    // Prepare
    const { studio, person } = await studioWith({ photoLookupFailures: { limit: 2, windowMs: 2 * 60 * 60_000 } });
    const right = { code: person.code, email: 'limited@example.com' };
    // Act: many right pairs from many clients, then wrong ones
    for (let index = 1; index <= 6; index += 1) expect((await post(studio, `192.0.2.${index}`, right)).status).toBe(200);
    const wrongs = [];
    for (let index = 1; index <= 3; index += 1) wrongs.push((await post(studio, `192.0.2.${10 + index}`, { ...right, email: 'other@example.com' })).status);
    // Assess: the whole budget of two was left for wrong pairs
    expect(wrongs).toEqual([404, 404, 429]);
  });

  it('keeps the budgets of other galleries whole', async () => {
    const limits = { photoLookupFailures: { limit: 1, windowMs: 60 * 60_000 } };
    const first = await studioWith(limits);
    const second = await studioWith(limits);
    await post(first.studio, '198.51.100.60', { code: wrongCode(first.person.code), email: 'x@example.com' });
    const answers = [
      await post(first.studio, '198.51.100.61', { code: first.person.code, email: 'limited@example.com' }),
      await post(second.studio, '198.51.100.61', { code: second.person.code, email: 'limited@example.com' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([429, 200]);
  });

  it('has defaults under which a family looking a few times passes and a search takes years', async () => {
    // Prepare
    const { studio, person } = await studioWith({});
    const right = { code: person.code, email: 'limited@example.com' };
    // Act: a family behind one address, five looks and two typos
    const statuses = [];
    for (const body of [right, { ...right, email: 'limted@example.com' }, right, right, { ...right, code: wrongCode(person.code) }, right, right]) {
      statuses.push((await post(studio, '198.51.100.70', body)).status);
    }
    // Assess
    expect(statuses).toEqual([200, 404, 200, 200, 404, 200, 200]);
    const { limit, windowMs } = DEFAULT_PUBLIC_LIMITS.photoLookupFailures;
    const wrongPairsPerYear = limit + (365 * 24 * 60 * 60_000) / (windowMs / limit);
    expect(wrongPairsPerYear / 923_521).toBeLessThan(0.02); // under 2 % to find one given person's code in a year
    expect(DEFAULT_PUBLIC_LIMITS.photoLookups.limit).toBeGreaterThanOrEqual(10);
  });
});
