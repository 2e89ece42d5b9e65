import { randomInt } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { db, tableName } from '#lib/platform/table/client';
import { addShootingDay } from '#lib/galleries/store/galleries';
import { GALLERY_ITEM, keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { recordStripeReadiness } from '#lib/tenants/store/tenants';
import * as accessCodes from '#lib/persons/rules/access-codes';
import { type ApiAnswer, useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { createTestTenant } from '../../support/factories';
import { makeJpeg, testS3 } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';

/**
 * Concurrency (issue 9): the invariants that must hold however requests interleave.
 *
 * - Access codes: unique within a gallery and never lost while imports and check-ins write
 *   at once, also when the code generator is forced to collide (a tiny or concentrated code
 *   space), and nothing half-written when the bounded collision retry gives up.
 * - Capacity: free check-ins, paid reservations (Stripe emulator) and imports of one day at
 *   once, then payments and expiries racing new check-ins: never more check-ins/reservations
 *   than the capacity, `booked` equal to what is stored, counters exact.
 * - Rate limit: one key across primary paths and aliases of different endpoints (GET and
 *   POST) admits exactly 60; two keys of one tenant are independent; headers consistent.
 * - Idempotency-Key: concurrent repeats create one result, on POST persons (primary path,
 *   and primary path mixed with its alias) and on the public check-in.
 *
 * Existing files already hold single-path versions (200 check-ins on one day of capacity 25,
 * 120 requests on one path with one key, 8 repeats of a one-row import); these tests add the
 * mixed writers, the forced collisions and the cross-checks against the stored items.
 */

const api = useLocalApi();
const stripe = useStripeEmulator(api);

const CODE_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/;
/** The real generator, captured before any test replaces the module's export. */
const realGenerateAccessCode = accessCodes.generateAccessCode;

type Item = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const importPath = (token: string, alias: boolean) =>
  alias ? `/groupshoot/${token}/persons` : `/group-shoot/checkin/${token}/persons`;

function importRows(count: number, prefix: string, dayId?: (index: number) => string | undefined) {
  return Array.from({ length: count }, (_, index) => ({
    name: `${prefix} ${index}`,
    email: `${prefix.toLowerCase().replace(/\W/g, '')}.${index}@example.com`,
    employeeId: `${prefix}-${index}`,
    ...(dayId?.(index) ? { shootingDayId: dayId(index) } : {}),
  }));
}

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  api.call(path, { method: 'POST', headers, body });

/** Every item of the table whose partition key starts so (code items live in partitions of their own). */
async function scanByPrefix(prefix: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': prefix },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** What the table holds for one gallery: persons, code items, orders, days and the statistics item. */
async function readGallery(tenantId: string, token: string) {
  const [persons, codeItems, orders, configuration] = await Promise.all([
    queryPartition(keys.personsOfGallery(tenantId, token)) as Promise<Item[]>,
    scanByPrefix(keys.accessCode(tenantId, token, '').pk),
    queryPartition(keys.order(tenantId, token, 'none').pk) as Promise<Item[]>,
    queryPartition(keys.galleryPartition(tenantId, token)) as Promise<Item[]>,
  ]);
  // A day's booked spots: summed over its item and its spot counters, which lie under its sort key.
  const days = new Map<string, Item>();
  for (const item of configuration.filter((candidate) => String(candidate.sk).startsWith(GALLERY_ITEM.shootingDay))) {
    const dayId = String(item.sk).slice(GALLERY_ITEM.shootingDay.length).split('#')[0]!;
    const day = days.get(dayId) ?? { booked: 0 };
    days.set(dayId, {
      ...day,
      ...(item.dayId ? {} : item),
      booked: (day.booked as number) + (typeof item.booked === 'number' ? item.booked : 0),
    });
  }
  const stats = configuration.find((item) => item.sk === 'STATS') ?? {};
  return { persons, codeItems, orders, days, stats };
}

type GallerySnapshot = Awaited<ReturnType<typeof readGallery>>;

/**
 * Every way the codes can be wrong: a person without a well-formed code, a code held twice, a
 * person whose code item is missing or points at someone else, a code item without its person.
 */
function codeProblems({ persons, codeItems }: GallerySnapshot): string[] {
  const problems: string[] = [];
  const holders = new Map<string, Item[]>();
  for (const person of persons) {
    if (typeof person.code !== 'string' || !CODE_PATTERN.test(person.code))
      problems.push(`person ${person.personId} has code ${person.code}`);
    holders.set(person.code, [...(holders.get(person.code) ?? []), person]);
  }
  for (const [code, list] of holders) {
    if (list.length > 1)
      problems.push(`code ${code} is held by ${list.length} persons: ${list.map((p) => p.personId).join(', ')}`);
  }
  // A code item's partition key ends in its code (keys.accessCode).
  const itemByCode = new Map(codeItems.map((item) => [String(item.pk).split('#').pop()!, item]));
  for (const person of persons) {
    const item = itemByCode.get(person.code);
    if (!item) problems.push(`person ${person.personId}: no item for its code ${person.code}`);
    else if (item.personId !== person.personId)
      problems.push(`code item ${person.code} points at ${item.personId}, not at ${person.personId}`);
  }
  for (const [code, item] of itemByCode) {
    if (!holders.has(code)) problems.push(`code item ${code} (personId ${item.personId}) has no person`);
  }
  return problems;
}

/** Each day's `booked` must be the persons stored on it plus the pending reservations holding it. */
function bookingProblems({ persons, orders, days }: GallerySnapshot): string[] {
  const problems: string[] = [];
  for (const [dayId, day] of days) {
    const personsOnDay = persons.filter((person) => person.shootingDayId === dayId).length;
    const held = orders.filter((order) => order.status === 'pending' && order.person?.shootingDayId === dayId).length;
    const booked = typeof day.booked === 'number' ? day.booked : 0;
    if (booked !== personsOnDay + held)
      problems.push(`day ${dayId}: booked ${booked}, but ${personsOnDay} persons + ${held} pending reservations`);
  }
  return problems;
}

function count<T>(list: readonly T[], predicate: (item: T) => boolean): number {
  return list.filter(predicate).length;
}

function statusesOf(answers: readonly ApiAnswer[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const answer of answers) {
    const label = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error}`;
    tally[label] = (tally[label] ?? 0) + 1;
  }
  return tally;
}

/** Deterministic interleaving of request starts from several lists: a, b, c, a, b, c, … */
function interleave<T>(...lists: T[][]): T[] {
  const out: T[] = [];
  for (let index = 0; out.length < lists.reduce((sum, list) => sum + list.length, 0); index += 1) {
    for (const list of lists) if (index < list.length) out.push(list[index]!);
  }
  return out;
}

/**
 * Replaces the access-code generator (the module's exports, which every caller reaches through
 * the module import) by one drawing from `draw`. The "not in" variant never loops forever,
 * whatever the test's space: it throws after many draws.
 */
function replaceCodeGenerator(draw: () => string) {
  jest.spyOn(accessCodes, 'generateAccessCode').mockImplementation(draw);
  jest.spyOn(accessCodes, 'generateAccessCodeNotIn').mockImplementation((taken: ReadonlySet<string>) => {
    for (let attempt = 0; attempt < 100_000; attempt += 1) {
      const code = draw();
      if (!taken.has(code)) return code;
    }
    throw new Error('test code space exhausted within one batch');
  });
}

/** Counts code items whose conditional Put failed (a collision with a code in the gallery), as DynamoDB reports them. */
function countCodeCollisions(): { readonly collisions: number } {
  const counter = { collisions: 0 };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      try {
        return await next(args);
      } catch (error) {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        const items =
          (args.input as { TransactItems?: { Put?: { Item?: Record<string, unknown> } }[] }).TransactItems ?? [];
        reasons.forEach((reason, index) => {
          const isCodeItem = items[index]?.Put?.Item?.sk === keys.accessCode('', '', '').sk;
          if (reason.Code === 'ConditionalCheckFailed' && isCodeItem) counter.collisions += 1;
        });
        throw error;
      }
    },
    { step: 'initialize', name: 'concurrency-code-collisions' },
  );
  return counter;
}

const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

async function selfieObjects(studio: CheckinStudio) {
  const listing = await testS3.send(
    new ListObjectsV2Command({
      Bucket: process.env.MEDIA_BUCKET,
      Prefix: `selfies/${studio.tenant.tenantId}/${studio.token}/`,
    }),
  );
  return listing.Contents ?? [];
}

afterEach(() => {
  jest.restoreAllMocks();
  db.middlewareStack.remove('concurrency-code-collisions');
});

// ---------------------------------------------------------------------------------------------
// 1. Access codes under concurrent writers of one gallery
// ---------------------------------------------------------------------------------------------

describe('access codes under concurrent writers of one gallery', () => {
  it('gives 6 concurrent imports of 300 and 100 concurrent check-ins distinct codes, each with its code item, and exact counters', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const { tenantId } = studio.tenant;
    const selfie = makeJpeg(8, 8).toString('base64');
    const imports = Array.from(
      { length: 6 },
      (_, batch) => () =>
        post(importPath(studio.token, batch % 2 === 1), studio.serverHeaders, {
          persons: importRows(300, `Batch${batch}`, (index) => (index % 2 === 0 ? studio.openDay.id : undefined)),
        }),
    );
    const checkins = Array.from(
      { length: 100 },
      (_, index) => () =>
        post(
          '/group-shoot',
          studio.publicHeaders,
          studio.validBody({
            name: `Walk-in ${index}`,
            email: `walkin.${index}@example.com`,
            ...(index % 2 === 0 ? { shootingDayId: studio.openDay.id } : {}),
            ...(index % 10 === 0 ? { selfieBase64: selfie } : {}),
          }),
        ),
    );
    // Act: every writer at once, imports started among the check-ins
    const answers = await Promise.all(
      interleave(imports, checkins.slice(0, 50), checkins.slice(50)).map((start) => start()),
    );
    const importAnswers = answers.filter((answer) => Array.isArray(answer.body?.persons));
    const checkinAnswers = answers.filter((answer) => !Array.isArray(answer.body?.persons));
    const stored = await readGallery(tenantId, studio.token);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    const days = await api.call(`/group-shoot/checkin/${studio.token}/days`, { headers: studio.serverHeaders });
    // Assess: every request succeeded, completely
    expect(statusesOf(answers)).toEqual({ '200': 106 });
    for (const answer of importAnswers) expect([answer.body.imported, answer.body.skipped]).toEqual([300, 0]);
    // what is stored: exactly 1900 persons, each code unique and owned by its code item
    expect(stored.persons.length).toBe(1900);
    expect(codeProblems(stored)).toEqual([]);
    expect(stored.codeItems.length).toBe(1900);
    // the answers tell the stored codes
    const storedCode = new Map(stored.persons.map((person) => [person.personId, person.code]));
    const answered = [
      ...importAnswers.flatMap((answer) => answer.body.persons.map((person: Item) => [person.personId, person.code])),
      ...checkinAnswers.map((answer) => [answer.body.personId, answer.body.code]),
    ];
    expect(answered.length).toBe(1900);
    expect(answered.filter(([personId, code]) => storedCode.get(personId) !== code)).toEqual([]);
    // counters: exact, since nothing failed
    expect(stats.body.persons).toEqual({
      total: 1900,
      bySource: { import: 1800, checkin: 100 },
      withSelfie: 10,
      withPhotos: 0,
    });
    const openDay = days.body.shootingDays.find((day: Item) => day.id === studio.openDay.id);
    expect(openDay.booked).toBe(count(stored.persons, (person) => person.shootingDayId === studio.openDay.id));
    expect(openDay.booked).toBe(6 * 150 + 50);
    expect(bookingProblems(stored)).toEqual([]);
  }, 90_000);

  it('keeps codes unique and loses nothing when concurrent writers are made to collide on a few codes', async () => {
    // Prepare: a quarter of all draws fall on 8 "hot" codes, which are taken early, so later
    // writers collide with them; the rest come from the real generator.
    const studio = await createCheckinStudio();
    const { tenantId } = studio.tenant;
    const hot = ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE', 'FFFF', 'GGGG', 'HHHH'];
    replaceCodeGenerator(() => (Math.random() < 0.25 ? hot[randomInt(hot.length)]! : realGenerateAccessCode()));
    const collisions = countCodeCollisions();
    const imports = Array.from(
      { length: 6 },
      (_, batch) => () =>
        post(importPath(studio.token, batch % 2 === 0), studio.serverHeaders, {
          persons: importRows(100, `Hot${batch}`, (index) => (index % 3 === 0 ? studio.openDay.id : undefined)),
        }),
    );
    const checkins = Array.from(
      { length: 60 },
      (_, index) => () =>
        post(
          '/group-shoot',
          studio.publicHeaders,
          studio.validBody({ name: `Hot walk-in ${index}`, shootingDayId: studio.openDay.id }),
        ),
    );
    // Act
    const answers = await Promise.all(interleave(imports, checkins).map((start) => start()));
    jest.restoreAllMocks();
    const stored = await readGallery(tenantId, studio.token);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    // Assess: every writer succeeded, codes unique, nothing lost
    expect(statusesOf(answers)).toEqual({ '200': 66 });
    for (const answer of answers.filter((a) => Array.isArray(a.body?.persons)))
      expect([answer.body.imported, answer.body.skipped]).toEqual([100, 0]);
    expect(stored.persons.length).toBe(660);
    expect(codeProblems(stored)).toEqual([]);
    // every hot code was contended for and ended with exactly one person
    expect(hot.filter((code) => count(stored.persons, (person) => person.code === code) !== 1)).toEqual([]);
    // and the collisions really happened at DynamoDB (conditional code Puts that failed and were redrawn)
    expect(collisions.collisions).toBeGreaterThanOrEqual(10);
    // no answered code differs from the stored one (a retried person must answer its final code)
    const storedCode = new Map(stored.persons.map((person) => [person.personId, person.code]));
    const answered = answers.flatMap((answer) =>
      Array.isArray(answer.body?.persons)
        ? answer.body.persons.map((p: Item) => [p.personId, p.code])
        : [[answer.body.personId, answer.body.code]],
    );
    expect(answered.filter(([personId, code]) => storedCode.get(personId) !== code)).toEqual([]);
    expect(stats.body.persons.bySource).toEqual({ import: 600, checkin: 60 });
    expect(bookingProblems(stored)).toEqual([]);
    expect(stored.days.get(studio.openDay.id)?.booked).toBe(6 * 34 + 60);
  }, 60_000);

  it('writes nothing half when no free code is left: imports report not_written, check-ins and payments fail whole', async () => {
    // Prepare: a code space of 20 codes, filled by a first import; a paid reservation holds a spot.
    const studio = await createPayingStudio();
    const { tenantId } = studio.tenant;
    const reserved = await post(
      '/group-shoot',
      studio.publicHeaders,
      studio.validBody({
        name: 'Pays later',
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
        shootingDayId: studio.smallDay.id,
      }),
    );
    expect(reserved.status).toBe(200);
    const space = Array.from({ length: 20 }, (_, index) => `${'ABCDEFGHJKMNPQRSTUVW'[index]}222`);
    replaceCodeGenerator(() => space[randomInt(space.length)]!);
    const filled = await post(importPath(studio.token, false), studio.serverHeaders, {
      persons: importRows(20, 'Fill'),
    });
    expect(filled.body.imported).toBe(20);
    const before = await readGallery(tenantId, studio.token);
    expect(new Set(before.persons.map((person) => person.code))).toEqual(new Set(space));
    const selfie = makeJpeg(8, 8).toString('base64');
    // Act: concurrent imports, check-ins (some with selfie and the small day), and the payment
    const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    const [imports, checkins] = await Promise.all([
      Promise.all(
        Array.from({ length: 4 }, (_, batch) =>
          post(importPath(studio.token, batch % 2 === 1), studio.serverHeaders, {
            persons: importRows(2, `Late${batch}`, () => studio.openDay.id),
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          post(
            '/group-shoot',
            studio.publicHeaders,
            studio.validBody({
              name: `Late walk-in ${index}`,
              shootingDayId: index % 2 === 0 ? studio.smallDay.id : studio.openDay.id,
              ...(index < 3 ? { selfieBase64: selfie } : {}),
            }),
          ),
        ),
      ),
      stripe.emulator.pay(session.id),
    ]);
    const during = await readGallery(tenantId, studio.token);
    const statusDuring = await post('/group-shoot', studio.publicHeaders, {
      action: 'checkinStatus',
      statusToken: reserved.body.statusToken,
    });
    const selfiesLeft = await selfieObjects(studio);
    // Once codes are free again, Stripe's redelivery of the payment creates the person.
    jest.restoreAllMocks();
    const { account, ...paidSession } = session;
    const redelivered = await stripe.emulator.deliver('checkout.session.completed', account, paidSession);
    const after = await readGallery(tenantId, studio.token);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    // Assess: imports answer 200 with every row skipped as not_written (documented)
    for (const answer of imports) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(
        expect.objectContaining({
          imported: 0,
          skipped: 2,
          persons: [],
          skippedDetails: [
            { index: 0, reason: 'not_written' },
            { index: 1, reason: 'not_written' },
          ],
        }),
      );
    }
    // check-ins fail as a whole with the documented retryable error, never as a half-written person
    for (const answer of checkins) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'storage_unavailable' }));
    }
    expect(during.persons.length).toBe(20);
    expect(codeProblems(during)).toEqual([]);
    expect(bookingProblems(during)).toEqual([]);
    expect(during.days.get(studio.smallDay.id)?.booked).toBe(1); // the reservation only
    expect(during.days.get(studio.openDay.id)?.booked ?? 0).toBe(0);
    expect(selfiesLeft).toEqual([]);
    expect(statusDuring.body.status).toBe('pending'); // the payment is not lost: the order still holds its spot
    expect(redelivered).toBe(200);
    expect(after.persons.length).toBe(21);
    expect(codeProblems(after)).toEqual([]);
    expect(bookingProblems(after)).toEqual([]);
    expect(after.days.get(studio.smallDay.id)?.booked).toBe(1);
    expect(stats.body.persons.bySource).toEqual({ import: 20, checkin: 1 });
    expect(stats.body.persons.withSelfie).toBe(0);
    expect(stats.body.orders).toEqual({ pending: 0, paid: 1, expired: 0, canceled: 0 });
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. Capacity under mixed concurrency
// ---------------------------------------------------------------------------------------------

describe('capacity under concurrent free check-ins, paid reservations and imports', () => {
  it('never lets check-ins and reservations exceed the capacity, and keeps booked equal to what is stored', async () => {
    // Prepare: a day of capacity 20; three imports of one person each target it too (never refused).
    // Reservations may hold the whole day here: the cap on pending payments has tests of its own (checkin-limits).
    // 15 free check-ins and 3 imports cannot fill the day alone, so whichever way the race goes,
    // at least 2 spots end up held by reservations.
    const studio = await createPayingStudio({ publicLimits: { pendingPaymentsShare: 1 } });
    const { tenantId } = studio.tenant;
    const capacity = 20;
    // The account's readiness is known already (as after any earlier paid check-in), so paid
    // check-ins reach their reservation as fast as free ones reach theirs.
    await recordStripeReadiness(studio.slug, {
      accountId: `acct_${studio.slug.replace(/-/g, '')}`,
      ready: true,
      checkedAt: Date.now(),
    });
    const day = await addShootingDay(tenantId, studio.token, {
      date: '2027-08-01',
      label: 'Mixed',
      startTime: '08:00',
      endTime: '18:00',
      maxPersons: capacity,
    });
    const checkin = (overrides: Record<string, unknown>) => () =>
      post('/group-shoot', studio.publicHeaders, studio.validBody({ shootingDayId: day.id, ...overrides }));
    const free = Array.from({ length: 15 }, (_, index) => ({
      kind: 'free',
      start: checkin({ name: `Free ${index}` }),
    }));
    const paid = Array.from({ length: 20 }, (_, index) => ({
      kind: 'paid',
      start: checkin({
        name: `Paid ${index}`,
        email: `paid.${index}@example.com`,
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
      }),
    }));
    const imports = Array.from({ length: 3 }, (_, batch) => ({
      kind: 'import',
      start: () =>
        post(importPath(studio.token, batch === 1), studio.serverHeaders, {
          persons: importRows(1, `Capacity${batch}`, () => day.id),
        }),
    }));

    // Act, phase 1: everything at once
    const tasks = interleave(free, paid, imports);
    const phase1 = await Promise.all(tasks.map((task) => task.start()));
    const answersOf = (kind: string) => phase1.filter((_, index) => tasks[index]!.kind === kind);
    const [freeAnswers, paidAnswers, importAnswers] = [answersOf('free'), answersOf('paid'), answersOf('import')];
    const afterPhase1 = await readGallery(tenantId, studio.token);

    // Assess phase 1
    const imported = importAnswers.reduce((sum, answer) => sum + answer.body.imported, 0);
    expect(imported).toBe(3);
    expect(statusesOf(importAnswers)).toEqual({ '200': 3 });
    const refused = [...freeAnswers, ...paidAnswers].filter((answer) => answer.status !== 200);
    expect(
      refused
        .map((answer) => `${answer.status} ${answer.body.error}`)
        .filter((label) => label !== '409 shooting_day_full'),
    ).toEqual([]);
    const freeAdmitted = count(
      afterPhase1.persons,
      (person) => person.source === 'checkin' && person.shootingDayId === day.id,
    );
    const reservations = afterPhase1.orders.filter(
      (order) => order.status === 'pending' && order.person?.shootingDayId === day.id,
    );
    const reserved = paidAnswers.filter((answer) => answer.status === 200);
    expect(freeAdmitted).toBe(count(freeAnswers, (answer) => answer.status === 200));
    expect(reservations.map((order) => order.orderId).sort()).toEqual(
      reserved.map((answer) => answer.body.orderId).sort(),
    );
    const admitted = freeAdmitted + reservations.length;
    expect(admitted).toBeLessThanOrEqual(capacity);
    // 35 check-ins for the 17 spots the imports leave: some were refused, each refusal saw a full day
    expect(refused.length).toBeGreaterThan(0);
    expect(admitted + imported).toBeGreaterThanOrEqual(capacity);
    expect(bookingProblems(afterPhase1)).toEqual([]);
    expect(codeProblems(afterPhase1)).toEqual([]);
    expect(afterPhase1.days.get(day.id)?.booked).toBe(imported + admitted);
    expect(reservations.length).toBeGreaterThanOrEqual(capacity - imported - free.length); // the mix really had reservations in it

    // Act, phase 2: a third of the reservations are paid, the others expire (freeing spots), while more check in
    const toPay = reserved.slice(0, Math.ceil(reserved.length / 3));
    const toExpire = reserved.slice(toPay.length);
    // 5 check in at once; each expiry, once delivered, sends two more racing for the spot it freed
    const lateCheckin = (name: string) =>
      post('/group-shoot', studio.publicHeaders, studio.validBody({ name, shootingDayId: day.id }));
    const [lateNow, lateAfterExpiry] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, (_, index) => lateCheckin(`Late ${index}`))),
      Promise.all(
        toExpire.map((answer, index) =>
          stripe.emulator
            .expire(sessionIdOf(answer.body.checkoutUrl))
            .then(() => Promise.all([lateCheckin(`Racer ${index}a`), lateCheckin(`Racer ${index}b`)])),
        ),
      ),
      Promise.all(toPay.map((answer) => stripe.emulator.pay(sessionIdOf(answer.body.checkoutUrl)))),
    ]);
    const lateAnswers = [...lateNow, ...lateAfterExpiry.flat()];
    const afterPhase2 = await readGallery(tenantId, studio.token);
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    const stats = await api.call(`/group-shoot/checkin/${studio.token}/stats`, { headers: studio.serverHeaders });

    // Assess phase 2
    const lateAdmitted = count(lateAnswers, (answer) => answer.status === 200);
    expect(lateAnswers.filter((answer) => answer.status !== 200 && answer.body.error !== 'shooting_day_full')).toEqual(
      [],
    );
    const orders = afterPhase2.orders;
    expect(count(orders, (order) => order.status === 'paid')).toBe(toPay.length);
    expect(count(orders, (order) => order.status === 'expired')).toBe(toExpire.length);
    expect(count(orders, (order) => order.status === 'pending')).toBe(0);
    const checkedIn = count(afterPhase2.persons, (person) => person.source === 'checkin');
    expect(checkedIn).toBe(freeAdmitted + lateAdmitted + toPay.length);
    expect(checkedIn).toBeLessThanOrEqual(capacity); // spots held by participants never exceed the capacity
    if (lateAdmitted < lateAnswers.length) {
      // a late refusal saw a full day; only expiries can have freed spots since
      expect(afterPhase2.days.get(day.id)?.booked).toBeGreaterThanOrEqual(capacity - toExpire.length);
    }
    expect(afterPhase2.persons.length).toBe(imported + checkedIn);
    expect(codeProblems(afterPhase2)).toEqual([]);
    expect(bookingProblems(afterPhase2)).toEqual([]);
    const booked = imported + checkedIn;
    expect(days.body.shootingDays.find((entry: Item) => entry.id === day.id)).toEqual(
      expect.objectContaining({ booked, maxPersons: capacity, spotsRemaining: Math.max(0, capacity - booked) }),
    );
    expect(stats.body.persons.bySource).toEqual({ import: imported, checkin: checkedIn });
    expect(stats.body.orders).toEqual({ pending: 0, paid: toPay.length, expired: toExpire.length, canceled: 0 });
    expect(stats.body.shootingDays.find((entry: Item) => entry.id === day.id).booked).toBe(booked);

    // Act, phase 3: after all that, a burst of 10 fills exactly the spots the counter says are left
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        post('/group-shoot', studio.publicHeaders, studio.validBody({ name: `Burst ${index}`, shootingDayId: day.id })),
      ),
    );
    const final = await readGallery(tenantId, studio.token);
    // Assess phase 3
    const fits = Math.min(burst.length, Math.max(0, capacity - booked));
    expect(count(burst, (answer) => answer.status === 200)).toBe(fits);
    expect(count(burst, (answer) => answer.status === 409 && answer.body.error === 'shooting_day_full')).toBe(
      burst.length - fits,
    );
    expect(bookingProblems(final)).toEqual([]);
    expect(codeProblems(final)).toEqual([]);
    expect(count(final.persons, (person) => person.source === 'checkin')).toBeLessThanOrEqual(capacity);
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------
// 3. Rate limit under concurrency
// ---------------------------------------------------------------------------------------------

describe('rate limit under concurrency', () => {
  /** A standing clock, half a second into a second: the bucket cannot refill mid-test however slow the machine. */
  const START = 1_900_000_000_500;
  beforeEach(() => setClock(() => START));
  afterEach(() => resetClock());

  /** Admitted answers: the k-th admission (k = 60 - remaining) moved the bucket to START + k s. */
  function headerProblems(answers: readonly ApiAnswer[]): string[] {
    const problems: string[] = [];
    for (const answer of answers) {
      const limit = answer.headers.get('x-ratelimit-limit');
      const remaining = Number(answer.headers.get('x-ratelimit-remaining'));
      const reset = Number(answer.headers.get('x-ratelimit-reset'));
      if (limit !== '60') problems.push(`limit ${limit}`);
      if (!Number.isInteger(remaining) || remaining < 0 || remaining > 59)
        problems.push(`remaining ${answer.headers.get('x-ratelimit-remaining')}`);
      if (answer.status === 429) {
        if (remaining !== 0) problems.push(`429 with remaining ${remaining}`);
        if (reset !== Math.ceil(START / 1000) + 1) problems.push(`429 with reset ${reset}`);
        if (answer.headers.get('retry-after') !== String(reset - Math.floor(START / 1000)))
          problems.push(`Retry-After ${answer.headers.get('retry-after')}`);
        if (answer.body?.error !== 'rate_limit_exceeded') problems.push(`429 error ${answer.body?.error}`);
      } else if (reset !== Math.ceil((START + (60 - remaining) * 1000) / 1000)) {
        problems.push(`admitted with remaining ${remaining} and reset ${reset}`);
      }
    }
    return problems;
  }

  it('admits exactly 60 of 150 concurrent requests of one key spread over primary paths and aliases of five endpoints', async () => {
    // Prepare
    const studio = await createTestTenant();
    const { secret } = await createApiKey(studio.tenant.tenantId, 'spread');
    const headers = { 'X-Tenant-Slug': studio.slug, Authorization: `Bearer ${secret}` };
    const t = studio.token;
    const requests: (() => Promise<ApiAnswer>)[] = [
      () => post(importPath(t, false), headers, { persons: [{ name: 'Primary path row' }] }),
      () => post(importPath(t, true), headers, { persons: [{ name: 'Alias row' }] }),
      () => api.call(`/group-shoot/checkin/${t}/days`, { headers }),
      () => api.call(`/groupshoot/${t}/days`, { headers }),
      () => api.call(`/group-shoot/checkin/${t}/stats`, { headers }),
      () => api.call(`/groupshoot/${t}/stats`, { headers }),
      () => api.call(`/group-shoot/checkin/${t}/form-fields`, { headers }),
      () => api.call(`/groupshoot/${t}/form-fields`, { headers }),
      () => api.call(`/group-shoot/checkin/${t}/persons?limit=1`, { headers }),
      () => api.call(`/groupshoot/${t}/persons?limit=1`, { headers }),
    ];
    // Act: the 120 reads start once the first import has been answered, and overlap the other 29.
    // Started together, the POSTs (slower to send and to parse) all arrived once the reads had
    // spent the key, and the admitted-import branch below went untested.
    const imports = Array.from({ length: 30 }, (_, index) => requests[index % 2]!());
    await Promise.race(imports);
    const reads = Array.from({ length: 120 }, (_, index) => requests[2 + (index % 8)]!());
    const [importAnswers, readAnswers] = await Promise.all([Promise.all(imports), Promise.all(reads)]);
    const answers = [...importAnswers, ...readAnswers];
    // Assess
    expect(statusesOf(answers)).toEqual({ '200': 60, '429 rate_limit_exceeded': 90 });
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers.get('x-ratelimit-remaining')));
    expect([...remaining].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(headerProblems(answers)).toEqual([]);
    // a refused import stored nothing, an admitted one exactly its row
    const admittedImports = count(importAnswers, (a) => a.status === 200);
    expect(importAnswers.filter((a) => a.status === 200 && a.body.imported !== 1)).toEqual([]);
    const stored = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored.length).toBe(admittedImports);
    expect(admittedImports).toBeGreaterThan(0);
    // and the key stays exhausted on every path
    const after = await Promise.all([
      api.call(`/groupshoot/${t}/days`, { headers }),
      api.call(`/group-shoot/checkin/${t}/stats`, { headers }),
    ]);
    expect(after.map((a) => a.status)).toEqual([429, 429]);
  }, 60_000);

  it('keeps two keys of one tenant independent under concurrency: 60 each, and a third key untouched', async () => {
    // Prepare
    const studio = await createTestTenant();
    const headersOf = async (name: string) => {
      const { secret } = await createApiKey(studio.tenant.tenantId, name);
      return { 'X-Tenant-Slug': studio.slug, Authorization: `Bearer ${secret}` };
    };
    const [first, second, third] = [await headersOf('first'), await headersOf('second'), await headersOf('third')];
    const t = studio.token;
    const call = (headers: Record<string, string>, index: number) =>
      api.call(index % 2 === 0 ? `/groupshoot/${t}/days` : `/group-shoot/checkin/${t}/stats`, { headers });
    // Act: 90 of each key interleaved, and 10 of a third key among them
    const started = Array.from({ length: 90 }, (_, index) => [
      call(first, index),
      call(second, index),
      ...(index % 9 === 0 ? [call(third, index)] : []),
    ]);
    const answers = await Promise.all(started.flat());
    const grouped = { first: [] as ApiAnswer[], second: [] as ApiAnswer[], third: [] as ApiAnswer[] };
    let position = 0;
    for (let index = 0; index < 90; index += 1) {
      grouped.first.push(answers[position++]!);
      grouped.second.push(answers[position++]!);
      if (index % 9 === 0) grouped.third.push(answers[position++]!);
    }
    // Assess
    for (const group of [grouped.first, grouped.second]) {
      expect(statusesOf(group)).toEqual({ '200': 60, '429 rate_limit_exceeded': 30 });
      const remaining = group
        .filter((a) => a.status === 200)
        .map((a) => Number(a.headers.get('x-ratelimit-remaining')));
      expect([...remaining].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, index) => index));
      expect(headerProblems(group)).toEqual([]);
    }
    expect(statusesOf(grouped.third)).toEqual({ '200': 10 });
    const thirdRemaining = grouped.third.map((a) => Number(a.headers.get('x-ratelimit-remaining')));
    expect([...thirdRemaining].sort((a, b) => a - b)).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
    expect(headerProblems(grouped.third)).toEqual([]);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. Idempotency-Key under concurrency
// ---------------------------------------------------------------------------------------------

describe('Idempotency-Key under concurrency', () => {
  /** Exactly one original 200; other 200s are replays of it; the rest 409 idempotency_key_in_use with Retry-After: 1. */
  function expectOneResult(answers: readonly ApiAnswer[]) {
    const originals = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    const replays = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === 'true');
    const inUse = answers.filter((a) => a.status === 409);
    expect(statusesOf(answers)).toEqual({
      '200': originals.length + replays.length,
      ...(inUse.length > 0 ? { '409 idempotency_key_in_use': inUse.length } : {}),
    });
    expect(originals.length).toBe(1);
    for (const replay of replays)
      expect({ ...replay.body, requestId: undefined }).toEqual({ ...originals[0]!.body, requestId: undefined });
    for (const answer of inUse) expect(answer.headers.get('retry-after')).toBe('1');
    return { original: originals[0]!, inUse };
  }

  async function importOnce(alias: (index: number) => boolean) {
    const studio = await createTestTenant();
    const body = { persons: importRows(200, 'Once', (index) => (index % 2 === 0 ? studio.days.later.id : undefined)) };
    const headers = { ...studio.serverHeaders, 'Idempotency-Key': 'hr-sync-concurrent' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => post(importPath(studio.token, alias(index)), headers, body)),
    );
    return { studio, body, headers, answers };
  }

  async function expectStoredOnce(studio: Awaited<ReturnType<typeof createTestTenant>>, original: ApiAnswer) {
    const stored = await readGallery(studio.tenant.tenantId, studio.token);
    expect(stored.persons.length).toBe(200);
    expect(stored.persons.map((person) => person.personId).sort()).toEqual(
      original.body.persons.map((person: Item) => person.personId).sort(),
    );
    expect(codeProblems(stored)).toEqual([]);
    expect(bookingProblems(stored)).toEqual([]);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.persons.bySource).toEqual({ import: 200, checkin: 0 });
    expect(stats.body.shootingDays.find((day: Item) => day.id === studio.days.later.id).booked).toBe(100);
  }

  it('imports once for 10 concurrent requests with one key, and replays it to each retry of a 409', async () => {
    // Act
    const { studio, body, headers, answers } = await importOnce(() => false);
    // Assess
    const { original, inUse } = expectOneResult(answers);
    expect(original.body.imported).toBe(200);
    await expectStoredOnce(studio, original);
    // each caller that got 409 retries once the first finished: a replay, nothing new
    const retries = await Promise.all(inUse.map(() => post(importPath(studio.token, false), headers, body)));
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.persons).toEqual(original.body.persons);
    }
    await expectStoredOnce(studio, original);
  }, 60_000);

  it('treats the alias as the same endpoint: one key sent concurrently on the primary path and its alias imports once', async () => {
    // The spec: "A short alias is equivalent to its primary path"; the README scopes keys to the endpoint.
    // Act
    const { studio, body, headers, answers } = await importOnce((index) => index % 2 === 1);
    // Assess: persons stored once whatever the answers say
    const stored = await readGallery(studio.tenant.tenantId, studio.token);
    expect(stored.persons.length).toBe(200);
    expect(codeProblems(stored)).toEqual([]);
    // and the answers are those of one request with one key: original, replays, in use; no 422
    const { original } = expectOneResult(answers);
    await expectStoredOnce(studio, original);
    const retryOnAlias = await post(importPath(studio.token, true), headers, body);
    const retryOnPrimary = await post(importPath(studio.token, false), headers, body);
    for (const retry of [retryOnAlias, retryOnPrimary]) {
      expect(`${retry.status} ${retry.body.error ?? ''}`).toBe('200 ');
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
  }, 60_000);

  it('checks a participant in once for 10 concurrent resends of one key, booking one spot', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const headers = { ...studio.publicHeaders, 'Idempotency-Key': 'tap-concurrent' };
    const body = studio.validBody({
      shootingDayId: studio.smallDay.id,
      selfieBase64: makeJpeg(8, 8).toString('base64'),
    });
    // Act
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/group-shoot', headers, body)));
    // Assess
    const { original } = expectOneResult(answers);
    const stored = await readGallery(studio.tenant.tenantId, studio.token);
    expect(stored.persons.map((person) => [person.personId, person.code])).toEqual([
      [original.body.personId, original.body.code],
    ]);
    expect(codeProblems(stored)).toEqual([]);
    expect(bookingProblems(stored)).toEqual([]);
    expect(stored.days.get(studio.smallDay.id)?.booked).toBe(1);
    expect(await selfieObjects(studio)).toHaveLength(1);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.persons).toEqual(expect.objectContaining({ total: 1, withSelfie: 1 }));
  }, 60_000);
});
