import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type RealisticDynamoDb, startRealisticDynamoDb } from '../../../scripts/local/realistic-dynamodb/proxy';
import { lambdaContext, publicPostEvent } from '../../../scripts/local/api-gateway-event';
import { useTestTable } from '../../support/test-table';

useTestTable();

/**
 * The capacity of a day whose spots are spread over several counters
 * (docs/data-model.md#a-days-spots-on-several-counters), under the conflicts DynamoDB Local
 * never shows: every call of the service goes through the conflict proxy
 * (scripts/local/realistic-dynamodb/), so concurrent transactions on one counter cancel each
 * other as in AWS. (test/integration/reliability/concurrency.test.ts holds the same capacity on
 * DynamoDB Local alone.) The service's modules are loaded after the proxy is in place: the table
 * client reads its endpoint when it loads.
 */

let proxy: RealisticDynamoDb;
let service: Awaited<ReturnType<typeof loadService>>;

async function loadService() {
  const [{ handler: postGroupShoot }, tenants, galleries, bookings, counters, persons, erasure, imports] =
    await Promise.all([
      import('../../../functions/checkin/post-group-shoot'),
      import('#lib/tenants/store/tenants'),
      import('#lib/galleries/store/galleries'),
      import('#lib/galleries/store/day-bookings'),
      import('#lib/galleries/rules/spot-counters'),
      import('#lib/persons/store/persons'),
      import('#lib/privacy/erasure'),
      import('#lib/persons/import-persons'),
    ]);
  return { postGroupShoot, tenants, galleries, bookings, counters, persons, erasure, imports };
}

beforeAll(async () => {
  proxy = await startRealisticDynamoDb({ target: process.env.DYNAMODB_ENDPOINT! });
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  service = await loadService();
}, 60_000);
afterAll(async () => {
  await proxy.stop();
});

