import { installRoundTripCounter } from '../../../scripts/bench/round-trip-counter';
import { resetClock, setClock } from '#lib/platform/clock';
import { db } from '#lib/platform/table/client';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { ACCESS_CODE_ALPHABET } from '#lib/persons/rules/access-codes';
import { DEFAULT_PUBLIC_LIMITS, type PublicLimits } from '#lib/galleries/rules/public-limits';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg } from '../../support/media';
import { useSesEmulator } from '../../support/ses';
import {
  type Participant,
  givePhoto,
  importParticipants,
  photoLinkOfEmail,
  postFrom,
} from '../../support/photo-participants';

/**
 * The attempt limits of myPhotos (docs/photos.md#limits-on-photo-lookups), in process, so that
 * each request comes from an address of its own and the clock stands still: the per-client
 * volume budget, and the three budgets of wrong pairs, none of which can lock anybody out.
 */
process.env.CHECKIN_PAGE_URL = 'https://checkin.example.com/page/';
// The uniform answer's minimum time is not under test here (photo-links.test.ts holds it).
process.env.PHOTO_LINK_ANSWER_MS = '0';
const api = useLocalApi();
const ses = useSesEmulator();
const counter = installRoundTripCounter(db);

let clockMs = 0;
beforeEach(() => {
  clockMs = Date.parse('2027-06-01T08:00:00Z');
  setClock(() => clockMs);
});
afterEach(() => resetClock());

let mailbox = 0;
async function studioWith(
  limits: Partial<PublicLimits>,
  photoAccess = { codeAndEmail: true, codeAndEmployeeId: false },
) {
  const studio = await createTestTenant();
  await updateGallerySettings(studio.tenant.tenantId, studio.token, { publicLimits: limits, photoAccess });
  const email = `limited-${(mailbox += 1)}-${studio.slug}@example.com`;
  const [person] = await importParticipants(api.call, studio, studio.token, [{ name: 'Limited Person', email }]);
  await givePhoto(studio, studio.token, person!.personId, 'limited.jpg', makeJpeg(8, 8));
  return { studio, person: person! as Participant & { email: string }, right: { code: person!.code, email } };
}

const post = (studio: TestTenant, sourceIp: string, body: Record<string, unknown>) =>
  postFrom(studio, sourceIp, { action: 'myPhotos', ...body }, clockMs);

/** The n-th access code other than `taken`, so that guesses name codes nobody has. */
function otherCode(index: number, taken: string): string {
  const alphabet = ACCESS_CODE_ALPHABET;
  for (let step = index; ; step += 1) {
    const code = [0, 1, 2, 3]
      .map((place) => alphabet[Math.floor(step / alphabet.length ** place) % alphabet.length])
      .join('');
    if (code !== taken) return code;
  }
}

const UNIFORM = { ok: true, photoLinkRequested: true, requestId: expect.any(String) };

const waitForEmails = (address: string, count: number) => ses.waitForEmailsTo(address, count);

