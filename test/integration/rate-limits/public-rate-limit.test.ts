import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as getCheckinInfo } from '../../../functions/checkin/get-checkin-info';
import { handler as postGroupShoot } from '../../../functions/checkin/post-group-shoot';
import { lambdaContext } from '../../../scripts/local/api-gateway-event';
import { installRoundTripCounter } from '../../../scripts/bench/round-trip-counter';
import { now, resetClock, setClock } from '#lib/platform/clock';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { clientKey } from '#lib/rate-limits/rules/client-address';
import { randomToken } from '#lib/platform/secret-values';
import { GALLERY_TOKEN_LENGTH } from '#lib/platform/identifiers';
import { TENANT_CACHE_MS, forgetRecentTenants } from '#lib/tenants/store/tenants';
import { GALLERY_LIMITS_CACHE_MS } from '#lib/http/public-rate-limit';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { queryPartition } from '#lib/platform/table/queries';
import { keys } from '../../support/table-keys';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { useTestTable } from '../../support/test-table';

/**
 * Per-client limits on the public routes, through the functions themselves (in process) so
 * that each request can come from an address of its own, as API Gateway reports it.
 */
useTestTable();
const counter = installRoundTripCounter(db);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
}

function event(
  method: 'GET' | 'POST',
  path: string,
  sourceIp: string,
  slug: string,
  body?: unknown,
  pathParameters?: Record<string, string>,
) {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: `/v1${path}`,
    rawQueryString: '',
    headers: { 'x-tenant-slug': slug, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: `/v1${path}`, protocol: 'HTTP/1.1', sourceIp, userAgent: 'test' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: `${method} ${path}`,
      stage: 'v1',
      time: new Date(now()).toUTCString(),
      timeEpoch: now(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2;
}

async function answerOf(result: Promise<APIGatewayProxyStructuredResultV2>): Promise<Answer> {
  const { statusCode, headers, body } = await result;
  return {
    status: statusCode ?? 200,
    headers: (headers ?? {}) as Record<string, string>,
    body: JSON.parse(String(body)),
  };
}

const readInfoOf = (slug: string, token: string, sourceIp: string) =>
  answerOf(
    getCheckinInfo(
      event('GET', `/group-shoot/checkin/${token}`, sourceIp, slug, undefined, { token }),
      lambdaContext('info'),
    ),
  );
const readInfo = (studio: CheckinStudio, sourceIp: string) => readInfoOf(studio.slug, studio.token, sourceIp);

let participant = 0;
const checkIn = (studio: CheckinStudio, sourceIp: string, overrides: Record<string, unknown> = {}) =>
  answerOf(
    postGroupShoot(
      event(
        'POST',
        '/group-shoot',
        sourceIp,
        studio.slug,
        studio.validBody({ name: `Participant ${(participant += 1)}`, ...overrides }),
      ),
      lambdaContext('checkin'),
    ),
  );

const storedPersons = (studio: CheckinStudio) =>
  queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));

/** A standing clock the test moves by hand: nothing refills while requests run. */
let clockMs = 0;
beforeEach(() => {
  clockMs = Date.parse('2027-05-01T08:00:00Z');
  setClock(() => clockMs);
});
afterEach(() => resetClock());

