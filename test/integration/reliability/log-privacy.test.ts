/**
 * @logLevel DEBUG
 */
import Stripe from 'stripe';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { handler as sweepReservations } from '../../../functions/payments/sweep-reservations';
import { setClock } from '#lib/platform/clock';
import { addShootingDay, putFormField, updateGallerySettings } from '#lib/galleries/store/galleries';
import { photoObjectKey } from '#lib/platform/media-keys';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { always } from '../../support/faults/aws-fault-injection';
import type { AwsFault } from '../../support/faults/fault-lab';
import { cancelled, failedCondition, invalidParameter, s3Failure, when } from '../../support/faults/item-errors';
import { useFaultHarness } from '../../support/faults/fault-harness';
import { type Faults, underFaults } from '../../support/faults/fault-window';
import { type Fixture, newGallery, standClock, world } from '../../support/faults/galleries';
import { readState } from '../../support/faults/gallery-state';
import { services } from '../../support/faults/local-services';
import {
  CANARY,
  PHONE_DIGITS,
  addAccessCode,
  addSecret,
  allLines,
  canarySelfie,
  leaksIn,
  logThrownAsTheRuntimeDoes,
  takeLines,
  tally,
  useLogWatch,
} from '../../support/faults/log-watch';
import { FAULTS, MATRIX } from '../../support/faults/matrix';
import { webhookProbe } from '../../support/faults/probes/event-probes';
import {
  type Outcome,
  answerOf,
  call,
  importOne,
  paidCheckin,
  publicHeaders,
  serverHeaders,
  uniqueName,
} from '../../support/faults/requests';
import { IDEMPOTENCY_KEY_PREFIX } from '../../support/table-keys';

/**
 * Log privacy (issue 14, point 6): no log line holds a name, an email, a phone number, a token
 * (gallery token, statusToken, retryToken, Idempotency-Key, API key, Stripe keys), an access
 * code, an object key with a gallery token, or an item from an SDK error.
 *
 * Every request carries canaries (test/support/faults/log-watch.ts) and everything written to
 * stdout, stderr and the console is captured, with what the Lambda runtime would write for an
 * error a handler throws. It runs: the whole fault matrix (every route and path and the photo
 * ingest, without a fault and under each fault, then the recovery); the refusals that are not
 * faults (validation, 401, 404, 405, 409, 422, 429, payments, webhooks with a bad signature or
 * an unknown order, photo keys that name nothing); SDK errors that carry whole items and
 * messages quoting values, where they become 500s, 503s or logged side failures; and the
 * reservation sweep. After each test, and once more at the end with every secret learned,
 * no line may hold any of them; and the lines must be there.
 */

useFaultHarness({ galleriesAhead: MATRIX.length * (FAULTS.length + 1) + 30 });
useLogWatch();

/** A fresh gallery whose token is a secret of the run. */
async function watchedGallery(): Promise<Fixture> {
  const f = await newGallery();
  addSecret(f.token, 'gallery token');
  return f;
}

/** The access codes the gallery's persons and reservations hold, learned after the fact. */
async function harvestCodes(f: Fixture): Promise<void> {
  const state = await readState(f);
  for (const person of state.persons.values()) addAccessCode(person.code);
  for (const order of state.orders.values()) addAccessCode(order.code);
}

function expectNoLeaks(): void {
  expect(leaksIn(takeLines())).toEqual([]);
}

function noteThrown(outcome: Outcome): void {
  if (outcome.kind === 'invocation' && outcome.error) logThrownAsTheRuntimeDoes(outcome.error);
}

afterEach(() => standClock());

// ---------------------------------------------------------------------------------------------

describe.each(MATRIX.map((probe) => [probe.label, probe] as const))('the fault matrix: %s', (_label, probe) => {
  const runs: [string, Faults][] = [
    ['no fault', {}],
    ...FAULTS.map((fault) => [fault.name, fault.faults] as [string, Faults]),
  ];

  it.each(runs)('%s', async (_name, faults) => {
    const f = await watchedGallery();
    const setup = await probe.prepare(f, probe.template);
    const window = await underFaults(faults, () => setup.run());
    tally.matrixRuns += 1;
    if (probe.routeId === 'ingestPhoto') tally.invocations += 1;
    noteThrown(window.outcome);
    await setup.settle(window.outcome);
    await harvestCodes(f);
    expectNoLeaks();
  });
});

// ---------------------------------------------------------------------------------------------

const post = (f: Fixture, body: unknown, headers: Record<string, string> = {}) =>
  call(f, '/group-shoot', { method: 'POST', headers: { ...publicHeaders(), ...headers }, body });
