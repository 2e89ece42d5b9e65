import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { decode } from 'jpeg-js';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { useLocalApi } from '../../support/local-api';
import { createTestTenant } from '../../support/factories';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { makeJpeg, makeJpegWithGps, testS3 } from '../../support/media';

const api = useLocalApi();

const submit = (studio: CheckinStudio, body: unknown, headers: Record<string, string> = studio.publicHeaders) =>
  api.call('/group-shoot', { method: 'POST', headers, body });

async function storedPersons(studio: CheckinStudio) {
  return queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
}

async function selfieObjects(studio: CheckinStudio) {
  const listing = await testS3.send(
    new ListObjectsV2Command({
      Bucket: process.env.MEDIA_BUCKET,
      Prefix: `selfies/${studio.tenant.tenantId}/${studio.token}/`,
    }),
  );
  return listing.Contents ?? [];
}

/** The JPEG with its frame header declaring `width` × `height`. */
function declaring(jpeg: Buffer, width: number, height: number): Buffer {
  const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(height, frame + 5);
  jpeg.writeUInt16BE(width, frame + 7);
  return jpeg;
}

/** The JPEG's header with only part of its image data: the header check passes it, the decoder does not. */
const cutOff = (jpeg: Buffer) => jpeg.subarray(0, jpeg.length - 200).toString('base64');