describe('public routes: a budget per client, per gallery, for reads and for check-ins', () => {
  it('refuses the read past the budget with 429, the wait in the message and in Retry-After, and the rate-limit headers', async () => {
    // Prepare
    const studio = await createCheckinStudio({ publicLimits: { reads: { limit: 3, windowMs: 60_000 } } });
    // Act
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(await readInfo(studio, '198.51.100.7'));
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers['X-RateLimit-Remaining'])).toEqual(['2', '1', '0', '0']);
    const refused = answers[3]!;
    expect(refused.body).toEqual({
      ok: false,
      error: 'rate_limit_exceeded',
      message: 'Rate limit of 3 requests per minute exceeded; retry in 20 seconds.',
      requestId: refused.headers['X-Request-Id'],
    });
    expect(refused.headers).toEqual(
      expect.objectContaining({ 'Retry-After': '20', 'X-RateLimit-Limit': '3', 'Access-Control-Allow-Origin': '*' }),
    );
    expect(Number(refused.headers['X-RateLimit-Reset'])).toBe(Math.floor(clockMs / 1000) + 20);
  });

  it('admits the client again once the wait is over', async () => {
    const studio = await createCheckinStudio({ publicLimits: { reads: { limit: 1, windowMs: 60_000 } } });
    expect((await readInfo(studio, '198.51.100.8')).status).toBe(200);
    expect((await readInfo(studio, '198.51.100.8')).status).toBe(429);
    clockMs += 60_000;
    expect((await readInfo(studio, '198.51.100.8')).status).toBe(200);
  });

  it('keeps the budgets of other clients, other galleries and the other kind of request whole', async () => {
    // Prepare
    const limits = { reads: { limit: 1, windowMs: 60_000 }, checkins: { limit: 1, windowMs: 60_000 } };
    const studio = await createCheckinStudio({ publicLimits: limits });
    const other = await createCheckinStudio({ publicLimits: limits });
    await readInfo(studio, '203.0.113.1');
    await checkIn(studio, '203.0.113.1');
    // Act
    const answers = await Promise.all([
      readInfo(studio, '203.0.113.1'),
      checkIn(studio, '203.0.113.1'),
      readInfo(studio, '203.0.113.2'),
      checkIn(studio, '203.0.113.2'),
      readInfo(other, '203.0.113.1'),
      checkIn(other, '203.0.113.1'),
    ]);
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([429, 429, 200, 200, 200, 200]);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    const studio = await createCheckinStudio({ publicLimits: { reads: { limit: 1, windowMs: 60_000 } } });
    expect((await readInfo(studio, '2001:db8:1:2::1')).status).toBe(200);
    expect((await readInfo(studio, '2001:db8:1:2:ffff::9')).status).toBe(429);
    expect((await readInfo(studio, '2001:db8:1:3::1')).status).toBe(200);
    expect((await readInfo(studio, '192.0.2.44')).status).toBe(200);
    expect((await readInfo(studio, '::ffff:192.0.2.44')).status).toBe(429);
  });

  it('counts a status poll as a read and a retry as a check-in, per tenant, since their tokens name no gallery until read', async () => {
    const studio = await createCheckinStudio();
    const poll = (sourceIp: string) =>
      answerOf(
        postGroupShoot(
          event('POST', '/group-shoot', sourceIp, studio.slug, {
            action: 'checkinStatus',
            statusToken: 'gst_unknown',
          }),
          lambdaContext('status'),
        ),
      );
    const retry = (sourceIp: string) =>
      answerOf(
        postGroupShoot(
          event('POST', '/group-shoot', sourceIp, studio.slug, {
            action: 'retryCheckout',
            retryToken: 'grt_unknown',
          }),
          lambdaContext('retry'),
        ),
      );
    const polled = await poll('198.51.100.20');
    const retried = await retry('198.51.100.20');
    expect([polled.status, polled.body.error, polled.headers['X-RateLimit-Limit']]).toEqual([
      404,
      'invalid_checkout_token',
      String(DEFAULT_PUBLIC_LIMITS.reads.limit),
    ]);
    expect([retried.status, retried.body.error, retried.headers['X-RateLimit-Limit']]).toEqual([
      404,
      'invalid_checkout_token',
      String(DEFAULT_PUBLIC_LIMITS.checkins.limit),
    ]);
  });

  it('writes nothing for a refused check-in: no person, no code, no spot, no idempotency record, not even the counter', async () => {
    // Prepare
    const studio = await createCheckinStudio({ publicLimits: { checkins: { limit: 1, windowMs: 60_000 } } });
    expect((await checkIn(studio, '198.51.100.30', { shootingDayId: studio.openDay.id })).status).toBe(200);
    expect((await checkIn(studio, '198.51.100.30', { shootingDayId: studio.openDay.id })).status).toBe(429);
    // Act: this process knows the counter is spent
    const { result, count } = await counter.measure(() =>
      checkIn(studio, '198.51.100.30', { shootingDayId: studio.openDay.id }),
    );
    // Assess
    expect(result.status).toBe(429);
    // No call at all: this instance read the tenant and the gallery's limits, and knows the client is over them.
    expect(count.operations).toEqual([]);
    expect(await storedPersons(studio)).toHaveLength(1);
  });

  it("applies the gallery's own limits, and the defaults where it sets none", async () => {
    const studio = await createCheckinStudio();
    expect((await readInfo(studio, '198.51.100.40')).headers['X-RateLimit-Limit']).toBe(
      String(DEFAULT_PUBLIC_LIMITS.reads.limit),
    );
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { reads: { limit: 7, windowMs: 60_000 } },
    });
    // The request right after the change counts under the limits this process read last; its
    // gallery read brings the new ones (docs/data-model.md#cached-values).
    expect((await readInfo(studio, '198.51.100.41')).headers['X-RateLimit-Limit']).toBe(
      String(DEFAULT_PUBLIC_LIMITS.reads.limit),
    );
    expect((await readInfo(studio, '198.51.100.41')).headers['X-RateLimit-Limit']).toBe('7');
    expect((await checkIn(studio, '198.51.100.41')).headers['X-RateLimit-Limit']).toBe(
      String(DEFAULT_PUBLIC_LIMITS.checkins.limit),
    );
  });
});