const get = (f: Fixture, path: string, headers: Record<string, string> = serverHeaders()) => call(f, path, { headers });
const statusOf = (outcome: Outcome) => answerOf(outcome).status;

/** A gallery with custom fields (a select and a text) and a day of one place. */
async function galleryWithForm() {
  const f = await watchedGallery();
  const size = await putFormField(f.tenantId, f.token, {
    key: 'custom',
    label: 'Size',
    type: 'select',
    required: false,
    enabled: true,
    position: 1,
    options: [{ value: 's', label: 'S' }],
  });
  const motto = await putFormField(f.tenantId, f.token, {
    key: 'custom',
    label: 'Motto',
    type: 'text',
    required: false,
    enabled: true,
    position: 2,
  });
  const checkin = (overrides: Record<string, unknown> = {}) => ({
    action: 'submitCheckin',
    token: f.token,
    name: `${uniqueName('Grace')} ${CANARY}name`,
    email: `grace.${CANARY}mail@example.com`,
    employeeId: `E-${CANARY}emp`,
    phone: `+49 ${PHONE_DIGITS}`,
    department: `${CANARY}dept`,
    notes: `${CANARY}notes`,
    customFields: { [size.key]: 's', [motto.key]: `${CANARY}custom` },
    selfieBase64: canarySelfie,
    shootingDayId: f.dayId,
    ...overrides,
  });
  return { f, checkin, sizeKey: size.key };
}

