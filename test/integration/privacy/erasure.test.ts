import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { listObjectVersions } from '#lib/platform/media-bucket';
import { db, tableName } from '#lib/platform/table/client';
import { photoObjectKey, selfieObjectKey } from '#lib/platform/media-keys';
import { admin } from '../../support/admin';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';
import { IDEMPOTENCY_KEY_PREFIX, RATE_LIMIT_KEY_PREFIX, galleryPartitionPrefix, keys } from '../../support/table-keys';

const api = useLocalApi();
const stripe = useStripeEmulator(api);

/** Values only the erased participant's data holds: none of them may survive anywhere. */
const CANARY = { name: 'Erin Canaryfield', email: 'Erin.Canaryfield@Example.com', motto: 'canary-motto-7f3a' };

type Item = Record<string, any>;

async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const post = (
  studio: CheckinStudio,
  body: Record<string, unknown>,
  headers: Record<string, string> = studio.publicHeaders,
) => api.call('/group-shoot', { method: 'POST', headers, body });

/** A participant who checked in with a selfie, paid a package (with an Idempotency-Key) and got two photos. */
async function paidParticipantWithPhotos(studio: CheckinStudio) {
  const reserved = await post(
    studio,
    studio.validBody({
      name: CANARY.name,
      email: CANARY.email,
      selectedPackageId: studio.paidPackage.id,
      termsAccepted: true,
      shootingDayId: studio.smallDay.id,
      selfieBase64: makeJpeg(24, 24).toString('base64'),
      customFields: { [studio.fieldKeys.size]: 'm', [studio.fieldKeys.motto]: CANARY.motto },
    }),
    { ...studio.publicHeaders, 'Idempotency-Key': 'erasure-test-0b7d4e' },
  );
  expect(reserved.status).toBe(200);
  await stripe.emulator.pay(reserved.body.checkoutUrl.split('/').pop());
  const paid = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
  expect(paid.body.status).toBe('paid');
  const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
  const personId: string = paid.body.personId;
  for (const fileName of ['first.jpg', 'second.jpg']) {
    const key = photoObjectKey({ ...scope, personId, fileName });
    await uploadObject(key, makeJpeg(32, 24));
    await ingestPhoto(objectCreatedEvent(key));
  }
  return {
    personId,
    code: paid.body.code as string,
    orderId: reserved.body.orderId as string,
    statusToken: reserved.body.statusToken as string,
  };
}

function mentions(item: Item, text: string): boolean {
  return JSON.stringify(item, (_key, value) => (value instanceof Set ? [...value] : value))
    .toLowerCase()
    .includes(text.toLowerCase());
}

