import { Retry } from '@smithy/core/retry';
import { PERSONS_PER_TRANSACTION } from '#lib/persons/store/access-code-allocation';
import { galleryRef, logger } from '#lib/platform/logger';
import { type Route, pathsOf, routes } from '#lib/http/routes';
import { always, failures, restoreServices } from '../../support/faults/aws-fault-injection';
import { consistencyProblems, expectConsistent } from '../../support/faults/consistency';
import {
  expectDocumentedError,
  expectNoInternalError,
  undocumentedAnswer,
} from '../../support/faults/documented-answers';
import type { AwsFault } from '../../support/faults/fault-lab';
import { useFaultHarness } from '../../support/faults/fault-harness';
import { type Window, underFaults } from '../../support/faults/fault-window';
import { beginRun, newGallery } from '../../support/faults/galleries';
import { projection, readState } from '../../support/faults/gallery-state';
import { FAULTS, type FaultSpec, MATRIX, affected } from '../../support/faults/matrix';
import { type Probe, type Touches, fill } from '../../support/faults/probes/probe';
import {
  type Outcome,
  answerOf,
  call,
  checkinBody,
  describeOutcome,
  publicHeaders,
  serverHeaders,
  uniqueName,
} from '../../support/faults/requests';
import { FUNCTION_TIMEOUT_MS, expectRetriesBounded } from '../../support/faults/retry-bounds';
import {
  attemptTimeoutMs,
  initialRetryCapacity,
  maxAttempts,
  realSetTimeout,
  refillRetryQuotas,
} from '../../support/faults/retry-observation';
import { noteInSummary, plainMessage, summarise } from '../../support/faults/run-summary';
import { expireOpenSessions } from '../../support/faults/stripe-fault-proxy';
import { IDEMPOTENCY_KEY_PREFIX, RATE_LIMIT_KEY_PREFIX } from '../../support/table-keys';
import { type HrExportQueue, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { updateGallerySettings } from '#lib/galleries/store/galleries';

/**
 * Faults (issue 9): DynamoDB throttling and timeouts, S3 down, Stripe down, injected through
 * client middleware (DynamoDB, S3) and a fault proxy in front of the Stripe emulator, against
 * EVERY endpoint of the route table (primary paths and aliases), plus the photo ingest function.
 *
 * For each endpoint and fault: the answer is the documented one (the documented error table and
 * the operation's documented codes, in the error shape with requestId = X-Request-Id, never a
 * 500); nothing is lost or half-written (the gallery's persons, access codes, bookings,
 * counters, reservations, Checkout Sessions, photos and selfie objects agree with each other,
 * and a failed request changed none of them); retries are bounded (attempts per call within the
 * client's maxAttempts, repeats of a call within the largest application-level retry budget,
 * Stripe attempts within maxNetworkRetries + 1, and the time the request would take with the
 * SDK's real backoff within the functions' 29 s timeout); and once the fault clears, the same
 * request succeeds.
 *
 * Backoff is observed rather than waited: the retry strategy of the service's own AWS clients
 * computes each delay as it always does (recorded with its jitter at the maximum, so the
 * expected delay is half of it) and the wait is skipped; the timers of the application's retries
 * (lib/platform/table/retry.ts) and of the Stripe SDK's retries fire at once and their delays are recorded.
 * The time a request would have taken is the wall time plus those delays.
 *
 * Beyond the matrix: an outage that begins at each DynamoDB call of every writing endpoint
 * (crash consistency after the client, Stripe and Lambda have retried), DynamoDB and S3 calls
 * that hang (the clients' timeouts), answers lost after a conditional write was applied (rate
 * limit, Idempotency-Key), the AWS SDK's retry quota across a storm, whole imports, and a
 * double fault (the check-in transaction fails and S3 fails the selfie's clean-up).
 *
 * The harness (fault injection, the Stripe fault proxy, retry observation, galleries, state and
 * consistency checks, the probes, and the matrix of probes and faults) lives in test/support/faults/.
 * FAULTS_SUMMARY=1 prints what every run measured: calls, attempts, retries, waits, times.
 */

/** How long a hanging call is watched when the client has no timeout that could end it. */
const HANG_OBSERVATION_MS = 2_000;

const TRANSIENT_NAMES = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'TimeoutError',
  'ServiceUnavailable',
];