describe('answers that are no faults', () => {
  it('validation refusals of a check-in, every field planted', async () => {
    const { f, checkin, sizeKey } = await galleryWithForm();
    const refusals = [
      checkin({ email: `not-an-address-${CANARY}mail` }),
      checkin({ name: `${'Ada '.repeat(50)}${CANARY}name` }),
      checkin({ customFields: { [sizeKey]: `${CANARY}custom` } }),
      checkin({ shootingDayId: `${CANARY}day` }),
      checkin({ selectedPackageId: `${CANARY}package` }),
      checkin({ selfieBase64: Buffer.from(`not a jpeg ${CANARY}selfie`).toString('base64') }),
      checkin({ action: `${CANARY}action` }),
      checkin({ token: `${CANARY}token` }),
    ];
    const statuses = [];
    for (const body of refusals) statuses.push(statusOf(await post(f, body)));
    statuses.push(
      statusOf(
        await call(f, '/group-shoot', {
          method: 'POST',
          headers: publicHeaders(),
          body: `{"name": "${CANARY}name", "email": `,
        }),
      ),
    );
    statuses.push(statusOf(await post(f, checkin(), { 'Idempotency-Key': `${CANARY}${'k'.repeat(300)}` })));
    expect(statuses.every((status) => status >= 400 && status < 500)).toBe(true);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it('check-ins refused for the state they meet: a full day, an address used up, a reused Idempotency-Key', async () => {
    const { f, checkin } = await galleryWithForm();
    const day = await addShootingDay(f.tenantId, f.token, {
      date: '2027-09-02',
      label: 'One place',
      startTime: '09:00',
      endTime: '10:00',
      maxPersons: 1,
    });
    await updateGallerySettings(f.tenantId, f.token, { publicLimits: { checkinsPerEmail: 1 } });
    const statuses = [
      statusOf(await post(f, checkin({ shootingDayId: day.id }))),
      statusOf(await post(f, checkin({ shootingDayId: day.id, email: `second.${CANARY}mail@example.com` }))), // shooting_day_full
      statusOf(await post(f, checkin())), // email_checkin_limit
      statusOf(
        await post(f, checkin({ email: `third.${CANARY}mail@example.com` }), { 'Idempotency-Key': `${CANARY}-reused` }),
      ),
      statusOf(
        await post(f, checkin({ email: `fourth.${CANARY}mail@example.com` }), {
          'Idempotency-Key': `${CANARY}-reused`,
        }),
      ), // idempotency_key_reused
    ];
    expect(statuses).toEqual([200, 409, 409, 200, 422]);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it('server refusals: keys, tenants, paths, parameters, persons and an import of invalid rows', async () => {
    const { f } = await galleryWithForm();
    const wrongKey = `gsk_${CANARY}${'x'.repeat(30)}`;
    addSecret(wrongKey, 'a wrong API key');
    addSecret(world.apiKey, 'the API key');
    const base = `/groupshoot/${f.token}`;
    const outcomes = [
      await get(f, `${base}/persons`, { 'X-Tenant-Slug': world.slug, Authorization: `Bearer ${wrongKey}` }),
      await get(f, `${base}/persons`, { 'X-Tenant-Slug': world.slug, 'X-Api-Key': wrongKey }),
      await get(f, `${base}/persons`, { 'X-Tenant-Slug': world.slug }),
      await get(f, `${base}/persons`, { 'X-Tenant-Slug': `${CANARY}tenant`, Authorization: `Bearer ${world.apiKey}` }),
      await get(f, `/groupshoot/${CANARY}token/persons`),
      await get(f, `${base}/persons?cursor=${CANARY}cursor&limit=${CANARY}`),
      await get(f, `${base}/persons/per_${'x'.repeat(26)}/photos`),
      await get(f, `${base}/persons/${CANARY}person/photos`),
      await get(f, `/${CANARY}/path`),
      await call(f, `${base}/persons`, { method: 'DELETE', headers: serverHeaders() }),
      await call(f, `${base}/persons`, {
        method: 'POST',
        headers: serverHeaders(),
        body: { persons: `${CANARY}rows` },
      }),
    ];
    expect(outcomes.map(statusOf).every((status) => status >= 400 && status < 500)).toBe(true);
    const rows = [
      { name: `Ada ${CANARY}name`, email: `invalid ${CANARY}mail` },
      { name: `${'x'.repeat(200)}${CANARY}name` },
      { name: `Bob ${CANARY}name`, shootingDayId: `${CANARY}day` },
    ];
    expect(
      statusOf(await call(f, `${base}/persons`, { method: 'POST', headers: serverHeaders(), body: { persons: rows } })),
    ).toBe(200);
    for (const path of ['/persons', '/stats', '/days', '/form-fields'])
      expect(statusOf(await get(f, `${base}${path}`))).toBe(200);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it("429s: the API key past its minute, a client past the gallery's read limit", async () => {
    const f = await watchedGallery();
    const statuses: number[] = [];
    for (let request = 0; request < 61; request += 1)
      statuses.push(statusOf(await get(f, `/groupshoot/${f.token}/days`)));
    expect(statuses.at(-1)).toBe(429);
    await updateGallerySettings(f.tenantId, f.token, { publicLimits: { reads: { limit: 2, windowMs: 60_000 } } });
    const reads: number[] = [];
    for (let request = 0; request < 3; request += 1)
      reads.push(statusOf(await call(f, `/group-shoot/checkin/${f.token}`, { headers: publicHeaders() })));
    expect(reads.at(-1)).toBe(429);
    expectNoLeaks();
  });

  it('a payment from reservation to paid, with wrong tokens on the way, and a retry once paid', async () => {
    const f = await watchedGallery();
    const reserved = await paidCheckin(f, { orderNotes: `${CANARY}ordernotes`, phone: `+49 ${PHONE_DIGITS}` });
    const statuses = [
      statusOf(await post(f, { action: 'checkinStatus', statusToken: `${CANARY}status` })),
      statusOf(await post(f, { action: 'retryCheckout', retryToken: `${CANARY}retry` })),
      statusOf(await post(f, { action: 'checkinStatus', statusToken: reserved.statusToken })),
      statusOf(await post(f, { action: 'retryCheckout', retryToken: reserved.retryToken })),
    ];
    expect(statuses).toEqual([404, 404, 200, 200]);
    const order = await readState(f);
    const sessionId = [...order.orders.values()][0]!.sessionId!;
    await services.emulator.pay(sessionId);
    await services.emulator.deliveriesSettled();
    expect(statusOf(await post(f, { action: 'checkinStatus', statusToken: reserved.statusToken }))).toBe(200);
    expect(statusOf(await post(f, { action: 'retryCheckout', retryToken: reserved.retryToken }))).toBe(409);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it('webhooks: a bad signature, a signed body that is no event, an event for an unknown order', async () => {
    const f = await watchedGallery();
    const payload = JSON.stringify({
      type: 'checkout.session.completed',
      data: { object: { customer_email: `ada.${CANARY}mail@example.com` } },
    });
    const webhook = (body: string, signature?: string) =>
      call(f, '/webhooks/stripe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
        body,
      });
    expect(statusOf(await webhook(payload, `t=1,v1=${CANARY}`))).toBe(400);
    expect(statusOf(await webhook(payload))).toBe(400);
    const notAnEvent = JSON.stringify({ hello: `${CANARY}hello` });
    const signed = new Stripe('sk_test_logs').webhooks.generateTestHeaderString({
      payload: notAnEvent,
      secret: services.emulator.webhookSecret,
    });
    expect(statusOf(await webhook(notAnEvent, signed))).toBeLessThan(500);
    const status = await services.emulator.deliver('checkout.session.completed', world.accountId, {
      // Session and order IDs are logged by design: only the email and the token are planted.
      id: `cs_test_unknown${Date.now()}`,
      object: 'checkout.session',
      customer_email: `ada.${CANARY}mail@example.com`,
      metadata: { orderId: 'ord_unknown', tenantId: world.tenantId, galleryToken: f.token },
    });
    expect(status).toBeLessThan(500);
    expectNoLeaks();
  });

  it('photo ingest: keys that name nothing, a person that does not exist, a file named after its person', async () => {
    const f = await watchedGallery();
    const personId = await importOne(f);
    const keys = [
      `photos/${f.tenantId}/${CANARY}token/${CANARY}person/portrait.jpg`,
      `selfies/${f.tenantId}/${f.token}/${personId}.jpg`,
      photoObjectKey({
        tenantId: f.tenantId,
        token: f.token,
        personId: `per_${'z'.repeat(26)}`,
        fileName: `Ada ${CANARY}.jpg`,
      }),
      photoObjectKey({ tenantId: f.tenantId, token: f.token, personId, fileName: `Ada ${CANARY}.jpg` }),
    ];
    for (const key of keys) {
      await uploadObject(key, makeJpeg(8, 8));
      tally.invocations += 1;
      await ingestPhoto(objectCreatedEvent(key)).catch((error: unknown) => logThrownAsTheRuntimeDoes(error));
    }
    await harvestCodes(f);
    expectNoLeaks();
  });
});

// ---------------------------------------------------------------------------------------------

describe('SDK errors that carry items and quote values', () => {
  const checkinOf = (f: Fixture) => ({
    action: 'submitCheckin',
    token: f.token,
    name: uniqueName('Item'),
    email: 'item@example.com',
    shootingDayId: f.dayId,
    selfieBase64: canarySelfie,
  });

  it.each([
    [
      'check-in info, every read failing its condition with an item (500)',
      (f: Fixture) => always('DynamoDB', { before: failedCondition(f) }),
      (f: Fixture) => get(f, `/group-shoot/checkin/${f.token}`, publicHeaders()),
    ],
    [
      'persons, a read refused with a message that quotes values (500)',
      (f: Fixture) => always('DynamoDB', { before: invalidParameter(f) }, 'QueryCommand'),
      (f: Fixture) => get(f, `/groupshoot/${f.token}/persons`),
    ],
    [
      'a check-in whose transaction is cancelled with items',
      (f: Fixture) => always('DynamoDB', { before: cancelled(f) }, 'TransactWriteItemsCommand'),
      (f: Fixture) => post(f, checkinOf(f)),
    ],
    [
      'an import whose transactions are cancelled with items',
      (f: Fixture) => always('DynamoDB', { before: cancelled(f) }, 'TransactWriteItemsCommand'),
      (f: Fixture) =>
        call(f, `/groupshoot/${f.token}/persons`, {
          method: 'POST',
          headers: serverHeaders(),
          body: { persons: [{ name: 'Row' }] },
        }),
    ],
    [
      'a paid check-in whose reservation is cancelled with items',
      (f: Fixture) => always('DynamoDB', { before: cancelled(f) }, 'TransactWriteItemsCommand'),
      (f: Fixture) => post(f, { ...checkinOf(f), selectedPackageId: f.paidPackageId, termsAccepted: true }),
    ],
    [
      'a selfie upload failing with its key in the message (503)',
      (f: Fixture) => always('S3', { before: s3Failure(f) }, 'PutObjectCommand'),
      (f: Fixture) => post(f, checkinOf(f)),
    ],
    [
      'a cancelled check-in whose selfie cannot be deleted either',
      (f: Fixture): AwsFault =>
        (attempt) =>
          when('TransactWriteItemsCommand', () => true, cancelled(f))(attempt) ??
          when('DeleteObjectCommand', () => true, s3Failure(f))(attempt),
      (f: Fixture) => post(f, checkinOf(f)),
    ],
    // A failed condition on the counters means "applied already" (gallery-counters.ts): a refusal quoting values fails them instead.
    [
      'a check-in whose counters fail with a message quoting values',
      (f: Fixture) => when('UpdateItemCommand', (input) => input.includes('"sk":"STATS"'), invalidParameter(f)),
      (f: Fixture) => post(f, checkinOf(f)),
    ],
    [
      'a check-in whose Idempotency-Key record cannot be completed',
      (f: Fixture) => when('UpdateItemCommand', (input) => input.includes(IDEMPOTENCY_KEY_PREFIX), failedCondition(f)),
      (f: Fixture) => post(f, checkinOf(f)),
    ],
  ] as const)('%s', async (_name, fault, request) => {
    const f = await watchedGallery();
    await paidCheckin(f).catch(() => undefined); // a reservation, and the studio's readiness cached
    const window = await underFaults({ aws: fault(f) }, () => request(f));
    expect(statusOf(window.outcome)).toBeGreaterThanOrEqual(200);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it('a paid webhook whose payment transaction is cancelled with items', async () => {
    const f = await watchedGallery();
    const setup = await webhookProbe.prepare(f, '/webhooks/stripe');
    const window = await underFaults(
      { aws: always('DynamoDB', { before: cancelled(f) }, 'TransactWriteItemsCommand') },
      () => setup.run(),
    );
    expect(statusOf(window.outcome)).toBeGreaterThanOrEqual(200);
    await harvestCodes(f);
    expectNoLeaks();
  });

  it('the photo ingest and the reservation sweep, whose errors escape to the Lambda runtime', async () => {
    const f = await watchedGallery();
    const personId = await importOne(f);
    await paidCheckin(f);
    const key = photoObjectKey({ tenantId: f.tenantId, token: f.token, personId, fileName: 'portrait.jpg' });
    await uploadObject(key, makeJpeg(8, 8));
    for (const invoke of [() => ingestPhoto(objectCreatedEvent(key)), () => sweepReservations()]) {
      tally.invocations += 1;
      const window = await underFaults({ aws: always('DynamoDB', { before: failedCondition(f) }) }, () =>
        invoke().then(
          () => ({ kind: 'invocation' }) as const,
          (error: Error) => ({ kind: 'invocation', error }) as const,
        ),
      );
      expect(window.outcome).toEqual({ kind: 'invocation', error: expect.any(Error) });
      noteThrown(window.outcome);
    }
    expectNoLeaks();
  });

  it('the reservation sweep of overdue reservations, with Stripe down and then up', async () => {
    const f = await watchedGallery();
    await paidCheckin(f);
    const overdue = Date.now() + 3 * 3_600_000;
    setClock(() => overdue);
    for (const faults of [{ stripe: 'down' }, {}] as Faults[]) {
      tally.invocations += 1;
      const window = await underFaults(faults, () => sweepReservations().then(() => ({ kind: 'invocation' }) as const));
      expect(window.outcome).toEqual({ kind: 'invocation' });
    }
    await harvestCodes(f);
    expectNoLeaks();
  });
});

// ---------------------------------------------------------------------------------------------

describe('the captured logs', () => {
  it('hold none of the secrets learned in the whole run, in any line', () => {
    expect(leaksIn(allLines())).toEqual([]);
  });

  it('are there: a line per request, and the failures the tests provoked, so the search above was not vacuous', () => {
    const lines = allLines();
    const json = lines.flatMap((line) =>
      line.text.startsWith('{') ? [JSON.parse(line.text) as Record<string, any>] : [],
    );
    const messages = new Set(json.map((line) => line.message));
    const completed = json.filter((line) => line.message === 'request completed').length;
    if (process.env.FAULTS_SUMMARY) {
      process.stdout.write(
        `\nlog privacy: ${tally.matrixRuns} runs of the fault matrix (${MATRIX.length} probes), ${tally.requests} requests, ${tally.invocations} invocations, ${lines.length} lines captured (${json.length} JSON, ${completed} access lines)\n`,
      );
    }
    expect(completed).toBeGreaterThanOrEqual(tally.requests * 0.9);
    for (const message of [
      'unexpected error',
      'storage unavailable after retries',
      'Stripe call failed',
      'selfie upload failed',
      'orphaned selfie could not be deleted',
      'check-in counters not updated',
      'idempotency record not completed',
      'photo object not ingested',
      'photo object ingested',
      'reservation sweep failed',
      'reservation not swept; the next sweep tries again',
      'Stripe event for an unknown order',
      'signed Stripe webhook body that is not an event',
    ]) {
      expect({ message, logged: messages.has(message) }).toEqual({ message, logged: true });
    }
    const unexpected = json.filter((line) => line.message === 'unexpected error').map((line) => line.error?.name);
    expect(unexpected).toEqual(expect.arrayContaining(['ConditionalCheckFailedException', 'ValidationException']));
    expect(lines.some((line) => line.source === 'Lambda runtime')).toBe(true);
  });
});