describe('npm run admin -- person erase', () => {
  it('erases a paid participant with selfie, photos and an idempotency record from every endpoint, S3 and the table', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const erased = await paidParticipantWithPhotos(studio);
    const other = await post(studio, studio.validBody({ name: 'Otto Other', shootingDayId: studio.openDay.id }));
    const scope = ['--tenant', studio.slug, '--gallery', studio.token];
    const selfieKey = selfieObjectKey(studio.tenant.tenantId, studio.token, erased.personId);
    const photoPrefix = `photos/${studio.tenant.tenantId}/${studio.token}/${erased.personId}/`;
    // Act
    const dryRun = await admin(
      'person',
      'erase',
      ...scope,
      '--email',
      CANARY.email.toUpperCase(),
      '--dry-run',
      '--json',
    );
    const listedAfterDryRun = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    const run = await admin('person', 'erase', ...scope, '--email', CANARY.email, '--json');
    const again = await admin('person', 'erase', ...scope, '--email', CANARY.email, '--json');
    // Assess: the receipt
    const expectedReceipt = {
      persons: [erased.personId],
      accessCodes: 1,
      spotsGivenBack: 1,
      selfieVersions: 1,
      photoRecords: 2,
      photoObjectVersions: 2,
      ordersRedacted: [erased.orderId],
      checkoutTokens: 2,
      idempotencyRecords: 1,
      events: 4, // person.created, checkin.completed, order.paid, photos.assigned
    };
    expect(dryRun.code).toBe(0);
    expect(dryRun.json()).toEqual(expect.objectContaining({ ...expectedReceipt, dryRun: true }));
    expect(listedAfterDryRun.body.persons).toHaveLength(2);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(expect.objectContaining({ ...expectedReceipt, dryRun: false }));
    expect(again.code).toBe(0);
    expect(again.json()).toEqual(
      expect.objectContaining({
        persons: [],
        selfieVersions: 0,
        photoRecords: 0,
        photoObjectVersions: 0,
        ordersRedacted: [],
        idempotencyRecords: 0,
        events: 0,
      }),
    );
    // Assess: every read endpoint
    const persons = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(persons.body.persons.map((person: Item) => person.personId)).toEqual([other.body.personId]);
    const photos = await api.call(`/groupshoot/${studio.token}/persons/${erased.personId}/photos`, {
      headers: studio.serverHeaders,
    });
    expect(photos.status).toBe(404);
    const status = await post(studio, { action: 'checkinStatus', statusToken: erased.statusToken });
    expect(status.status).toBe(404);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.persons).toEqual(expect.objectContaining({ total: 1, withSelfie: 0, withPhotos: 0 }));
    expect(stats.body.photos).toEqual(expect.objectContaining({ total: 0 }));
    expect(stats.body.orders).toEqual({ pending: 0, paid: 1, expired: 0, canceled: 0 });
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    const bookedOf = (dayId: string) => days.body.shootingDays.find((day: Item) => day.id === dayId).booked;
    expect([bookedOf(studio.smallDay.id), bookedOf(studio.openDay.id)]).toEqual([0, 1]);
    // Assess: S3, every version
    expect(await listObjectVersions(selfieKey)).toEqual([]);
    expect(await listObjectVersions(photoPrefix)).toEqual([]);
    // Assess: the whole table
    const items = await scanTable();
    for (const text of [CANARY.name, CANARY.email, CANARY.motto, erased.personId]) {
      expect(items.filter((item) => mentions(item, text))).toEqual([]);
    }
    // The code stays, linked to nobody: never given out again, and a late camera card showing it is known for an erased person's.
    expect(
      items
        .filter((item) => item.pk === keys.accessCode(studio.tenant.tenantId, studio.token, erased.code).pk)
        .map((item) => Object.keys(item).sort()),
    ).toEqual([['erasedAt', 'pk', 'sk']]);
    // The idempotency record is sealed, so no canary shows in it: it must be gone altogether.
    expect(items.filter((item) => String(item.pk).startsWith(IDEMPOTENCY_KEY_PREFIX))).toEqual([]);
    const order = items.find((item) => item.orderId === erased.orderId);
    expect(order).toEqual(
      expect.objectContaining({
        status: 'paid',
        amount: 2900,
        currency: 'eur',
        sessionId: expect.stringMatching(/^cs_test_/),
        erasedAt: expect.any(String),
      }),
    );
    expect(Object.keys(order!)).not.toEqual(expect.arrayContaining(['person']));
  });

  it('erases the idempotency record of a myPhotos answer, which names the person only in the record', async () => {
    // Prepare: two imported persons each ask for their photos with an Idempotency-Key
    const studio = await createPayingStudio({ photoAccess: { codeAndEmail: true, codeAndEmployeeId: false } });
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        persons: [
          { name: CANARY.name, email: CANARY.email },
          { name: 'Otto Other', email: 'otto@example.com' },
        ],
      },
    });
    const [erased, other] = imported.body.persons as { personId: string; code: string }[];
    const lookUp = (person: { code: string }, email: string, key: string) =>
      post(
        studio,
        { action: 'myPhotos', token: studio.token, code: person.code, email },
        { ...studio.publicHeaders, 'Idempotency-Key': key },
      );
    const answer = await lookUp(erased!, CANARY.email, 'my-photos-erased-5c1e');
    await lookUp(other!, 'otto@example.com', 'my-photos-other-5c1e');
    const recordsOf = async (personId: string) =>
      (await scanTable()).filter(
        (item) =>
          String(item.pk).startsWith(IDEMPOTENCY_KEY_PREFIX) &&
          [...((item.personIds as Set<string> | undefined) ?? [])].includes(personId),
      );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('personId');
    expect(await recordsOf(erased!.personId)).toHaveLength(1);
    // Act
    const run = await admin(
      'person',
      'erase',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--person',
      erased!.personId,
      '--json',
    );
    // Assess
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(expect.objectContaining({ persons: [erased!.personId], idempotencyRecords: 1 }));
    expect(await recordsOf(erased!.personId)).toEqual([]);
    expect(await recordsOf(other!.personId)).toHaveLength(1);
  });

  it('refuses while an order of the person waits for payment, and changes nothing', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const reserved = await post(
      studio,
      studio.validBody({
        name: CANARY.name,
        email: CANARY.email,
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
      }),
    );
    // Act
    const run = await admin(
      'person',
      'erase',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--email',
      CANARY.email,
    );
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/wait for payment/);
    expect(status.body.status).toBe('pending');
  });

  it('erases every person with an employee ID in the gallery, and no one of another gallery', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const neighbour = await createPayingStudio();
    const importTwo = (target: CheckinStudio) =>
      api.call(`/groupshoot/${target.token}/persons`, {
        method: 'POST',
        headers: target.serverHeaders,
        body: {
          persons: [
            { name: 'Twin One', employeeId: 'E-4711' },
            { name: 'Twin Two', employeeId: 'E-4711' },
            { name: 'Third', employeeId: 'E-0001' },
          ],
        },
      });
    await importTwo(studio);
    await importTwo(neighbour);
    // Act
    const run = await admin(
      'person',
      'erase',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--employee-id',
      'E-4711',
      '--json',
    );
    // Assess
    expect(run.json().persons).toHaveLength(2);
    const left = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(left.body.persons.map((person: Item) => person.name)).toEqual(['Third']);
    const neighbours = await api.call(`/groupshoot/${neighbour.token}/persons`, { headers: neighbour.serverHeaders });
    expect(neighbours.body.persons).toHaveLength(3);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.persons.bySource.import).toBe(1);
  });

  it.each([
    [['--person', 'per_x', '--email', 'a@example.com'], /exactly one of/],
    [[], /exactly one of/],
  ])('refuses %j as a usage error', async (options, message) => {
    const studio = await createPayingStudio();
    const run = await admin('person', 'erase', '--tenant', studio.slug, '--gallery', studio.token, ...options);
    expect(run.code).toBe(2);
    expect(run.err.join('\n')).toMatch(message);
  });
});