/** What a probe the fault affects must answer. */
function expectDocumentedFailure(probe: Probe, fault: FaultSpec, outcome: Outcome): void {
  if (probe.routeId === 'ingestPhoto') {
    // functions/photos/sorting/ingest-photo.ts: a failure throws, so that Lambda retries the asynchronous invocation.
    expect(outcome.kind === 'invocation' && TRANSIENT_NAMES.includes(outcome.error?.name ?? '')).toBe(true);
    return;
  }
  if (fault.transactionsOnly && probe.routeId === 'importPersons') {
    // README: rows that could not be stored after retries are skipped as not_written.
    const answer = answerOf(outcome);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expect.objectContaining({ imported: 0, skipped: 3, persons: [] }));
    expect(answer.body.skippedDetails).toEqual([0, 1, 2].map((index) => ({ index, reason: 'not_written' })));
    return;
  }
  if (fault.service === 'Stripe') expectDocumentedError(probe, outcome, 502, 'payment_provider_unavailable');
  else expectDocumentedError(probe, outcome, 503, 'storage_unavailable');
}

// The local API, the Stripe emulator behind its fault proxy, the fault middleware, and a gallery
// made ahead for every test of the matrix.
useFaultHarness({ galleriesAhead: MATRIX.length * (FAULTS.length + 1) + 40 });

// ---------------------------------------------------------------------------------------------
// The matrix.

it('covers every route and path of the route table, and the photo ingest', () => {
  const covered = new Set(MATRIX.map((probe) => `${probe.method} ${probe.template}`));
  const table = (routes as readonly Route[]).flatMap((route) =>
    pathsOf(route).map((template) => `${route.method} ${template}`),
  );
  expect(table.filter((entry) => !covered.has(entry))).toEqual([]);
  expect(covered.has('INVOKE functions/photos/sorting/ingest-photo')).toBe(true);
});