describe('POST /group-shoot submitCheckin: every rule, in order of precedence', () => {
  let studio: CheckinStudio;
  let otherStudio: CheckinStudio;
  beforeAll(async () => {
    [studio, otherStudio] = await Promise.all([createCheckinStudio(), createCheckinStudio()]);
  });

  const long = (length: number) => 'x'.repeat(length);
  type Case = [
    string,
    (s: CheckinStudio) => { body?: unknown; headers?: Record<string, string> },
    number,
    string,
    Record<string, unknown>?,
  ];
  const cases: Case[] = [
    ['no tenant header', (s) => ({ body: s.validBody(), headers: {} }), 400, 'missing_tenant_slug'],
    [
      'an unknown tenant',
      (s) => ({ body: s.validBody(), headers: { 'X-Tenant-Slug': 'nobody-at-all' } }),
      400,
      'invalid_tenant',
    ],
    ['a body that is not JSON', () => ({ body: '{"action":' }), 400, 'invalid_json'],
    ['no action', (s) => ({ body: s.validBody({ action: undefined }) }), 400, 'invalid_action'],
    ['an unknown action', (s) => ({ body: s.validBody({ action: 'deletePerson' }) }), 400, 'invalid_action'],
    ['an inherited property as action', (s) => ({ body: s.validBody({ action: 'toString' }) }), 400, 'invalid_action'],
    ['an action that is not a string', (s) => ({ body: s.validBody({ action: 1 }) }), 400, 'invalid_action'],
    ['no token', (s) => ({ body: s.validBody({ token: undefined, name: undefined }) }), 400, 'token_required'],
    ['an empty token', (s) => ({ body: s.validBody({ token: ' ' }) }), 400, 'token_required'],
    [
      'an unknown token',
      (s) => ({ body: s.validBody({ token: 'unknowntoken', name: undefined }) }),
      404,
      'gallery_not_found',
    ],
    ["another tenant's token", () => ({ body: otherStudio.validBody() }), 404, 'gallery_not_found'],
    [
      'an ordinary gallery',
      (s) => ({ body: s.validBody({ token: s.ordinaryToken }) }),
      400,
      'not_a_groupshoot_gallery',
    ],
    [
      'no name (before a missing email)',
      (s) => ({ body: s.validBody({ name: undefined, email: undefined }) }),
      400,
      'name_required',
    ],
    ['a blank name', (s) => ({ body: s.validBody({ name: '   ' }) }), 400, 'name_required'],
    [
      'no email (before a too long name)',
      (s) => ({ body: s.validBody({ email: '', name: long(201) }) }),
      400,
      'email_required',
    ],
    [
      'a name of 201 characters',
      (s) => ({ body: s.validBody({ name: long(201) }) }),
      400,
      'invalid_field',
      { field: 'name' },
    ],
    ['a name that is a number', (s) => ({ body: s.validBody({ name: 42 }) }), 400, 'invalid_field', { field: 'name' }],
    [
      'an email of 201 characters',
      (s) => ({ body: s.validBody({ email: `${long(189)}@example.com` }) }),
      400,
      'invalid_field',
      { field: 'email' },
    ],
    [
      'an email that is no address',
      (s) => ({ body: s.validBody({ email: 'ada' }) }),
      400,
      'invalid_field',
      { field: 'email' },
    ],
    [
      'an employeeId of 101 characters',
      (s) => ({ body: s.validBody({ employeeId: long(101) }) }),
      400,
      'invalid_field',
      { field: 'employeeId' },
    ],
    [
      'a phone of 51 characters',
      (s) => ({ body: s.validBody({ phone: long(51) }) }),
      400,
      'invalid_field',
      { field: 'phone' },
    ],
    [
      'a department of 101 characters',
      (s) => ({ body: s.validBody({ department: long(101) }) }),
      400,
      'invalid_field',
      { field: 'department' },
    ],
    [
      'notes of 1001 characters',
      (s) => ({ body: s.validBody({ notes: long(1001) }) }),
      400,
      'invalid_field',
      { field: 'notes' },
    ],
    [
      'orderNotes of 1001 characters',
      (s) => ({ body: s.validBody({ orderNotes: long(1001) }) }),
      400,
      'invalid_field',
      { field: 'orderNotes' },
    ],
    [
      'a consentGiven that is a string',
      (s) => ({ body: s.validBody({ consentGiven: 'yes' }) }),
      400,
      'invalid_field',
      { field: 'consentGiven' },
    ],
    [
      'a faceConsent that is a number',
      (s) => ({ body: s.validBody({ faceConsent: 1 }) }),
      400,
      'invalid_field',
      { field: 'faceConsent' },
    ],
    [
      'a termsAccepted that is a string',
      (s) => ({ body: s.validBody({ termsAccepted: 'true' }) }),
      400,
      'invalid_field',
      { field: 'termsAccepted' },
    ],
    [
      'a shootingDayId that is a number',
      (s) => ({ body: s.validBody({ shootingDayId: 7 }) }),
      400,
      'invalid_field',
      { field: 'shootingDayId' },
    ],
    [
      'a selfieBase64 that is an object',
      (s) => ({ body: s.validBody({ selfieBase64: {} }) }),
      400,
      'invalid_field',
      { field: 'selfieBase64' },
    ],
    [
      'customFields that are an array',
      (s) => ({ body: s.validBody({ customFields: [] }) }),
      400,
      'invalid_field',
      { field: 'customFields' },
    ],
    [
      'customFields that are an array (before a bad language)',
      (s) => ({ body: s.validBody({ customFields: [], language: 'es' }) }),
      400,
      'invalid_field',
      { field: 'customFields' },
    ],
    [
      'a language of none of ours (before consent_required)',
      (s) => ({ body: s.validBody({ language: 'es', consentGiven: false }) }),
      400,
      'invalid_field',
      { field: 'language', message: 'language must be one of en, de, fr.' },
    ],
    [
      'a language that is a number',
      (s) => ({ body: s.validBody({ language: 1 }) }),
      400,
      'invalid_field',
      { field: 'language' },
    ],
    ['consentGiven false', (s) => ({ body: s.validBody({ consentGiven: false }) }), 400, 'consent_required'],
    [
      'no consentGiven (before a bad custom field)',
      (s) => ({ body: s.validBody({ consentGiven: undefined, customFields: {} }) }),
      400,
      'consent_required',
    ],
    [
      'a required select left out',
      (s) => ({ body: s.validBody({ customFields: {} }) }),
      400,
      'invalid_custom_field',
      { key: 'SIZE' },
    ],
    [
      'a select value that is no option',
      (s) => ({ body: s.validBody({ customFields: { SIZE: 'xl' } }) }),
      400,
      'invalid_custom_field',
      { key: 'SIZE' },
    ],
    [
      'a number that does not parse',
      (s) => ({ body: s.validBody({ customFields: { SIZE: 's', YEARS: '3 years' } }) }),
      400,
      'invalid_custom_field',
      { key: 'YEARS' },
    ],
    [
      'a custom text of 501 characters',
      (s) => ({ body: s.validBody({ customFields: { SIZE: 's', MOTTO: long(501) } }) }),
      400,
      'invalid_custom_field',
      { key: 'MOTTO' },
    ],
    [
      'a selfie that is not base64 (before an unknown day)',
      (s) => ({ body: s.validBody({ selfieBase64: 'not base64!', shootingDayId: 'day_x' }) }),
      400,
      'invalid_selfie',
    ],
    [
      'a PNG data URI',
      (s) => ({ body: s.validBody({ selfieBase64: `data:image/png;base64,${makeJpeg(4, 4).toString('base64')}` }) }),
      400,
      'invalid_selfie',
    ],
    [
      'base64 of something that is not a JPEG',
      (s) => ({ body: s.validBody({ selfieBase64: Buffer.from('hello world, not an image').toString('base64') }) }),
      400,
      'invalid_selfie',
    ],
    [
      'a truncated JPEG',
      (s) => ({ body: s.validBody({ selfieBase64: makeJpeg(16, 16).subarray(0, 200).toString('base64') }) }),
      400,
      'invalid_selfie',
    ],
    [
      'a selfie over 3 MiB',
      (s) => ({ body: s.validBody({ selfieBase64: Buffer.alloc(3 * 1024 * 1024 + 10, 1).toString('base64') }) }),
      413,
      'selfie_too_large',
    ],
    [
      'a JPEG declaring over 50 megapixels (before an unknown day)',
      (s) => ({
        body: s.validBody({
          selfieBase64: declaring(makeJpeg(8, 8), 8000, 6251).toString('base64'),
          shootingDayId: 'day_x',
        }),
      }),
      400,
      'invalid_selfie',
    ],
    [
      'an unknown shooting day (before an unknown package)',
      (s) => ({ body: s.validBody({ shootingDayId: 'day_unknown', selectedPackageId: 'pkg_x' }) }),
      400,
      'invalid_shooting_day',
    ],
    [
      'an unknown package (before a JPEG whose image data is cut off)',
      (s) => ({ body: s.validBody({ selectedPackageId: 'pkg_unknown', selfieBase64: cutOff(makeJpeg(64, 64)) }) }),
      400,
      'package_not_found',
    ],
    [
      'a JPEG whose image data is cut off (before the paid-package rules)',
      (s) => ({ body: s.validBody({ selectedPackageId: s.paidPackage.id, selfieBase64: cutOff(makeJpeg(64, 64)) }) }),
      400,
      'invalid_selfie',
    ],
    [
      'a paid package without accepted terms',
      (s) => ({ body: s.validBody({ selectedPackageId: s.paidPackage.id }) }),
      400,
      'terms_not_accepted',
    ],
    [
      'a paid package of a studio without payment approval',
      (s) => ({ body: s.validBody({ selectedPackageId: s.paidPackage.id, termsAccepted: true }) }),
      400,
      'payment_access_not_approved',
    ],
  ];

  // Every row gets its details member: jest-each takes a function with more parameters than
  // the row has values for a callback-style test.
  const rows = cases.map(([name, build, status, code, details]) => [name, build, status, code, details ?? {}] as const);
  it.each(rows)('refuses %s', async (_case, build, status, code, details) => {
    // Prepare
    const { body, headers } = build(studio);
    const placeholders: Record<string, string> = {
      SIZE: studio.fieldKeys.size,
      YEARS: studio.fieldKeys.years,
      MOTTO: studio.fieldKeys.motto,
    };
    const text = JSON.stringify(body ?? {}).replace(
      /"(SIZE|YEARS|MOTTO)"/g,
      (_match, name: string) => `"${placeholders[name]}"`,
    );
    const raw = typeof body === 'string' ? body : text;
    const before = (await storedPersons(studio)).length;
    // Act
    const answer = await submit(studio, raw, headers ?? studio.publicHeaders);
    // Assess
    expect(answer.status).toBe(status);
    const expectedDetails = Object.fromEntries(
      Object.entries(details).map(([name, value]) => [name, placeholders[value as string] ?? value]),
    );
    expect(answer.body).toEqual({
      ok: false,
      error: code,
      message: expect.any(String),
      requestId: answer.headers.get('x-request-id'),
      ...expectedDetails,
    });
    expect((await storedPersons(studio)).length).toBe(before);
  });

  it('answers connect_not_ready_for_payments for an approved studio until paid checkout exists, storing nothing', async () => {
    const approved = await createCheckinStudio();
    await approved.approvePayments();
    const answer = await submit(
      approved,
      approved.validBody({ selectedPackageId: approved.paidPackage.id, termsAccepted: true }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('connect_not_ready_for_payments');
    expect(await storedPersons(approved)).toHaveLength(0);
  });

  it('gives 400 selfie_required when the gallery requires one and none is sent', async () => {
    const strict = await createCheckinStudio({ selfieRequired: true });
    const answer = await submit(strict, strict.validBody());
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('selfie_required');
  });

  it('enforces a built-in form field marked required', async () => {
    const { putFormField } = await import('#lib/galleries/store/galleries');
    const strict = await createCheckinStudio();
    await putFormField(strict.tenant.tenantId, strict.token, {
      key: 'employeeId',
      label: 'Employee no.',
      type: 'text',
      required: true,
      enabled: true,
      position: 0,
    });
    const missing = await submit(strict, strict.validBody());
    const given = await submit(strict, strict.validBody({ employeeId: 'E-77' }));
    expect(missing.body).toEqual(expect.objectContaining({ error: 'invalid_field', field: 'employeeId' }));
    expect(given.status).toBe(200);
  });
});

describe('POST /group-shoot submitCheckin: what is stored', () => {
  let studio: CheckinStudio;
  beforeAll(async () => {
    studio = await createCheckinStudio();
  });

  it('creates the person with code, consents, custom fields, package, and reports it to GET persons', async () => {
    // Act
    const answer = await submit(
      studio,
      studio.validBody({
        name: '  Grace Hopper ',
        email: 'grace@example.com',
        employeeId: 'E-1',
        phone: '+49 30 123',
        department: 'Navy',
        notes: 'Glasses',
        faceConsent: true,
        notificationConsent: true,
        hrExportConsent: true,
        shootingDayId: studio.openDay.id,
        selectedPackageId: studio.freePackage.id,
        orderNotes: 'Matte print',
        language: 'de',
        customFields: {
          [studio.fieldKeys.size]: 's',
          [studio.fieldKeys.years]: '12',
          [studio.fieldKeys.motto]: ' Ship it ',
          [studio.fieldKeys.hidden]: 'dropped: field disabled',
          'custom-00000000-0000-0000-0000-000000000000': 'dropped: no such field',
        },
      }),
    );
    const listed = await api.call(`/groupshoot/${studio.token}/persons?employeeId=E-1`, {
      headers: studio.serverHeaders,
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      personId: expect.stringMatching(/^per_/),
      code: expect.stringMatching(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{4}$/),
      name: 'Grace Hopper',
      requestId: answer.headers.get('x-request-id'),
    });
    expect(listed.body.persons).toEqual([
      expect.objectContaining({
        personId: answer.body.personId,
        code: answer.body.code,
        name: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '+49 30 123',
        department: 'Navy',
        notes: 'Glasses',
        shootingDayId: studio.openDay.id,
        packageId: studio.freePackage.id,
        orderNotes: 'Matte print',
        consentGiven: true,
        faceConsent: true,
        notificationConsent: null, // not asked by this gallery: not stored
        hrExportConsent: null,
        customFields: {
          [studio.fieldKeys.size]: 's',
          [studio.fieldKeys.years]: 12,
          [studio.fieldKeys.motto]: 'Ship it',
        },
        source: 'checkin',
        hasSelfie: false,
        language: 'de',
      }),
    ]);
  });

  it('stores no language where the page sends none (null is none)', async () => {
    const answer = await submit(studio, studio.validBody({ name: 'No Language', language: null }));
    const listed = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(answer.status).toBe(200);
    expect(
      listed.body.persons.find((person: { personId: string }) => person.personId === answer.body.personId),
    ).toMatchObject({ language: null });
  });

  it('stores a selfie without its EXIF GPS position, still a valid JPEG, under the person', async () => {
    // Prepare
    const withGps = makeJpegWithGps(40, 30);
    expect(withGps.includes(Buffer.from('PhoneMaker'))).toBe(true);
    // Act
    const answer = await submit(
      studio,
      studio.validBody({ selfieBase64: `data:image/jpeg;base64,${withGps.toString('base64')}` }),
    );
    // Assess
    expect(answer.status).toBe(200);
    const object = await testS3.send(
      new GetObjectCommand({
        Bucket: process.env.MEDIA_BUCKET,
        Key: `selfies/${studio.tenant.tenantId}/${studio.token}/${answer.body.personId}.jpg`,
      }),
    );
    const stored = Buffer.from(await object.Body!.transformToByteArray());
    expect(object.ContentType).toBe('image/jpeg');
    expect(stored.includes(Buffer.from('Exif'))).toBe(false);
    expect(stored.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(stored.length).toBeLessThan(withGps.length);
    const image = decode(stored);
    expect([image.width, image.height]).toEqual([40, 30]);
    const listed = await api.call(`/groupshoot/${studio.token}/persons?limit=500`, { headers: studio.serverHeaders });
    expect(
      listed.body.persons.find((person: { personId: string }) => person.personId === answer.body.personId).hasSelfie,
    ).toBe(true);
  });

  it('accepts raw base64 as well as a data URI', async () => {
    const answer = await submit(studio, studio.validBody({ selfieBase64: makeJpeg(8, 8).toString('base64') }));
    expect(answer.status).toBe(200);
  });

  it('ignores a selfie sent to a gallery that takes none', async () => {
    const noSelfies = await createCheckinStudio({ selfieEnabled: false });
    const answer = await submit(noSelfies, noSelfies.validBody({ selfieBase64: makeJpeg(8, 8).toString('base64') }));
    expect(answer.status).toBe(200);
    expect(await selfieObjects(noSelfies)).toEqual([]);
    expect((await storedPersons(noSelfies))[0]?.hasSelfie).toBe(false);
  });

  it('books the day and answers 409 shooting_day_full once it is full', async () => {
    const day = await createCheckinStudio();
    const first = await submit(day, day.validBody({ shootingDayId: day.smallDay.id }));
    const second = await submit(day, day.validBody({ shootingDayId: day.smallDay.id, name: 'Second' }));
    const third = await submit(
      day,
      day.validBody({ shootingDayId: day.smallDay.id, name: 'Third', selfieBase64: makeJpeg(8, 8).toString('base64') }),
    );
    const days = await api.call(`/groupshoot/${day.token}/days`, { headers: day.serverHeaders });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 409]);
    expect(third.body.error).toBe('shooting_day_full');
    expect(days.body.shootingDays[0]).toEqual(
      expect.objectContaining({ id: day.smallDay.id, booked: 2, spotsRemaining: 0 }),
    );
    expect(await storedPersons(day)).toHaveLength(2);
    expect(await selfieObjects(day)).toEqual([]); // the refused check-in's selfie was removed again
    const info = await api.call(`/group-shoot/checkin/${day.token}`, { headers: day.publicHeaders });
    expect(info.body.shootingDays[0].spotsRemaining).toBe(0);
  });

  it('counts check-ins and selfies in the statistics', async () => {
    const counted = await createCheckinStudio();
    await submit(counted, counted.validBody());
    await submit(counted, counted.validBody({ selfieBase64: makeJpeg(8, 8).toString('base64') }));
    const stats = await api.call(`/groupshoot/${counted.token}/stats`, { headers: counted.serverHeaders });
    expect(stats.body.persons).toEqual({ total: 2, bySource: { import: 0, checkin: 2 }, withSelfie: 1, withPhotos: 0 });
  });

  it('stores no consent the gallery does not ask for, even when sent', async () => {
    const relaxed = await createCheckinStudio({
      consentRequired: false,
      granularConsents: { face: false, notification: false, hrExport: false },
    });
    const answer = await submit(relaxed, relaxed.validBody({ consentGiven: undefined, faceConsent: true }));
    const [stored] = await storedPersons(relaxed);
    expect(answer.status).toBe(200);
    expect(stored?.consents).toEqual({
      consentGiven: null,
      faceConsent: null,
      notificationConsent: null,
      hrExportConsent: null,
    });
  });
});

describe('POST /group-shoot submitCheckin: concurrency', () => {
  it('gives exactly 25 of 200 concurrent check-ins a spot on a day of capacity 25', async () => {
    // Prepare: one test client plays 200 participants, so the gallery allows one address 200 check-ins at once.
    const studio = await createCheckinStudio({ publicLimits: { checkins: { limit: 200, windowMs: 60_000 } } });
    const { addShootingDay } = await import('#lib/galleries/store/galleries');
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-06-01',
      label: 'Busy',
      startTime: '08:00',
      endTime: '18:00',
      maxPersons: 25,
    });
    // Act
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        submit(studio, studio.validBody({ name: `P${index}`, shootingDayId: day.id })),
      ),
    );
    // Assess
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(25);
    expect(statuses.filter((status) => status === 409)).toHaveLength(175);
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays.find((entry: { id: string }) => entry.id === day.id)).toEqual(
      expect.objectContaining({ booked: 25, spotsRemaining: 0 }),
    );
    const persons = await storedPersons(studio);
    expect(persons).toHaveLength(25);
    expect(new Set(persons.map((person) => person.code)).size).toBe(25);
  }, 60_000);
});

