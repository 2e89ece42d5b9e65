import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { db, tableName } from '#lib/platform/table/client';
import { addShootingDay } from '#lib/galleries/store/galleries';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import type { CheckinPolicy } from '#lib/galleries/rules/checkin-policy';
import { CHECKIN_CLAIM_MS } from '#lib/persons/store/imported-completion';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, importGuests } from '../../support/checkin-gallery';
import { makeJpeg, testS3 } from '../../support/media';
import { daySpots } from '../../support/day-spots';

/**
 * Who may check in (issue 27.3): a gallery's allowed email domains and its `importedOnly` mode,
 * over HTTP against DynamoDB Local.
 */
const api = useLocalApi();

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
const dayItem = (studio: CheckinStudio, dayId: string) =>
  daySpots({ tenantId: studio.tenant.tenantId, token: studio.token }, dayId);

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

function studioWith(checkinPolicy: CheckinPolicy): Promise<CheckinStudio> {
  return createCheckinStudio({ checkinPolicy });
}

const importPersons = (studio: CheckinStudio, rows: Record<string, unknown>[]) => importGuests(api, studio, rows);

describe('defaults', () => {
  it('keeps a gallery without a policy open to any address, and says so to the page', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    // Act
    const checkin = await post(studio, studio.validBody({ email: 'someone@throwaway.example' }));
    const info = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    // Assess
    expect(checkin.status).toBe(200);
    expect((await persons(studio)).map((person) => person.source)).toEqual(['checkin']);
    expect([info.body.checkinMode, info.body.allowedEmailDomains]).toEqual(['open', []]);
  });
});

describe('allowed email domains', () => {
  it('refuses an address at another domain with 403 email_domain_not_allowed, naming the domains, and stores nothing', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'open', allowedEmailDomains: ['example.com', '*.example.org'] });
    // Act
    const refused = await post(
      studio,
      studio.validBody({ email: 'ada@gmail.example', shootingDayId: studio.smallDay.id }),
    );
    // Assess
    expect([refused.status, refused.body.error, refused.body.message]).toEqual([
      403,
      'email_domain_not_allowed',
      'Check-ins to this gallery need an email address at example.com or any subdomain of example.org.',
    ]);
    expect(await persons(studio)).toEqual([]);
    expect((await dayItem(studio, studio.smallDay.id)).booked).toBe(0);
  });

  it('takes addresses at an allowed domain, whatever their case, and at subdomains of a *. entry', async () => {
    const studio = await studioWith({ mode: 'open', allowedEmailDomains: ['example.com', '*.example.org'] });
    const exact = await post(studio, studio.validBody({ name: 'Ada', email: 'Ada@EXAMPLE.COM' }));
    const subdomain = await post(studio, studio.validBody({ name: 'Grace', email: 'grace@mail.example.org' }));
    const apex = await post(studio, studio.validBody({ name: 'Alan', email: 'alan@example.org' }));
    expect([exact.status, subdomain.status, apex.status, apex.body.error]).toEqual([
      200,
      200,
      403,
      'email_domain_not_allowed',
    ]);
  });

  it("comes after the form's own rules and before consent", async () => {
    const studio = await studioWith({ mode: 'open', allowedEmailDomains: ['example.com'] });
    const badEmail = await post(studio, studio.validBody({ email: 'not an address' }));
    const noConsent = await post(studio, studio.validBody({ email: 'ada@other.example', consentGiven: false }));
    expect([badEmail.body.error, noConsent.body.error]).toEqual(['invalid_field', 'email_domain_not_allowed']);
  });

  it('tells the page the domains', async () => {
    const studio = await studioWith({ mode: 'open', allowedEmailDomains: ['example.com'] });
    const info = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect([info.body.checkinMode, info.body.allowedEmailDomains]).toEqual(['open', ['example.com']]);
  });
});

