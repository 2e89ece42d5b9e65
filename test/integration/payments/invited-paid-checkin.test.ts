import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createPayingStudio, importGuests } from '../../support/checkin-gallery';
import { makeJpeg, testS3 } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';
import { daySpots } from '../../support/day-spots';

/**
 * A paid check-in in an `importedOnly` gallery (issue 27.3): paying completes the imported person
 * the check-in named, as a free check-in does at once, instead of creating another. Over HTTP
 * against DynamoDB Local, S3 and the Stripe emulator.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const persons = (studio: CheckinStudio) => queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
const personItem = async (studio: CheckinStudio, personId: string) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.person(studio.tenant.tenantId, studio.token, personId),
        ConsistentRead: true,
      }),
    )
  ).Item!;
const booked = async (studio: CheckinStudio, dayId: string) =>
  (await daySpots({ tenantId: studio.tenant.tenantId, token: studio.token }, dayId)).booked;
const selfieKeys = async (studio: CheckinStudio) =>
  (
    (
      await testS3.send(
        new ListObjectsV2Command({
          Bucket: process.env.MEDIA_BUCKET,
          Prefix: `selfies/${studio.tenant.tenantId}/${studio.token}/`,
        }),
      )
    ).Contents ?? []
  ).map((object) => object.Key);
const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

const invitedStudio = () => createPayingStudio({ checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] } });
const paidBody = (studio: CheckinStudio, overrides: Record<string, unknown> = {}) =>
  studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true, ...overrides });

describe('a paid check-in of an invited person', () => {
  it('completes the imported person once paid: same person and code, its booking moved, its selfie under it', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [
      { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: studio.smallDay.id },
    ]);
    const selfie = makeJpeg(16, 16);
    // Act
    const reserved = await post(
      studio,
      paidBody(studio, {
        name: 'Ada King',
        email: 'ada@example.com',
        shootingDayId: studio.openDay.id,
        faceConsent: true,
        selfieBase64: selfie.toString('base64'),
      }),
    );
    const whileOpen = {
      person: await personItem(studio, ada!.personId),
      openDay: await booked(studio, studio.openDay.id),
      smallDay: await booked(studio, studio.smallDay.id),
    };
    await stripe.emulator.pay(sessionIdOf(reserved.body.checkoutUrl));
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect(reserved.status).toBe(200);
    expect([whileOpen.person.checkedInAt, whileOpen.openDay, whileOpen.smallDay]).toEqual([undefined, 1, 1]);
    expect(status.body).toEqual(
      expect.objectContaining({ status: 'paid', personId: ada!.personId, code: ada!.code, name: 'Ada Lovelace' }),
    );
    expect(await persons(studio)).toHaveLength(1);
    expect(await personItem(studio, ada!.personId)).toMatchObject({
      name: 'Ada Lovelace',
      declared: { name: 'Ada King' },
      employeeId: 'E-1',
      source: 'import',
      packageId: studio.paidPackage.id,
      shootingDayId: studio.openDay.id,
      hasSelfie: true,
      consents: { consentGiven: true, faceConsent: true, notificationConsent: null, hrExportConsent: null },
      checkedInAt: expect.any(String),
    });
    expect([await booked(studio, studio.openDay.id), await booked(studio, studio.smallDay.id)]).toEqual([1, 0]);
    expect(await selfieKeys(studio)).toEqual([
      `selfies/${studio.tenant.tenantId}/${studio.token}/${ada!.personId}.jpg`,
    ]);
    const stored = await testS3.send(
      new GetObjectCommand({
        Bucket: process.env.MEDIA_BUCKET,
        Key: `selfies/${studio.tenant.tenantId}/${studio.token}/${ada!.personId}.jpg`,
      }),
    );
    expect(stored.ContentType).toBe('image/jpeg');
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect([stats.body.orders, stats.body.persons.bySource]).toEqual([
      { pending: 0, paid: 1, expired: 0, canceled: 0 },
      { import: 1, checkin: 0 },
    ]);
  });

  it('lets an invited person on a full day pay for a package on that day: the spot the import booked is theirs', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [
      { name: 'Ada Lovelace', email: 'ada@example.com', shootingDayId: studio.smallDay.id },
      { name: 'Grace Hopper', email: 'grace@example.com', shootingDayId: studio.smallDay.id },
    ]);
    // Act
    const reserved = await post(studio, paidBody(studio, { shootingDayId: studio.smallDay.id }));
    const whileOpen = await booked(studio, studio.smallDay.id);
    await stripe.emulator.pay(sessionIdOf(reserved.body.checkoutUrl));
    // Assess
    expect(reserved.status).toBe(200);
    expect([whileOpen, await booked(studio, studio.smallDay.id)]).toEqual([2, 2]);
    expect(await personItem(studio, ada!.personId)).toMatchObject({
      shootingDayId: studio.smallDay.id,
      checkedInAt: expect.any(String),
    });
    expect(await persons(studio)).toHaveLength(2);
  });

  it('creates a person, as in an open gallery, when the invited person checked in meanwhile', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    const reserved = await post(studio, paidBody(studio, { shootingDayId: studio.openDay.id }));
    const free = await post(studio, studio.validBody({ name: 'Ada Lovelace' }));
    // Act
    await stripe.emulator.pay(sessionIdOf(reserved.body.checkoutUrl));
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect([free.status, free.body.personId]).toEqual([200, ada!.personId]);
    expect(status.body).toEqual(
      expect.objectContaining({
        status: 'paid',
        personId: expect.stringMatching(/^per_/),
        code: expect.stringMatching(/^[A-Z2-9]{4}$/),
      }),
    );
    expect(status.body.personId).not.toBe(ada!.personId);
    expect(status.body.code).not.toBe(ada!.code);
    expect(await personItem(studio, status.body.personId)).toMatchObject({
      source: 'checkin',
      packageId: studio.paidPackage.id,
      shootingDayId: studio.openDay.id,
    });
    expect(await booked(studio, studio.openDay.id)).toBe(1);
  });

  it('leaves the invited person as imported, and the days as they were, when the checkout expires', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [
      { name: 'Ada Lovelace', email: 'ada@example.com', shootingDayId: studio.smallDay.id },
    ]);
    const reserved = await post(studio, paidBody(studio, { shootingDayId: studio.openDay.id }));
    // Act
    await stripe.emulator.expire(sessionIdOf(reserved.body.checkoutUrl));
    const later = await post(studio, studio.validBody({ shootingDayId: studio.openDay.id }));
    // Assess
    expect([later.status, later.body.personId, later.body.code]).toEqual([200, ada!.personId, ada!.code]);
    expect([await booked(studio, studio.openDay.id), await booked(studio, studio.smallDay.id)]).toEqual([1, 0]);
    expect(await persons(studio)).toHaveLength(1);
  });
});