describe('myPhotos attempt limits', () => {
  it('refuses a client past its lookup budget with 429 and Retry-After, right pairs included, and writes nothing then', async () => {
    // Prepare
    const { studio, right } = await studioWith({ photoLookups: { limit: 3, windowMs: 60 * 60_000 } });
    // Act
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push(await post(studio, '198.51.100.1', right));
    const { result: refused, count } = await counter.measure(() => post(studio, '198.51.100.1', right));
    const otherClient = await post(studio, '198.51.100.2', right);
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect([refused.status, refused.body.error, refused.headers['Retry-After']]).toEqual([
      429,
      'rate_limit_exceeded',
      '1200',
    ]);
    expect(count.operations.filter((operation) => operation !== 'Query' && operation !== 'GetItem')).toEqual([]);
    expect(otherClient.status).toBe(200);
  });

  it('counts a shared address per code: a colleague behind the same NAT who used up their budget refuses nobody else', async () => {
    // Prepare: two colleagues of one office, both behind 198.51.100.30.
    const { studio, right } = await studioWith({ photoLookups: { limit: 3, windowMs: 60 * 60_000 } });
    const colleagueEmail = `colleague-${studio.slug}@example.com`;
    const [colleague] = await importParticipants(api.call, studio, studio.token, [
      { name: 'Colleague', email: colleagueEmail },
    ]);
    const office = '198.51.100.30';
    // Act: the colleague looks five times, then the participant with their own code.
    const colleagueAnswers = [];
    for (let index = 0; index < 5; index += 1)
      colleagueAnswers.push(await post(studio, office, { code: colleague!.code, email: colleagueEmail }));
    const own = await post(studio, office, right);
    // Assess
    expect(colleagueAnswers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
    expect(own.status).toBe(200);
    expect(own.body.photos).toHaveLength(1);
  });

  it('locks nobody out: after 288 wrong pairs from 48 client networks, the participant still gets the photos, by code and email and by link', async () => {
    // Prepare: the default budgets, and the run that was reported: 6 guesses from each of 48 networks, each guess another code
    const { studio, person, right } = await studioWith({});
    const answers = [];
    for (let guess = 0; guess < 6; guess += 1) {
      for (let network = 0; network < 48; network += 1)
        answers.push(
          await post(studio, `203.0.${network}.${guess + 1}`, {
            code: otherCode(network * 6 + guess, person.code),
            email: right.email,
          }),
        );
    }
    // The gallery's budget of 200 wrong pairs answered 200 guesses; the others got the uniform answer
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(
      DEFAULT_PUBLIC_LIMITS.photoLookupFailures.limit,
    );
    expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body)).toEqual(
      Array(88).fill(UNIFORM),
    );
    // Act: the participant, from a network of their own, by code and email, then by the link the email brings
    const byCode = await post(studio, '192.0.2.10', right);
    const [email] = await waitForEmails(right.email, 1);
    const byLink = await postFrom(
      studio,
      '192.0.2.10',
      { action: 'photosByLink', photoLink: photoLinkOfEmail(email!.body.text!) },
      clockMs,
    );
    // Assess: never a refusal; the photos by link
    expect([byCode.status, byCode.body]).toEqual([200, UNIFORM]);
    expect(email!.subject).toMatch(/^Your photo link/);
    expect([
      byLink.status,
      byLink.body.name,
      byLink.body.photos.map((photo: { fileName: string }) => photo.fileName),
    ]).toEqual([200, 'Limited Person', ['limited.jpg']]);
  }, 90_000);

  it('asks by email too while the budgets are spent: sendPhotoLink brings the link', async () => {
    // Prepare: the gallery's budget spent from many networks
    const { studio, person, right } = await studioWith({
      photoLookupFailures: { limit: 3, windowMs: 3 * 60 * 60_000 },
    });
    for (let index = 1; index <= 4; index += 1)
      await post(studio, `198.18.${index}.1`, { code: otherCode(index, person.code), email: right.email });
    // Act
    const asked = await postFrom(
      studio,
      '198.18.50.1',
      { action: 'sendPhotoLink', email: right.email.toUpperCase() },
      clockMs,
    );
    const [email] = await waitForEmails(right.email, 1);
    const byLink = await postFrom(
      studio,
      '198.18.50.1',
      { action: 'photosByLink', photoLink: photoLinkOfEmail(email!.body.text!) },
      clockMs,
    );
    // Assess
    expect([asked.status, asked.body]).toEqual([200, UNIFORM]);
    expect(byLink.body.photos).toHaveLength(1);
  });

  it('gives right and wrong pairs past a budget the same answer, and emails only the right one', async () => {
    // Prepare
    const { studio, person, right } = await studioWith({
      photoLookupFailures: { limit: 2, windowMs: 2 * 60 * 60_000 },
    });
    for (let index = 1; index <= 2; index += 1)
      expect(
        (await post(studio, `198.51.${index}.9`, { code: otherCode(index, person.code), email: right.email })).status,
      ).toBe(404);
    // Act
    const wrong = await post(studio, '198.51.20.9', { code: otherCode(7, person.code), email: right.email });
    const wrongEmail = await post(studio, '198.51.21.9', { code: person.code, email: 'someone.else@example.com' });
    const sentBefore = (await ses.emails()).length;
    const rightPair = await post(studio, '198.51.22.9', right);
    // Assess: one answer, one status, the same headers; the one email goes to the person
    expect([wrong, wrongEmail, rightPair].map((answer) => [answer.status, { ...answer.body, requestId: 'r' }])).toEqual(
      Array(3).fill([200, { ...UNIFORM, requestId: 'r' }]),
    );
    expect(Object.keys(wrong.headers).sort()).toEqual(Object.keys(rightPair.headers).sort());
    await waitForEmails(right.email, 1);
    expect((await ses.emails()).slice(sentBefore).map((email) => email.destination.to)).toEqual([[right.email]]);
    expect(await ses.emailsTo('someone.else@example.com')).toEqual([]);
  });

  it('keeps the budget of a client network to that network: others still get verdicts', async () => {
    // Prepare: one /24 spends its 10 wrong pairs from ten addresses
    const { studio, person, right } = await studioWith({});
    for (let index = 1; index <= 10; index += 1)
      expect(
        (await post(studio, `100.64.7.${index}`, { code: otherCode(index, person.code), email: right.email })).status,
      ).toBe(404);
    // Act
    const sameNetwork = await post(studio, '100.64.7.200', { code: otherCode(99, person.code), email: right.email });
    const sameNetworkRight = await post(studio, '100.64.7.201', right);
    const otherNetwork = await post(studio, '100.64.8.1', { code: otherCode(99, person.code), email: right.email });
    const ipv6 = await Promise.all([
      post(studio, '2001:db8:1:1::1', { code: otherCode(98, person.code), email: right.email }),
      post(studio, '2001:db8:2::1', right),
    ]);
    // Assess
    expect([sameNetwork.body, sameNetworkRight.body]).toEqual([UNIFORM, UNIFORM]);
    expect(otherNetwork.status).toBe(404);
    expect(ipv6.map((answer) => answer.status)).toEqual([404, 200]);
  });

  it("keeps a code's budget to that code: once a code is guessed at from many networks, its pairs get no verdict, other codes do", async () => {
    // Prepare: five other emails with the person's code (the camera card's code, with guessed addresses), each from another network
    const { studio, person, right } = await studioWith({});
    const [neighbour] = await importParticipants(api.call, studio, studio.token, [
      { name: 'Neighbour', email: 'neighbour@example.com' },
    ]);
    for (let index = 1; index <= 5; index += 1)
      expect(
        (await post(studio, `100.65.${index}.1`, { code: person.code, email: `guess${index}@example.com` })).status,
      ).toBe(404);
    // Act
    const sixthGuess = await post(studio, '100.65.10.1', { code: person.code, email: 'guess6@example.com' });
    const owner = await post(studio, '100.65.11.1', right);
    const neighbourAnswer = await post(studio, '100.65.12.1', {
      code: neighbour!.code,
      email: 'neighbour@example.com',
    });
    // Assess: the code's owner gets the link instead of a verdict; other codes are answered
    expect([sixthGuess.body, owner.body]).toEqual([UNIFORM, UNIFORM]);
    expect((await waitForEmails(right.email, 1)).length).toBe(1);
    expect(neighbourAnswer.status).toBe(200);
  });

  it('costs nothing for malformed lookups: the budgets of wrong pairs stay whole', async () => {
    // Prepare: budgets of one wrong pair each
    const one = { limit: 1, windowMs: 60 * 60_000 };
    const { studio, person, right } = await studioWith({
      photoLookupFailures: one,
      photoLookupFailuresPerSite: one,
      photoLookupFailuresPerCode: one,
    });
    // Act: malformed bodies from one network, then a right pair and a wrong one from it
    const malformed = await Promise.all([
      post(studio, '198.51.100.80', { code: 'AB', email: right.email }),
      post(studio, '198.51.100.80', { code: person.code, email: 42 }),
      post(studio, '198.51.100.80', { code: 'ABC0', email: right.email }),
      post(studio, '198.51.100.80', { code: person.code, employeeId: 'x'.repeat(500) }),
    ]);
    const rightPair = await post(studio, '198.51.100.80', right);
    const wrongPair = await post(studio, '198.51.100.80', { ...right, email: 'other@example.com' });
    // Assess: 400s, then real verdicts
    expect(malformed.map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(4).fill([400, 'invalid_field']),
    );
    expect([rightPair.status, wrongPair.status]).toEqual([200, 404]);
  });

  it('gives a right pair its charges back, so that lookups of right pairs never spend the budgets of wrong ones', async () => {
    // Prepare
    const { studio, person, right } = await studioWith({
      photoLookupFailures: { limit: 2, windowMs: 2 * 60 * 60_000 },
    });
    // Act: many right pairs from one network, then wrong ones
    for (let index = 1; index <= 12; index += 1)
      expect((await post(studio, `192.0.2.${index}`, right)).status).toBe(200);
    const wrongs = [];
    for (let index = 1; index <= 3; index += 1)
      wrongs.push(
        (await post(studio, `192.0.${10 + index}.1`, { code: otherCode(index, person.code), email: right.email }))
          .status,
      );
    // Assess: the whole budget of two was left for wrong pairs; the third gets the uniform answer
    expect(wrongs).toEqual([404, 404, 200]);
  });

  it('keeps the budgets of other galleries whole', async () => {
    const limits = { photoLookupFailures: { limit: 1, windowMs: 60 * 60_000 } };
    const first = await studioWith(limits);
    const second = await studioWith(limits);
    await post(first.studio, '198.51.100.60', { code: otherCode(1, first.person.code), email: 'x@example.com' });
    const answers = [
      await post(first.studio, '198.51.101.61', first.right),
      await post(second.studio, '198.51.101.61', second.right),
    ];
    expect(answers.map((answer) => Object.keys(answer.body).sort())).toEqual([
      Object.keys(UNIFORM).sort(),
      ['faceConsent', 'name', 'ok', 'photos', 'requestId', 'urlsExpireAt'],
    ]);
  });

  it('has defaults under which a family looking a few times passes and a search of the codes takes decades', async () => {
    // Prepare
    const { studio, person, right } = await studioWith({});
    // Act: a family behind one address, five looks and two typos
    const statuses = [];
    for (const body of [
      right,
      { ...right, email: 'limted@example.com' },
      right,
      right,
      { ...right, code: otherCode(3, person.code) },
      right,
      right,
    ]) {
      statuses.push((await post(studio, '198.51.100.70', body)).status);
    }
    // Assess
    expect(statuses).toEqual([200, 404, 200, 200, 404, 200, 200]);
    const { limit, windowMs } = DEFAULT_PUBLIC_LIMITS.photoLookupFailures;
    const wrongPairsPerYear = limit + (365 * 24 * 60 * 60_000) / (windowMs / limit);
    expect(wrongPairsPerYear / ACCESS_CODE_ALPHABET.length ** 4).toBeLessThan(0.0192); // at most 1.9 % to find one given person's code in a year
  });
});