describe("public reads on a cold instance: the gallery's pointer read beside the tenant", () => {
  /** A client's read counter of the tenant's gallery `token`, or of no gallery (`-`), as stored. */
  const readCounter = async (tenantId: string, token: string | undefined, sourceIp: string) =>
    (
      await db.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.rateLimit(keys.publicRateLimitCounter(tenantId, token, 'reads', clientKey(sourceIp))),
        }),
      )
    ).Item;

  it('counts an unknown token under the tenant, as before, writing nothing else, and answers gallery_not_found', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const unknownToken = randomToken(GALLERY_TOKEN_LENGTH);
    forgetRecentTenants();
    // Act
    const { result, count } = await counter.measure(() => readInfoOf(studio.slug, unknownToken, '198.51.100.60'));
    // Assess: tenant ‖ pointers (none), the gallery (none), then the tenant's `-` counter: the only write.
    expect([result.status, result.body.error]).toEqual([404, 'gallery_not_found']);
    expect(count.operations.filter((operation) => operation !== 'Query')).toEqual(['UpdateItem']);
    expect(await readCounter(studio.tenant.tenantId, undefined, '198.51.100.60')).toBeDefined();
    expect(await readCounter(studio.tenant.tenantId, unknownToken, '198.51.100.60')).toBeUndefined();
  });

  it("counts under the pointer's limits, and refuses past them with 429 writing nothing", async () => {
    // Prepare: one read an hour; the first read of a cold instance spends it.
    const studio = await createCheckinStudio({ publicLimits: { reads: { limit: 1, windowMs: 3_600_000 } } });
    forgetRecentTenants();
    const first = await counter.measure(() => readInfo(studio, '198.51.100.61'));
    const spent = await readCounter(studio.tenant.tenantId, studio.token, '198.51.100.61');
    // Act: a minute on, this process trusts neither the tenant nor the gallery's limits it read.
    clockMs += Math.max(TENANT_CACHE_MS, GALLERY_LIMITS_CACHE_MS);
    const refused = await counter.measure(() => readInfo(studio, '198.51.100.61'));
    // Assess
    expect([first.result.status, first.result.headers['X-RateLimit-Limit'], first.count.depth]).toEqual([200, '1', 2]);
    // The tenant beside the pointer, then refused before the gallery is read: the client is known to be over.
    expect([refused.result.status, refused.count.depth]).toEqual([429, 1]);
    expect(spent).toBeDefined();
    expect(await readCounter(studio.tenant.tenantId, studio.token, '198.51.100.61')).toEqual(spent);
  });

  it("never uses another tenant's pointer with the same token", async () => {
    // Prepare: a second tenant with a pointer for the first one's token, one read an hour (a gallery token shared by chance).
    const studio = await createCheckinStudio();
    const other = await createCheckinStudio();
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.galleryPointer(other.tenant.tenantId, studio.token),
          tenantId: other.tenant.tenantId,
          publicLimits: { reads: { limit: 1, windowMs: 3_600_000 } },
        },
      }),
    );
    await db.send(
      new DeleteCommand({ TableName: tableName, Key: keys.galleryPointer(other.tenant.tenantId, other.token) }),
    );
    forgetRecentTenants();
    // Act
    const own = await counter.measure(() => readInfo(studio, '198.51.100.62'));
    const foreign = await counter.measure(() => readInfoOf(other.slug, other.token, '198.51.100.62'));
    // Assess: the studio counts under its own (default) limits, in 2 waves; the other tenant's
    // gallery, which has no pointer of its own, is read first (3 waves), whatever pointers its token has.
    expect([own.result.status, own.result.headers['X-RateLimit-Limit'], own.count.depth]).toEqual([
      200,
      String(DEFAULT_PUBLIC_LIMITS.reads.limit),
      2,
    ]);
    expect([foreign.result.status, foreign.count.depth]).toEqual([200, 3]);
  });

  it("answers another tenant's token as gallery_not_found on a cold instance, counted under the asking tenant", async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const other = await createCheckinStudio();
    forgetRecentTenants();
    // Act: the other tenant asks for the studio's token, whose only pointer is the studio's.
    const { result, count } = await counter.measure(() => readInfoOf(other.slug, studio.token, '198.51.100.63'));
    // Assess
    expect([result.status, result.body.error]).toEqual([404, 'gallery_not_found']);
    expect(count.operations.filter((operation) => operation !== 'Query')).toEqual(['UpdateItem']);
    expect(await readCounter(other.tenant.tenantId, undefined, '198.51.100.63')).toBeDefined();
    expect(await readCounter(other.tenant.tenantId, studio.token, '198.51.100.63')).toBeUndefined();
    expect(await readCounter(studio.tenant.tenantId, studio.token, '198.51.100.63')).toBeUndefined();
  });
});