describe('POST /group-shoot submitCheckin: failures of storage', () => {
  afterEach(async () => {
    const s3 = (await import('#lib/platform/media-bucket')).mediaS3();
    const { db } = await import('#lib/platform/table/client');
    s3.middlewareStack.remove('inject-fault');
    db.middlewareStack.remove('inject-fault');
  });

  it('leaves no person, code, booking or selfie behind when S3 fails, and says storage_unavailable', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const s3 = (await import('#lib/platform/media-bucket')).mediaS3();
    s3.middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('S3 is down'), { name: 'ServiceUnavailable', $retryable: {} });
      },
      { step: 'initialize', name: 'inject-fault' },
    );
    // Act
    const answer = await submit(
      studio,
      studio.validBody({ shootingDayId: studio.smallDay.id, selfieBase64: makeJpeg(8, 8).toString('base64') }),
    );
    // Assess
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual(
      expect.objectContaining({ ok: false, error: 'storage_unavailable', requestId: expect.any(String) }),
    );
    expect(await storedPersons(studio)).toEqual([]);
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays[0].booked).toBe(0);
  });

  it('removes the uploaded selfie when DynamoDB stays throttled, and says storage_unavailable', async () => {
    const studio = await createCheckinStudio();
    const { db } = await import('#lib/platform/table/client');
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') {
          throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ThrottlingException' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'inject-fault' },
    );
    const answer = await submit(studio, studio.validBody({ selfieBase64: makeJpeg(8, 8).toString('base64') }));
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('storage_unavailable');
    expect(await storedPersons(studio)).toEqual([]);
    expect(await selfieObjects(studio)).toEqual([]);
  }, 30_000);
});

