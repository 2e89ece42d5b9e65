import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { TENANT_CACHE_MS, forgetRecentTenants } from '#lib/tenants/store/tenants';
import { addShootingDay, updateGallerySettings } from '#lib/galleries/store/galleries';
import { GALLERY_LIMITS_CACHE_MS } from '#lib/http/public-rate-limit';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../support/table-keys';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { installRoundTripCounter } from '../../scripts/bench/round-trip-counter';
import {
  COLD_INSTANCE_EXTRA,
  LIST_PERSONS_FLOOR,
  PUBLIC_CHECKIN_INFO_COLD_FLOOR,
  PUBLIC_CHECKIN_INFO_FLOOR,
  SERVER_SIDE_READ_FLOOR,
  SUBMIT_CHECKIN_FLOOR,
} from '../../scripts/bench/round-trip-floors';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();
const counter = installRoundTripCounter(db);

/** The calls and depth of one request. */
async function roundTripsOf(
  send: () => Promise<{ status: number }>,
): Promise<{ status: number; calls: number; depth: number; operations: string[] }> {
  const { result, count } = await counter.measure(send);
  return { status: result.status, calls: count.calls, depth: count.depth, operations: [...count.operations].sort() };
}

describe('DynamoDB round trips per request', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });
  afterEach(() => resetClock());

  describe.each([
    ['days', 'days'],
    ['form-fields', 'form-fields'],
    ['stats', 'stats'],
  ])('server-side GET %s', (_name, path) => {
    it('waits for 1 round trip on a warm instance: the key write beside the gallery Query', async () => {
      // Prepare: an earlier request read the tenant.
      await api.call(`/groupshoot/${studio.token}/${path}`, { headers: studio.serverHeaders });

      // Act
      const measured = await roundTripsOf(() =>
        api.call(`/groupshoot/${studio.token}/${path}`, { headers: studio.serverHeaders }),
      );

      // Assess
      expect(measured).toEqual({
        status: 200,
        calls: SERVER_SIDE_READ_FLOOR.calls,
        depth: SERVER_SIDE_READ_FLOOR.depth,
        operations: ['Query', 'UpdateItem'],
      });
      expect(SERVER_SIDE_READ_FLOOR.depth).toBe(1);
    });

    it('waits for one round trip more on a cold instance: the tenant Query first', async () => {
      forgetRecentTenants();

      const measured = await roundTripsOf(() =>
        api.call(`/groupshoot/${studio.token}/${path}`, { headers: studio.serverHeaders }),
      );

      expect(measured.status).toBe(200);
      expect({ calls: measured.calls, depth: measured.depth }).toEqual({
        calls: SERVER_SIDE_READ_FLOOR.calls + COLD_INSTANCE_EXTRA.calls,
        depth: SERVER_SIDE_READ_FLOOR.depth + COLD_INSTANCE_EXTRA.depth,
      });
    });
  });

  it('lists persons in 2 round trips on a warm instance', async () => {
    await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });

    const measured = await roundTripsOf(() =>
      api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders }),
    );

    expect(measured).toMatchObject({ status: 200, calls: LIST_PERSONS_FLOOR.calls, depth: LIST_PERSONS_FLOOR.depth });
    expect(LIST_PERSONS_FLOOR.depth).toBe(2);
  });

  it('checks a participant in to a day in 3 round trips on a warm instance, and 4 on a cold one (the tenant Query first)', async () => {
    // Prepare: a day with capacity; an earlier request read the tenant.
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2031-03-03',
      label: 'Waves',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: 50,
    });
    let participant = 0;
    const checkIn = () => {
      participant += 1;
      const body = {
        action: 'submitCheckin',
        token: studio.token,
        name: `Wave ${participant}`,
        email: `wave-${participant}@example.com`,
        consentGiven: true,
        shootingDayId: day.id,
      };
      return api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
    };
    await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });

    // Act
    const warm = await roundTripsOf(checkIn);
    forgetRecentTenants();
    const cold = await roundTripsOf(checkIn);

    // Assess
    expect(warm).toEqual({
      status: 200,
      calls: SUBMIT_CHECKIN_FLOOR.calls,
      depth: SUBMIT_CHECKIN_FLOOR.depth,
      operations: ['Query', 'TransactWriteItems', 'UpdateItem', 'UpdateItem', 'UpdateItem'],
    });
    expect(SUBMIT_CHECKIN_FLOOR.depth).toBe(3);
    expect({ status: cold.status, depth: cold.depth }).toEqual({
      status: 200,
      depth: SUBMIT_CHECKIN_FLOOR.depth + COLD_INSTANCE_EXTRA.depth,
    });
  });

  it('answers the public check-in info in 1 round trip on a warm instance (the per-client limit written beside the gallery read)', async () => {
    await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });

    const measured = await roundTripsOf(() =>
      api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders }),
    );

    expect(measured).toEqual({
      status: 200,
      calls: PUBLIC_CHECKIN_INFO_FLOOR.calls,
      depth: PUBLIC_CHECKIN_INFO_FLOOR.depth,
      operations: ['Query', 'UpdateItem'],
    });
    expect(PUBLIC_CHECKIN_INFO_FLOOR.depth).toBe(1);
  });

  it("answers the public check-in info in 2 round trips on a cold instance: the tenant beside the gallery's pointer, then the gallery beside the counter", async () => {
    // Prepare: a gallery this process never read, and no tenant read either.
    const own = await createTestTenant();
    forgetRecentTenants();

    // Act
    const measured = await roundTripsOf(() =>
      api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders }),
    );

    // Assess
    expect(measured).toEqual({
      status: 200,
      calls: PUBLIC_CHECKIN_INFO_COLD_FLOOR.calls,
      depth: PUBLIC_CHECKIN_INFO_COLD_FLOOR.depth,
      operations: ['Query', 'Query', 'Query', 'UpdateItem'],
    });
    expect(PUBLIC_CHECKIN_INFO_COLD_FLOOR.depth).toBe(PUBLIC_CHECKIN_INFO_FLOOR.depth + 1);
  });

  it('still answers the check-in info of a gallery without a pointer (made before pointers) on a cold instance, in 3 round trips', async () => {
    // Prepare
    const own = await createTestTenant();
    await db.send(
      new DeleteCommand({ TableName: tableName, Key: keys.galleryPointer(own.tenant.tenantId, own.token) }),
    );
    forgetRecentTenants();

    // Act
    const measured = await roundTripsOf(() =>
      api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders }),
    );

    // Assess: tenant ‖ pointers (none), then the gallery, then the counter under its limits.
    expect({ status: measured.status, calls: measured.calls, depth: measured.depth }).toEqual({
      status: 200,
      calls: 4,
      depth: 3,
    });
  });

  it('reads the tenant again once its recent read is TENANT_CACHE_MS old, on the replaceable clock', async () => {
    // Prepare
    let clock = Date.now();
    setClock(() => clock);
    forgetRecentTenants();
    await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });

    // Act
    clock += TENANT_CACHE_MS - 1;
    const stillRecent = await roundTripsOf(() =>
      api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders }),
    );
    clock += 1;
    const tooOld = await roundTripsOf(() =>
      api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders }),
    );

    // Assess
    expect(stillRecent.depth).toBe(1);
    expect(tooOld.depth).toBe(2);
  });

  describe("a gallery's public limits, as this process read them last", () => {
    /** A gallery read once by this process, whose read limit then drops to 1 per minute. */
    async function galleryWithChangedLimits(): Promise<TestTenant> {
      const own = await createTestTenant();
      await api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders });
      await updateGallerySettings(own.tenant.tenantId, own.token, {
        publicLimits: { reads: { limit: 1, windowMs: 60_000 } },
      });
      return own;
    }

    it('count the next request after a change, whose gallery read brings the new ones for the request after it', async () => {
      // Prepare
      const own = await galleryWithChangedLimits();

      // Act
      const underOldLimits = await api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders });
      const underNewLimits = await api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders });

      // Assess
      expect(underOldLimits.status).toBe(200);
      expect(underOldLimits.headers.get('x-ratelimit-limit')).not.toBe('1');
      expect(underNewLimits.headers.get('x-ratelimit-limit')).toBe('1');
    });

    it("count no longer than GALLERY_LIMITS_CACHE_MS, on the replaceable clock: then the gallery's pointer, read beside the tenant, brings the new ones", async () => {
      // Prepare
      let clock = Date.now();
      setClock(() => clock);
      const own = await galleryWithChangedLimits();

      // Act
      clock += GALLERY_LIMITS_CACHE_MS;
      const measured = await counter.measure(() =>
        api.call(`/group-shoot/checkin/${own.token}`, { headers: own.publicHeaders }),
      );

      // Assess
      expect(measured.result.headers.get('x-ratelimit-limit')).toBe('1');
      // The tenant's read is as old (TENANT_CACHE_MS is the same minute): tenant ‖ pointer, then gallery ‖ counter.
      expect(TENANT_CACHE_MS).toBe(GALLERY_LIMITS_CACHE_MS);
      expect(measured.count.depth).toBe(2);
    });
  });

  it('refuses a request over the rate limit without writing, once this process knows the key is exhausted', async () => {
    // A standing clock: on a slow machine 60 requests take over a second, which refills a token.
    const fixed = Date.now();
    setClock(() => fixed);
    const { secret } = await createApiKey(studio.tenant.tenantId, 'exhausted');
    const headers = { 'X-Tenant-Slug': studio.slug, 'X-Api-Key': secret };
    for (let index = 0; index < 60; index += 1) await api.call(`/groupshoot/${studio.token}/days`, { headers });

    const measured = await roundTripsOf(() => api.call(`/groupshoot/${studio.token}/days`, { headers }));

    expect(measured.status).toBe(429);
    expect(measured.operations).toEqual(['GetItem', 'Query']); // the key's consistent read, and the gallery read beside it
  });

  it('refuses a revoked key on the very next request, whatever this process read before', async () => {
    // Prepare
    const { secret, record } = await createApiKey(studio.tenant.tenantId, 'to revoke');
    const headers = { 'X-Tenant-Slug': studio.slug, 'X-Api-Key': secret };
    expect((await api.call(`/groupshoot/${studio.token}/days`, { headers })).status).toBe(200);
    await setApiKeyStatus(studio.tenant.tenantId, record.keyId, 'revoked');

    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers });

    // Assess
    expect(answer.body.error).toBe('invalid_api_key');
  });

  it('still answers invalid_tenant before invalid_api_key', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/days`, {
      headers: { 'X-Tenant-Slug': 'no-such-tenant', Authorization: `Bearer gsk_${'Q'.repeat(40)}` },
    });
    expect(answer.body.error).toBe('invalid_tenant');
  });
});