describe('importedOnly', () => {
  it('refuses an address and employee ID of nobody imported with 403 not_on_guest_list, and stores nothing', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1' }]);
    // Act
    const refused = await post(
      studio,
      studio.validBody({ name: 'Mallory', email: 'mallory@example.com', employeeId: 'E-2' }),
    );
    // Assess
    expect([refused.status, refused.body.error]).toEqual([403, 'not_on_guest_list']);
    expect(await persons(studio)).toHaveLength(1);
  });

  it('completes the person imported with the address instead of creating one, answering its code', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [ada] = await importPersons(studio, [
      { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: studio.smallDay.id },
    ]);
    // Act
    const answer = await post(
      studio,
      studio.validBody({
        name: 'Ada King',
        email: ' ADA@example.com ',
        phone: '+44 1',
        faceConsent: true,
        shootingDayId: studio.openDay.id,
        selfieBase64: makeJpeg(16, 16).toString('base64'),
      }),
    );
    // Assess
    expect([answer.status, answer.body.personId, answer.body.code, answer.body.name]).toEqual([
      200,
      ada!.personId,
      ada!.code,
      'Ada Lovelace',
    ]);
    expect(await persons(studio)).toHaveLength(1);
    const stored = await personItem(studio, ada!.personId);
    // HR's name and address stay the person's; what the participant typed differently is kept beside them.
    expect(stored).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      declared: { name: 'Ada King' },
      employeeId: 'E-1',
      phone: '+44 1',
      source: 'import',
      hasSelfie: true,
      shootingDayId: studio.openDay.id,
      consents: { consentGiven: true, faceConsent: true, notificationConsent: null, hrExportConsent: null },
      checkedInAt: expect.any(String),
    });
    expect(stored.checkinClaim).toBeUndefined();
    // The booking moved from the imported day to the chosen one.
    expect([
      (await dayItem(studio, studio.smallDay.id)).booked,
      (await dayItem(studio, studio.openDay.id)).booked,
    ]).toEqual([0, 1]);
    const selfie = await testS3.send(
      new GetObjectCommand({
        Bucket: process.env.MEDIA_BUCKET,
        Key: `selfies/${studio.tenant.tenantId}/${studio.token}/${ada!.personId}.jpg`,
      }),
    );
    expect(selfie.ContentType).toBe('image/jpeg');
    // HR sees who has checked in.
    const listed = await api.call(`/group-shoot/checkin/${studio.token}/persons`, {
      headers: { ...studio.publicHeaders, Authorization: `Bearer ${studio.apiKey}` },
    });
    expect(
      listed.body.persons.map((person: Record<string, unknown>) => [
        person.personId,
        person.source,
        person.checkedInAt,
        person.declared,
      ]),
    ).toEqual([[ada!.personId, 'import', stored.checkedInAt, { name: 'Ada King' }]]);
  });

  it('does not open a person imported without an address to its employee ID alone', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [grace] = await importPersons(studio, [{ name: 'Grace Hopper', employeeId: 'E-7' }]);
    // Act
    const answer = await post(
      studio,
      studio.validBody({ name: 'Grace Hopper', email: 'grace@example.com', employeeId: 'E-7' }),
    );
    // Assess
    expect([answer.status, answer.body.error]).toEqual([403, 'not_on_guest_list']);
    expect((await personItem(studio, grace!.personId)).checkedInAt).toBeUndefined();
  });

  it('does not open a person imported with an address to its employee ID alone', async () => {
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [ada] = await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1' }]);
    const answer = await post(
      studio,
      studio.validBody({ name: 'Mallory', email: 'mallory@example.com', employeeId: 'E-1' }),
    );
    expect([answer.status, answer.body.error]).toEqual([403, 'not_on_guest_list']);
    expect((await personItem(studio, ada!.personId)).checkedInAt).toBeUndefined();
  });

  it('treats a second check-in of the address as today: a new person with a new code, within checkinsPerEmail', async () => {
    // Prepare
    const studio = await createCheckinStudio({
      checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] },
      publicLimits: { checkinsPerEmail: 2 },
    });
    const [ada] = await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    // Act
    const first = await post(studio, studio.validBody());
    const second = await post(studio, studio.validBody({ name: 'Ada Lovelace', email: 'Ada@example.com' }));
    const third = await post(studio, studio.validBody());
    // Assess
    expect([first.body.personId, first.body.code]).toEqual([ada!.personId, ada!.code]);
    expect([second.status, second.body.personId === ada!.personId, second.body.code === ada!.code]).toEqual([
      200,
      false,
      false,
    ]);
    expect([third.status, third.body.error]).toEqual([409, 'email_checkin_limit']);
    expect((await persons(studio)).map((person) => person.source).sort()).toEqual(['checkin', 'import']);
  });

  it('no longer lets throwaway addresses fill a 3-spot day', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-05-03',
      label: 'Three spots',
      startTime: '09:00',
      endTime: '10:00',
      maxPersons: 3,
    });
    await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    // Act
    const throwaway = await Promise.all(
      ['x1@mailinator.example', 'x2@mailinator.example', 'x3@mailinator.example'].map((email, index) =>
        post(studio, studio.validBody({ name: `Nobody ${index}`, email, shootingDayId: day.id })),
      ),
    );
    const invited = await post(studio, studio.validBody({ shootingDayId: day.id }));
    // Assess
    expect(throwaway.map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(3).fill([403, 'not_on_guest_list']),
    );
    expect(invited.status).toBe(200);
    expect((await dayItem(studio, day.id)).booked).toBe(1);
  });

  it('lets only one of simultaneous check-ins of one imported person complete it', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [ada] = await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    const selfie = makeJpeg(16, 16).toString('base64');
    // Act
    const answers = await Promise.all(
      [1, 2, 3].map((attempt) => post(studio, studio.validBody({ notes: `attempt ${attempt}`, selfieBase64: selfie }))),
    );
    // Assess: one completes the person; the others are repeated check-ins of the address (checkinsPerEmail 3).
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const completing = answers.filter((answer) => answer.body.personId === ada!.personId);
    expect(completing.map((answer) => answer.body.code)).toEqual([ada!.code]);
    const stored = await personItem(studio, ada!.personId);
    expect([stored.checkedInAt !== undefined, stored.checkinClaim, stored.hasSelfie]).toEqual([true, undefined, true]);
    expect(await persons(studio)).toHaveLength(3);
    const events = await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token));
    expect(
      events.filter((event) => event.type === 'checkin.completed' && event.personId === ada!.personId),
    ).toHaveLength(1);
  });

  it("finds nobody in another tenant's gallery", async () => {
    // Prepare
    const [studio, other] = await Promise.all([
      studioWith({ mode: 'importedOnly', allowedEmailDomains: [] }),
      studioWith({ mode: 'importedOnly', allowedEmailDomains: [] }),
    ]);
    const [ada] = await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1' }]);
    // Act
    const elsewhere = await post(other, other.validBody({ employeeId: 'E-1' }));
    // Assess
    expect([elsewhere.status, elsewhere.body.error]).toEqual([403, 'not_on_guest_list']);
    expect((await personItem(studio, ada!.personId)).checkedInAt).toBeUndefined();
    expect(await persons(other)).toEqual([]);
  });

  it('refuses a check-in at a day that is full and leaves the imported person to check in again', async () => {
    // Prepare
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [ada] = await importPersons(studio, [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@example.com', shootingDayId: studio.smallDay.id },
      { name: 'Alan Turing', email: 'alan@example.com', shootingDayId: studio.smallDay.id },
    ]);
    // Act
    const full = await post(
      studio,
      studio.validBody({ shootingDayId: studio.smallDay.id, selfieBase64: makeJpeg(16, 16).toString('base64') }),
    );
    const afterRefusal = { person: await personItem(studio, ada!.personId), selfies: await selfieKeys(studio) };
    const later = await post(studio, studio.validBody({ shootingDayId: studio.openDay.id }));
    // Assess
    expect([full.status, full.body.error]).toEqual([409, 'shooting_day_full']);
    expect([afterRefusal.person.checkinClaim, afterRefusal.person.checkedInAt, afterRefusal.selfies]).toEqual([
      undefined,
      undefined,
      [],
    ]);
    expect([later.status, later.body.personId]).toEqual([200, ada!.personId]);
  });

  it('takes over a claim whose check-in stopped half-way once it lapsed, and not before', async () => {
    // Prepare: a claim left by a check-in that stopped (its instance ended).
    const studio = await studioWith({ mode: 'importedOnly', allowedEmailDomains: [] });
    const [ada] = await importPersons(studio, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    const leaveClaim = (until: number) =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.person(studio.tenant.tenantId, studio.token, ada!.personId),
          UpdateExpression: 'SET checkinClaim = :claim, checkinClaimUntil = :until',
          ExpressionAttributeValues: { ':claim': 'stopped-check-in', ':until': until },
        }),
      );
    await leaveClaim(Date.now() + CHECKIN_CLAIM_MS);
    // Act
    const whileHeld = await post(studio, studio.validBody());
    await leaveClaim(Date.now() - 1);
    const afterLapse = await post(studio, studio.validBody());
    // Assess: while the claim holds, the person counts as checked in (a repeated check-in of the address).
    expect([whileHeld.status, whileHeld.body.personId === ada!.personId]).toEqual([200, false]);
    expect([afterLapse.status, afterLapse.body.personId, afterLapse.body.code]).toEqual([
      200,
      ada!.personId,
      ada!.code,
    ]);
  });
});