describe('CORS', () => {
  let studio: CheckinStudio;
  beforeAll(async () => {
    studio = await createCheckinStudio();
  });

  it.each(['/group-shoot', '/group-shoot/checkin/TOKEN'])('answers the preflight of %s', async (path) => {
    const answer = await api.call(path.replace('TOKEN', studio.token), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://checkin.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-tenant-slug',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-headers')).toMatch(/X-Tenant-Slug/);
    expect(answer.headers.get('access-control-allow-methods')).toMatch(path === '/group-shoot' ? /POST/ : /GET/);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('lets browsers read public answers, errors included', async () => {
    const ok = await api.call(`/group-shoot/checkin/${studio.token}`, {
      headers: { ...studio.publicHeaders, Origin: 'https://a.example' },
    });
    const error = await submit(studio, { action: 'nope' });
    for (const answer of [ok, error]) {
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
    }
  });

  it('sends no CORS headers on server-side endpoints, and has no preflight there', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/days`, {
      headers: { ...studio.serverHeaders, Origin: 'https://a.example' },
    });
    const preflight = await api.call(`/groupshoot/${studio.token}/days`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('check-in info', () => {
  it("answers another tenant's token with gallery_not_found", async () => {
    const [studio, other] = await Promise.all([createCheckinStudio(), createTestTenant()]);
    const answer = await api.call(`/group-shoot/checkin/${other.token}`, { headers: studio.publicHeaders });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('gallery_not_found');
  });
});