describe('public routes: a whole company behind one NAT address', () => {
  it('checks in 300 participants from one address in the hour after an announcement, each waiting at most the documented 12 seconds', async () => {
    // Prepare: the defaults; half of them come in the first five minutes, the rest over the hour.
    const studio = await createCheckinStudio();
    const start = clockMs;
    const arrivals = Array.from({ length: 300 }, (_, index) =>
      index < 150 ? (index * 5 * 60_000) / 150 : 5 * 60_000 + ((index - 150) * 55 * 60_000) / 150,
    );
    let longestWaitMs = 0;
    // Act: each participant's page loads the info, checks in, and on 429 waits Retry-After and tries again (as web/checkin.js does).
    for (const arrival of arrivals) {
      clockMs = Math.max(clockMs, start + arrival);
      const arrivedAt = clockMs;
      expect((await readInfo(studio, '198.51.100.99')).status).toBe(200);
      for (;;) {
        const answer = await checkIn(studio, '198.51.100.99');
        if (answer.status === 200) break;
        expect(answer.status).toBe(429);
        clockMs += Number(answer.headers['Retry-After']) * 1000;
      }
      longestWaitMs = Math.max(longestWaitMs, clockMs - arrivedAt);
    }
    // Assess
    expect(await storedPersons(studio)).toHaveLength(300);
    expect(clockMs - start).toBeLessThanOrEqual(60 * 60_000);
    expect(longestWaitMs).toBeLessThanOrEqual(12_000);
  }, 120_000);
});