/** A tenant and a gallery with one day of `capacity`. */
async function hotDayGallery(capacity: number) {
  const slug = `conflicts-${randomBytes(3).toString('hex')}`;
  const tenant = await service.tenants.createTenant({ slug, name: 'Conflicts', plan: 'creator' });
  const gallery = await service.galleries.createGallery(tenant.tenantId, {
    galleryName: 'Announcement',
    isGroupShoot: true,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: true,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  const day = await service.galleries.addShootingDay(tenant.tenantId, gallery.token, {
    date: '2030-02-01',
    label: 'Hot',
    startTime: '09:00',
    endTime: '17:00',
    maxPersons: capacity,
  });
  return { tenant, slug, scope: { tenantId: tenant.tenantId, token: gallery.token }, dayId: day.id };
}

let participant = 0;
/** One participant's check-in to the day, from a network of their own, through the function as API Gateway calls it: the answer's error code, or 'ok'. */
async function checkIn(slug: string, token: string, dayId: string): Promise<string> {
  participant += 1;
  const body = {
    action: 'submitCheckin',
    token,
    name: `Participant ${participant}`,
    email: `participant-${participant}@example.com`,
    shootingDayId: dayId,
  };
  const sourceIp = `10.9.${Math.floor(participant / 250) % 256}.${participant % 250}`;
  const event = publicPostEvent(
    { routeKey: 'POST /group-shoot', path: '/group-shoot' },
    { 'x-tenant-slug': slug },
    sourceIp,
    body,
    Date.now(),
  );
  const answer = (await service.postGroupShoot(
    event,
    lambdaContext('post-group-shoot'),
  )) as APIGatewayProxyStructuredResultV2;
  return answer.statusCode === 200 ? 'ok' : String(JSON.parse(String(answer.body)).error);
}

const afterMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tally = (answers: readonly string[]) =>
  answers.reduce<Record<string, number>>((counts, answer) => ({ ...counts, [answer]: (counts[answer] ?? 0) + 1 }), {});

/** The persons stored on the day, and its booked count summed over its counters. */
async function dayState(scope: { tenantId: string; token: string }, dayId: string) {
  let onDay = 0;
  let afterPersonId: string | undefined;
  do {
    const page = await service.persons.listPersons(scope, { limit: 100, afterPersonId });
    onDay += page.persons.filter((person) => person.shootingDayId === dayId).length;
    afterPersonId = page.lastPersonId;
  } while (afterPersonId);
  const counters = (await service.bookings.readSpotCounters(scope, dayId))!;
  return { onDay, booked: service.counters.bookedOnCounters(counters), counters };
}

describe('capacity of a day spread over counters, under the conflicts of a real DynamoDB', () => {
  it('admits exactly the capacity of 150 check-ins within a second, refuses the rest as full, and fails none, though transactions conflicted', async () => {
    // Prepare
    const { slug, scope, dayId } = await hotDayGallery(40);
    const conflictsBefore = proxy.stats.transactionConflicts;

    // Act: three times the rate of the announcement burst's 3,000 participants a minute.
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, index) => afterMs(index * 6.7).then(() => checkIn(slug, scope.token, dayId))),
    );

    // Assess
    expect(tally(answers)).toEqual({ ok: 40, shooting_day_full: 110 });
    const state = await dayState(scope, dayId);
    expect([state.onDay, state.booked]).toEqual([40, 40]);
    expect(state.counters.every((counter) => counter.share === undefined || counter.booked <= counter.share)).toBe(
      true,
    );
    // The burst really met the conflicts that DynamoDB Local alone never shows.
    expect(proxy.stats.transactionConflicts).toBeGreaterThan(conflictsBefore);
  }, 120_000);

  it('keeps the capacity exact while spots are given back and imports arrive during a burst, then fills exactly what is left', async () => {
    // Prepare: a full day.
    const { tenant, slug, scope, dayId } = await hotDayGallery(24);
    expect(tally(await Promise.all(Array.from({ length: 30 }, () => checkIn(slug, scope.token, dayId))))).toEqual({
      ok: 24,
      shooting_day_full: 6,
    });
    const page = await service.persons.listPersons(scope, { limit: 100 });
    const leaving = page.persons.filter((person) => person.shootingDayId === dayId).slice(0, 6);
    const configuration = (await service.galleries.getGalleryConfiguration(scope.tenantId, scope.token))!;

    // Act: six erased (their spots given back), two imported (never refused) and 40 check-ins, all at once.
    const imported = service.imports.importPersons(tenant, configuration, {
      persons: [
        { name: 'Imported One', shootingDayId: dayId },
        { name: 'Imported Two', shootingDayId: dayId },
      ],
    } as never);
    const erased = Promise.all(
      leaving.map((person) => service.erasure.erasePersons(scope, { personId: person.personId })),
    );
    const racing = Promise.all(Array.from({ length: 40 }, () => checkIn(slug, scope.token, dayId)));
    const [, , raced] = await Promise.all([imported, erased, racing]);
    const afterRace = await dayState(scope, dayId);
    const final = await Promise.all(Array.from({ length: 10 }, () => checkIn(slug, scope.token, dayId)));
    const afterFinal = await dayState(scope, dayId);

    // Assess: no check-in beyond the capacity (imports may go over it, never check-ins), every counter within its share, the count exact.
    expect(Object.keys(tally(raced)).filter((answer) => answer !== 'ok' && answer !== 'shooting_day_full')).toEqual([]);
    expect(afterRace.booked).toBe(afterRace.onDay);
    const checkedInAfterRace = afterRace.onDay - 2;
    expect(checkedInAfterRace).toBeLessThanOrEqual(24);
    const fits = Math.max(0, 24 - afterRace.onDay);
    expect(tally(final)).toEqual({
      ...(fits > 0 ? { ok: fits } : {}),
      ...(fits < 10 ? { shooting_day_full: 10 - fits } : {}),
    });
    expect(afterFinal.booked).toBe(afterFinal.onDay);
    expect(afterFinal.onDay).toBe(Math.max(24, afterRace.onDay));
    expect(
      afterFinal.counters
        .filter((counter) => counter.id !== 'day')
        .every((counter) => counter.booked <= counter.share!),
    ).toBe(true);
  }, 120_000);
});
