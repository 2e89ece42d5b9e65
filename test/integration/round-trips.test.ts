import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { db } from '#lib/platform/table/client';
import { installRoundTripCounter } from '../../scripts/bench/round-trip-counter';
import { PUBLIC_CHECKIN_INFO_FLOOR, SERVER_SIDE_READ_FLOOR } from '../../scripts/bench/round-trip-floors';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();
const counter = installRoundTripCounter(db);

describe('DynamoDB round trips per request', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('looks the tenant and the API key up in parallel: a server-side read waits for 3 round trips, not 4', async () => {
    const { result, count } = await counter.measure(() => api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders }));
    expect(result.status).toBe(200);
    expect({ calls: count.calls, depth: count.depth }).toEqual({ calls: SERVER_SIDE_READ_FLOOR.calls, depth: SERVER_SIDE_READ_FLOOR.depth });
    expect(SERVER_SIDE_READ_FLOOR.depth).toBe(3);
  });

  it('keeps the public check-in info at 3 sequential round trips (the write of the per-client limit included)', async () => {
    const { count } = await counter.measure(() => api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders }));
    expect({ calls: count.calls, depth: count.depth }).toEqual({ calls: PUBLIC_CHECKIN_INFO_FLOOR.calls, depth: PUBLIC_CHECKIN_INFO_FLOOR.depth });
  });

  it('refuses a request over the rate limit without writing, once this process knows the key is exhausted', async () => {
    // A standing clock: on a slow machine 60 requests take over a second, which refills a token.
    const fixed = Date.now();
    setClock(() => fixed);
    const { secret } = await createApiKey(studio.tenant.tenantId, 'exhausted');
    const headers = { 'X-Tenant-Slug': studio.slug, 'X-Api-Key': secret };
    let measured;
    try {
      for (let index = 0; index < 60; index += 1) await api.call(`/groupshoot/${studio.token}/days`, { headers });
      measured = await counter.measure(() => api.call(`/groupshoot/${studio.token}/days`, { headers }));
    } finally {
      resetClock();
    }
    const { result, count } = measured;
    expect(result.status).toBe(429);
    expect(count.operations.sort()).toEqual(['GetItem', 'Query']); // tenant and key lookups only
  });

  it('still answers invalid_tenant before invalid_api_key, though both lookups run together', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/days`, {
      headers: { 'X-Tenant-Slug': 'no-such-tenant', Authorization: `Bearer gsk_${'Q'.repeat(40)}` },
    });
    expect(answer.body.error).toBe('invalid_tenant');
  });
});