describe.each(MATRIX.map((probe) => [probe.label, probe] as const))('%s', (_label, probe) => {
  it('touches exactly the services the matrix assumes (no fault)', async () => {
    const f = await newGallery();
    const setup = await probe.prepare(f, probe.template);
    const window = await underFaults({}, () => setup.run());
    summarise(probe.label, 'no fault', window);
    await setup.expectSuccess(window.outcome, true);
    const touched: Touches = {
      dynamodb: window.sends.some((send) => send.service === 'DynamoDB'),
      s3: window.sends.some((send) => send.service === 'S3'),
      stripe: window.stripeCalls.length > 0,
      transactions: window.sends.some((send) => send.command === 'TransactWriteItemsCommand'),
    };
    expect(touched).toEqual(probe.touches);
    await expectConsistent(f, { strictCounters: true, paymentsSettled: true });
  });

  it.each(FAULTS.map((fault) => [fault.name, fault] as const))('%s', async (_name, fault) => {
    // Prepare
    const f = await newGallery();
    const setup = await probe.prepare(f, probe.template);
    const expectFailure = affected(probe, fault);
    const before = expectFailure ? await readState(f) : undefined;
    // Act
    const window = await underFaults(fault.faults, () => setup.run());
    summarise(probe.label, fault.name, window);
    // Assess: every check runs, and the test lists every one that fails.
    const problems: string[] = [];
    const check = async (what: string, assertion: () => unknown) => {
      try {
        await assertion();
      } catch (error) {
        problems.push(`${what}: ${plainMessage(error)}`);
      }
    };
    await check('the documented answer, never a 500', async () => {
      expectNoInternalError(window.outcome);
      if (expectFailure) expectDocumentedFailure(probe, fault, window.outcome);
      else await setup.expectSuccess(window.outcome, true);
    });
    // Nothing lost or half-written; a failed request changed nothing. (After a success, the
    // check after the recovery below covers both requests.)
    if (before) {
      const after = await readState(f);
      await check('a failed request changes nothing', () => expect(projection(after)).toEqual(projection(before)));
      const webhookAwaitsRedelivery = probe.routeId === 'stripeWebhook';
      await check('nothing half-written', () =>
        expect(
          consistencyProblems(f, after, { strictCounters: true, paymentsSettled: !webhookAwaitsRedelivery }),
        ).toEqual([]),
      );
    }
    await check('once the fault is gone, the same request succeeds', async () =>
      setup.expectSuccess(await setup.run(), false),
    );
    await check('nothing lost or half-written', () =>
      expectConsistent(f, { strictCounters: true, paymentsSettled: true }),
    );
    await check('retries bounded, in attempts and in the time they would take', () => expectRetriesBounded(window));
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Beyond the matrix: outages that begin mid-request, hanging calls, lost answers of conditional
// writes, the client-wide retry quota, whole imports, and a double fault.

const matrixProbe = (routeId: Probe['routeId'], label = ''): Probe => {
  const route =
    routeId === 'ingestPhoto' ? undefined : (routes as readonly Route[]).find((candidate) => candidate.id === routeId);
  const probe = MATRIX.find(
    (candidate) =>
      candidate.routeId === routeId && (!route || candidate.template === route.path) && candidate.label.includes(label),
  );
  if (!probe) throw new Error(`no probe ${routeId} ${label}`);
  return probe;
};

const WRITE_COMMANDS = /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)Command$/;

describe('an outage that begins in the middle of a request', () => {
  // Every endpoint that writes (the POST routes on their primary path, and the photo ingest): the
  // request runs once without a fault to learn its DynamoDB calls; then, for each call from its
  // first write on, DynamoDB fails every attempt from that call on. Once the outage is over, the
  // participant, the client, Stripe (redelivery; expiry of open sessions) and Lambda (redelivery)
  // do what they do, and the gallery must be whole: nothing lost, nothing half-written.
  const swept = MATRIX.filter(
    (probe) =>
      (probe.touches.transactions || probe.touches.stripe) &&
      (probe.routeId === 'ingestPhoto' ||
        probe.template === (routes as readonly Route[]).find((route) => route.id === probe.routeId)!.path),
  );

  it.each(swept.map((probe) => [probe.label, probe] as const))('%s', async (_label, probe) => {
    const calibration = await probe.prepare(await newGallery(), probe.template);
    const calibrated = await underFaults({}, () => calibration.run());
    const firstWrite = calibrated.sends.findIndex(
      (send) => send.service === 'DynamoDB' && WRITE_COMMANDS.test(send.command),
    );
    const starts = calibrated.sends.flatMap((send, index) =>
      send.service === 'DynamoDB' && firstWrite >= 0 && index >= firstWrite ? [index] : [],
    );
    expect(starts.length).toBeGreaterThan(0);
    const findings: string[] = [];
    for (const start of starts) {
      beginRun();
      const f = await newGallery();
      const setup = await probe.prepare(f, probe.template);
      const outage: AwsFault = (attempt) =>
        attempt.service === 'DynamoDB' && attempt.sendIndex >= start
          ? { before: failures.provisionedThroughput }
          : undefined;
      const window = await underFaults({ aws: outage }, () => setup.run());
      summarise(probe.label, `outage from call ${start}`, window);
      const problems = undocumentedAnswer(probe, window.outcome);
      try {
        await setup.settle(window.outcome);
      } catch (error) {
        problems.push(`after the outage the request does not succeed: ${plainMessage(error)}`);
      }
      // Half an hour later Stripe has expired every session nobody paid.
      await expireOpenSessions(f.token);
      const state = await readState(f);
      problems.push(
        ...consistencyProblems(f, state, { strictCounters: false, paymentsSettled: true })
          // docs/data-model.md, known limit: an import's day counts are updated after its persons and lag when that fails.
          .filter((problem) => !(probe.routeId === 'importPersons' && problem.startsWith('day '))),
      );
      for (const [orderId, order] of state.orders) {
        if (order.status === 'pending')
          problems.push(
            `reservation ${orderId} is still pending, holding its spot, after every Checkout Session ended`,
          );
      }
      if (problems.length > 0)
        findings.push(
          `outage from call ${start} (${calibrated.sends[start]!.command}), first answer ${describeOutcome(window.outcome)}: ${problems.join('; ')}`,
        );
    }
    expect(findings).toEqual([]);
  });
});

describe('calls that hang', () => {
  it.each([
    ['DynamoDB', 'getCheckinInfo', ''],
    ['S3', 'submitCheckin', 'free package'],
  ] as const)(
    'cuts off a %s call that never answers, and answers storage_unavailable within the function timeout',
    async (service, routeId, label) => {
      // Prepare: both clients have resolved their HTTP handler configuration.
      const probe = matrixProbe(routeId, label);
      const f = await newGallery();
      const setup = await probe.prepare(f, probe.template);
      await setup.run();
      const timeoutMs = attemptTimeoutMs(service);
      const boundMs = maxAttempts[service] * timeoutMs + 1_000;
      const watchMs = boundMs <= FUNCTION_TIMEOUT_MS ? boundMs + 2_000 : HANG_OBSERVATION_MS;
      // Act: every attempt of every call of the service goes to a socket that never answers.
      let answeredInTime = false;
      const window = await underFaults({ aws: always(service, { blackHole: true }) }, async () => {
        const pending = setup.run();
        answeredInTime = await Promise.race([
          pending.then(() => true),
          new Promise<boolean>((resolve) => realSetTimeout(() => resolve(false), watchMs)),
        ]);
        if (!answeredInTime) restoreServices(); // the service comes back, so the request can finish
        return pending;
      });
      summarise(probe.label, `${service} hanging`, window);
      // Assess
      expect({
        service,
        clientTimeoutMs: Number.isFinite(timeoutMs) ? timeoutMs : 'none configured',
        answeredWithinMs: answeredInTime ? window.wallMs : `no answer after ${watchMs} ms`,
      }).toEqual({
        service,
        clientTimeoutMs: expect.any(Number),
        answeredWithinMs: expect.any(Number),
      });
      expectDocumentedError(probe, window.outcome, 503, 'storage_unavailable');
      expect(window.wallMs).toBeLessThanOrEqual(FUNCTION_TIMEOUT_MS);
    },
    FUNCTION_TIMEOUT_MS + 15_000,
  );
});

describe('answers lost after DynamoDB applied a conditional write', () => {
  it('counts a request once against the rate limit when the answer of its counter write is lost', async () => {
    const probe = matrixProbe('listShootingDays');
    const f = await newGallery();
    const setup = await probe.prepare(f, probe.template);
    let firstWrite: number | undefined;
    const lose: AwsFault = (attempt) => {
      if (attempt.command !== 'UpdateItemCommand' || !attempt.input.includes(RATE_LIMIT_KEY_PREFIX)) return undefined;
      firstWrite ??= attempt.sendIndex;
      return attempt.sendIndex === firstWrite && attempt.attempt === 1 ? { after: failures.socketTimeout } : undefined;
    };
    const window = await underFaults({ aws: lose }, () => setup.run());
    summarise(probe.label, 'rate-limit write answer lost', window);
    await setup.expectSuccess(window.outcome, true);
    // A full bucket of 60 (the clock moved a minute since the last request of this key): one request takes one.
    expect(answerOf(window.outcome).headers.get('x-ratelimit-remaining')).toBe('59');
  });

  // A webhook and a link route take no Idempotency-Key: their sender does not send one.
  const idempotentRoutes = (routes as readonly Route[]).filter(
    (route) => route.method === 'POST' && route.access !== 'webhook' && route.access !== 'link',
  );
  /** Each server-side POST's body, and the persons it creates. */
  const SERVER_POSTS: Record<string, { body: unknown; created: number }> = {
    importPersons: { body: { persons: [{ name: 'A' }, { name: 'B' }] }, created: 2 },
    createUploads: { body: { files: [{ path: 'IMG_0001.jpg', size: 10 }] }, created: 0 },
    completeUploads: {
      body: { files: [{ path: 'IMG_0001.jpg', uploadId: 'faults-upload', action: 'abort' }] },
      created: 0,
    },
    createHrExport: { body: { size: 64 }, created: 0 },
  };
  // An HR export is queued, not built, here; its gallery asks for the HR consent (below).
  let replacedExportQueue: HrExportQueue | undefined;
  beforeAll(() => {
    replacedExportQueue = useHrExportQueue({ send: async () => undefined });
  });
  afterAll(() => useHrExportQueue(replacedExportQueue));

  it.each(idempotentRoutes.map((route) => [route.id, route] as const))(
    '%s: runs a request once when the answer of its Idempotency-Key claim is lost, instead of refusing it as its own repeat',
    async (_id, route) => {
      const f = await newGallery();
      if (route.id === 'createHrExport')
        await updateGallerySettings(f.tenantId, f.token, {
          granularConsents: { face: false, notification: false, hrExport: true },
        });
      const key = `faults-${uniqueName('key').replace(' ', '-')}`;
      const request =
        route.id === 'submitCheckin'
          ? {
              path: route.path,
              headers: { ...publicHeaders(), 'Idempotency-Key': key },
              body: checkinBody(f, { selectedPackageId: f.freePackageId }),
              created: 1,
            }
          : {
              path: fill(route.path, f),
              headers: { ...serverHeaders(), 'Idempotency-Key': key },
              ...SERVER_POSTS[route.id]!,
            };
      const send = () => call(f, request.path, { method: 'POST', headers: request.headers, body: request.body });
      const lose: AwsFault = (attempt) =>
        attempt.command === 'PutItemCommand' && attempt.input.includes(IDEMPOTENCY_KEY_PREFIX) && attempt.attempt === 1
          ? { after: failures.socketTimeout }
          : undefined;
      const window = await underFaults({ aws: lose }, send);
      summarise(`${route.method} ${route.path}`, 'idempotency claim answer lost', window);
      expectNoInternalError(window.outcome);
      const first = answerOf(window.outcome);
      expect({ status: first.status, error: first.body.error }).toEqual({
        status: route.successStatus ?? 200,
        error: undefined,
      });
      const repeat = answerOf(await send());
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      expect((await readState(f)).persons.size).toBe(request.created);
      await expectConsistent(f, { strictCounters: true, paymentsSettled: true });
    },
  );
});

describe('retries, bounded across requests and across a whole import', () => {
  it("stops retrying once a throttling storm has spent the DynamoDB client's retry quota, and recovers at once", async () => {
    const probe = matrixProbe('getCheckinInfo');
    const f = await newGallery();
    const setup = await probe.prepare(f, probe.template);
    const throttled = always('DynamoDB', { before: failures.provisionedThroughput });
    refillRetryQuotas();
    // Attempts of each call a request sent: a cold instance reads the tenant and the gallery's pointer together.
    const attempts: number[][] = [];
    for (let request = 0; request < 40; request += 1) {
      const window = await underFaults({ aws: throttled }, () => setup.run(), { keepRetryQuota: true });
      expectDocumentedError(probe, window.outcome, 503, 'storage_unavailable');
      attempts.push(window.sends.map((send) => send.attempts));
    }
    const retries = attempts.flat().reduce((sum, count) => sum + count - 1, 0);
    noteInSummary(
      `retry quota: attempts per call during a storm ${attempts.map((calls) => calls.join('+')).join(',')}; ${retries} retries in all`,
    );
    expect(attempts[0]!.length).toBeGreaterThan(0);
    expect(attempts[0]!.every((count) => count === maxAttempts.DynamoDB)).toBe(true);
    // @smithy/core retry: a throttled retry costs Retry.throttlingCost() of the client's quota.
    expect(retries).toBeLessThanOrEqual(initialRetryCapacity.DynamoDB / Retry.throttlingCost());
    expect(
      attempts
        .slice(-5)
        .flat()
        .every((count) => count === 1),
    ).toBe(true);
    const recovered = await underFaults({}, () => setup.run(), { keepRetryQuota: true });
    await setup.expectSuccess(recovered.outcome, false);
  });

  it('answers an import of 500 persons whose transactions stay throttled within the function timeout, every row not_written', async () => {
    const f = await newGallery();
    const rows = Array.from({ length: 500 }, (_, index) => ({ name: `Bulk ${index}`, shootingDayId: f.dayId }));
    const window = await underFaults(
      { aws: always('DynamoDB', { before: failures.throttling }, 'TransactWriteItemsCommand') },
      () =>
        call(f, `/groupshoot/${f.token}/persons`, {
          method: 'POST',
          headers: serverHeaders(),
          body: { persons: rows },
        }),
    );
    summarise('POST /groupshoot/{token}/persons: 500 rows', 'transactions throttled', window);
    const answer = answerOf(window.outcome);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expect.objectContaining({ imported: 0, skipped: 500 }));
    expect(answer.body.skippedDetails.every((skip: { reason: string }) => skip.reason === 'not_written')).toBe(true);
    const state = await expectConsistent(f, { strictCounters: true, paymentsSettled: true }, { photos: false });
    expect(state.persons.size).toBe(0);
    expectRetriesBounded(window);
  });

  it('stores whole chunks of an import and reports the rows of a chunk that stays throttled as not_written', async () => {
    const f = await newGallery();
    const chunk = PERSONS_PER_TRANSACTION;
    const rows = Array.from({ length: 150 }, (_, index) => ({
      name: `Chunked ${f.token} ${String(index).padStart(3, '0')}`,
      shootingDayId: f.dayId,
    }));
    const secondChunk: AwsFault = (attempt) =>
      attempt.command === 'TransactWriteItemsCommand' &&
      attempt.input.includes(`Chunked ${f.token} ${String(chunk).padStart(3, '0')}`)
        ? { before: failures.throttling }
        : undefined;
    const send = (persons: unknown[]) =>
      call(f, `/groupshoot/${f.token}/persons`, { method: 'POST', headers: serverHeaders(), body: { persons } });
    const window = await underFaults({ aws: secondChunk }, () => send(rows));
    summarise('POST /groupshoot/{token}/persons: 150 rows', 'second chunk throttled', window);
    const answer = answerOf(window.outcome);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expect.objectContaining({ imported: 150 - chunk, skipped: chunk }));
    expect(answer.body.skippedDetails).toEqual(
      Array.from({ length: chunk }, (_, index) => ({ index: chunk + index, reason: 'not_written' })),
    );
    expect(answer.body.persons.map((person: { name: string }) => person.name)).toEqual(
      [...rows.slice(0, chunk), ...rows.slice(2 * chunk)].map((row) => row.name),
    );
    const state = await expectConsistent(f, { strictCounters: true, paymentsSettled: true });
    expect([...state.persons.keys()].sort()).toEqual(
      answer.body.persons.map((person: { personId: string }) => person.personId).sort(),
    );
    expectRetriesBounded(window);
    // The client sends the not_written rows again.
    const resent = answerOf(await send(rows.slice(chunk, 2 * chunk)));
    expect(resent.body).toEqual(expect.objectContaining({ imported: chunk, skipped: 0 }));
    const whole = await expectConsistent(f, { strictCounters: true, paymentsSettled: true });
    expect([...whole.persons.values()].map((person) => person.name).sort()).toEqual(rows.map((row) => row.name).sort());
  });
});

describe('a double fault', () => {
  it('leaves the selfie behind only when S3 also fails its clean-up: nothing refers to it, and the log names its person and gallery (README, known limits)', async () => {
    const probe = matrixProbe('submitCheckin', 'free package');
    const f = await newGallery();
    const setup = await probe.prepare(f, probe.template);
    const fault: AwsFault = (attempt) =>
      attempt.command === 'TransactWriteItemsCommand'
        ? { before: failures.throttling }
        : attempt.command === 'DeleteObjectCommand'
          ? { before: failures.s3Unavailable }
          : undefined;
    const logged = jest.spyOn(logger, 'error');
    let window: Window;
    let errorLogs: unknown[][];
    try {
      window = await underFaults({ aws: fault }, () => setup.run());
    } finally {
      errorLogs = [...logged.mock.calls];
      logged.mockRestore();
    }
    summarise(probe.label, 'transaction throttled and S3 delete failing', window);
    expectDocumentedError(probe, window.outcome, 503, 'storage_unavailable');
    const state = await readState(f);
    expect(state.persons.size).toBe(0);
    const problems = consistencyProblems(f, state, { strictCounters: true, paymentsSettled: true });
    expect(problems).toEqual([
      expect.stringMatching(/^selfie object selfies\/.+ belongs to no person or reservation$/),
    ]);
    // The key holds the gallery token: the log names the person and a hash of the token instead.
    const orphanPersonId = /\/(per_[0-9a-z]+)\.jpg$/.exec(state.selfies[0]!)?.[1];
    expect(errorLogs).toContainEqual([
      'orphaned selfie could not be deleted',
      expect.objectContaining({ personId: orphanPersonId, gallery: galleryRef(f.token) }),
    ]);
  });
});
