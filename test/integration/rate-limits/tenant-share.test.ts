import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as postGroupShoot } from '../../../functions/checkin/post-group-shoot';
import { lambdaContext, publicPostEvent } from '../../../scripts/local/api-gateway-event';
import { resetClock, setClock } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { updateTenantSettings } from '#lib/tenants/store/tenants';
import { rateLimitKeys } from '#lib/rate-limits/store/keys';
import { tenantShareCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import { DEFAULT_TENANT_SHARE } from '#lib/tenants/rules/tenant-share';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { useTestTable } from '../../support/test-table';

/**
 * Each tenant's share of the check-in route (docs/deployment.md#fair-share-between-tenants):
 * all its galleries and clients together, in a counter of the table, so that one tenant's
 * announcement cannot take another tenant's check-ins. In process, each participant from an
 * address of its own, on a standing clock (nothing refills while the requests run).
 */
useTestTable();

let clockMs = 0;
beforeEach(() => {
  clockMs = Date.parse('2027-05-01T08:00:00Z');
  setClock(() => clockMs);
});
afterEach(() => resetClock());

let participant = 0;
async function checkIn(studio: CheckinStudio, sourceIp: string) {
  participant += 1;
  const body = studio.validBody({ name: `Participant ${participant}`, shootingDayId: studio.openDay.id });
  const route = { routeKey: 'POST /group-shoot', path: '/group-shoot' };
  const event = publicPostEvent(route, { 'x-tenant-slug': studio.slug }, sourceIp, body, clockMs);
  const answer = (await postGroupShoot(event, lambdaContext('checkin'))) as APIGatewayProxyStructuredResultV2;
  return {
    status: answer.statusCode ?? 200,
    headers: (answer.headers ?? {}) as Record<string, string>,
    body: JSON.parse(String(answer.body)) as Record<string, unknown>,
  };
}

/** Every participant from an address of its own, one after another. */
async function checkInMany(studio: CheckinStudio, count: number, network: number) {
  const answers = [];
  for (let index = 0; index < count; index += 1) answers.push(await checkIn(studio, `10.${network}.0.${index + 1}`));
  return answers;
}

const tatOf = async (keyId: string) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: rateLimitKeys.rateLimit(keyId) }))).Item?.tat as
    number | undefined;

describe("POST /group-shoot: each tenant's share of the check-in route", () => {
  it("refuses a tenant's check-ins past its share with 429 and Retry-After, while another tenant checks in untouched", async () => {
    // Prepare: tenant A with a share of 1 a second (10 at once), tenant B with the default.
    const [busy, calm] = await Promise.all([createCheckinStudio(), createCheckinStudio()]);
    await updateTenantSettings(busy.slug, { publicShare: { checkinsPerSecond: 1 } });

    // Act: 15 of A's participants, then 15 of B's, in the same instant.
    const busyAnswers = await checkInMany(busy, 15, 1);
    const calmAnswers = await checkInMany(calm, 15, 2);

    // Assess
    expect(busyAnswers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    const refused = busyAnswers[10]!;
    expect(refused.body).toEqual(
      expect.objectContaining({ ok: false, error: 'rate_limit_exceeded', requestId: refused.headers['X-Request-Id'] }),
    );
    expect(refused.body.message).toMatch(/retry in 1 second/);
    expect(refused.headers['Retry-After']).toBe('1');
    expect(calmAnswers.every((answer) => answer.status === 200)).toBe(true);
  });

  it("gives the participant refused by the tenant's share back the token of their own budget", async () => {
    const studio = await createCheckinStudio();
    await updateTenantSettings(studio.slug, { publicShare: { checkinsPerSecond: 1 } });
    await checkInMany(studio, 10, 3);

    const refused = await checkIn(studio, '10.3.9.9');

    expect(refused.status).toBe(429);
    // The client's own budget is as full as before: its counter was given its token back.
    expect(refused.headers['X-RateLimit-Remaining']).toBe(String(100 - 1));
    clockMs += 1000;
    expect((await checkIn(studio, '10.3.9.9')).headers['X-RateLimit-Remaining']).toBe(String(100 - 1));
  });

  it("spends nothing of the tenant's share on a client refused by its own limit", async () => {
    // Prepare: one address with a budget of 2 check-ins.
    const studio = await createCheckinStudio({ publicLimits: { checkins: { limit: 2, windowMs: 60_000 } } });

    // Act
    const answers = [];
    for (let index = 0; index < 6; index += 1) answers.push(await checkIn(studio, '198.51.100.77'));

    // Assess: two admitted, and the share's counter moved by two intervals only.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429, 429, 429]);
    const interval = 1000 / DEFAULT_TENANT_SHARE.checkinsPerSecond;
    expect(await tatOf(tenantShareCounterId(studio.tenant.tenantId))).toBe(clockMs + 2 * interval);
  });
});