describe('npm run admin -- gallery erase', () => {
  it('removes the gallery, its participants and media; orders stay as accounting records', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const erased = await paidParticipantWithPhotos(studio);
    await post(studio, studio.validBody({ name: 'Otto Other', selfieBase64: makeJpeg(8, 8).toString('base64') }));
    const galleryPartitions = galleryPartitionPrefix(studio.tenant.tenantId, studio.token);
    // Act
    const run = await admin('gallery', 'erase', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    // Assess
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(
      expect.objectContaining({
        persons: expect.arrayContaining([erased.personId]),
        selfieVersions: 2,
        photoObjectVersions: 2,
        ordersRedacted: [erased.orderId],
        galleryItems: expect.any(Number),
      }),
    );
    const info = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect(info.status).toBe(404);
    const persons = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(persons.status).toBe(404);
    expect(await listObjectVersions(`selfies/${studio.tenant.tenantId}/${studio.token}/`)).toEqual([]);
    expect(await listObjectVersions(`photos/${studio.tenant.tenantId}/${studio.token}/`)).toEqual([]);
    // Rate-limit counters name the gallery in their key, hold no personal data and expire within minutes.
    const left = (await scanTable()).filter(
      (item) =>
        String(item.pk).startsWith(galleryPartitions) ||
        (mentions(item, studio.token) && !String(item.pk).startsWith(RATE_LIMIT_KEY_PREFIX)),
    );
    expect(left.map((item) => item.sk)).toEqual([keys.order(studio.tenant.tenantId, studio.token, erased.orderId).sk]);
    expect(left.filter((item) => mentions(item, CANARY.name) || mentions(item, 'Otto Other'))).toEqual([]);
  });

  it('refuses while an order waits for payment and changes nothing; only retention leaves such orders for later', async () => {
    // Prepare
    const studio = await createPayingStudio();
    await post(studio, studio.validBody({ name: 'Otto Other' }));
    await post(
      studio,
      studio.validBody({
        name: CANARY.name,
        email: CANARY.email,
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
      }),
    );
    // Act
    const run = await admin('gallery', 'erase', '--tenant', studio.slug, '--gallery', studio.token);
    // Assess
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/wait for payment/);
    const info = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect(info.status).toBe(200);
    const persons = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(persons.body.persons.map((person: { name: string }) => person.name)).toEqual(['Otto Other']);
  });
});
