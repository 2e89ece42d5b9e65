import { randomBytes } from 'node:crypto';
import { createTenant } from '#lib/tenants/store/tenants';
import { createApiKey } from '#lib/tenants/store/api-keys';
import type { BenchApi } from './bench-api';
import { createBenchGallery, importRowsFor } from './bench-api';
import type { RoundTripCounter } from './round-trip-counter';
import {
  COLD_INSTANCE_EXTRA,
  LIST_PERSONS_FLOOR,
  PERSON_PHOTOS_FLOOR,
  PUBLIC_CHECKIN_INFO_COLD_FLOOR,
  PUBLIC_CHECKIN_INFO_FLOOR,
  type RoundTripFloor,
  SERVER_SIDE_READ_FLOOR,
  SUBMIT_CHECKIN_FLOOR,
  importFloor,
} from './round-trip-floors';
import { median, rounded, timed } from './statistics';

export interface EndpointRoundTrips {
  endpoint: string;
  /** Median over the measured requests (they agree unless a condition retried). */
  calls: number;
  /** Median of the failed calls among them (retried access-code collisions). */
  failedCalls: number;
  depth: number;
  operations: string[];
  floor: RoundTripFloor;
  atFloor: boolean;
  medianMilliseconds: number;
  requests: number;
}

interface EndpointCase {
  endpoint: string;
  floor: RoundTripFloor;
  /** One request of the case; `apiKey` is this case's own key. */
  send(apiKey: string, iteration: number): Promise<unknown>;
}

/** A case whose every request is the first this process makes for its tenant: a cold instance's. */
interface ColdEndpointCase {
  endpoint: string;
  floor: RoundTripFloor;
  send(tenant: UnreadTenant): Promise<unknown>;
}

interface UnreadTenant {
  slug: string;
  token: string;
  apiKey: string;
}

/**
 * DynamoDB round trips per request of each endpoint, over real HTTP to the local API. Each
 * endpoint gets a fresh API key, one unmeasured warm-up request, then `iterations` measured
 * requests, one at a time so that every call is attributed to its request. Then the cold
 * cases: each request on a tenant made for it, which this process has never read.
 */
export async function measureRoundTrips(
  api: BenchApi,
  counter: RoundTripCounter,
  options: { iterations: number; largeImportRows: number },
): Promise<EndpointRoundTrips[]> {
  const results: EndpointRoundTrips[] = [];
  for (const endpointCase of await endpointCases(api, options.largeImportRows)) {
    const apiKey = await api.freshApiKey();
    await endpointCase.send(apiKey, 0);
    const samples = [];
    for (let iteration = 1; iteration <= options.iterations; iteration += 1) {
      const { result, milliseconds } = await timed(() => counter.measure(() => endpointCase.send(apiKey, iteration)));
      samples.push({ ...result.count, milliseconds });
    }
    results.push(roundTripsOf(endpointCase, samples));
  }
  for (const coldCase of coldEndpointCases(api)) {
    const samples = [];
    for (let iteration = 1; iteration <= options.iterations; iteration += 1) {
      const tenant = await unreadTenant();
      const { result, milliseconds } = await timed(() => counter.measure(() => coldCase.send(tenant)));
      samples.push({ ...result.count, milliseconds });
    }
    results.push(roundTripsOf(coldCase, samples));
  }
  return results;
}

function roundTripsOf(
  endpointCase: { endpoint: string; floor: RoundTripFloor },
  samples: { calls: number; failedCalls: number; depth: number; operations: string[]; milliseconds: number }[],
): EndpointRoundTrips {
  const calls = median(samples.map((sample) => sample.calls));
  const failedCalls = median(samples.map((sample) => sample.failedCalls));
  const depth = median(samples.map((sample) => sample.depth));
  return {
    endpoint: endpointCase.endpoint,
    calls,
    failedCalls,
    depth,
    operations: samples[0]!.operations,
    floor: endpointCase.floor,
    // A failed call that was sent again is a retry of a round trip the floor counts already.
    atFloor: calls - failedCalls <= endpointCase.floor.calls && depth <= endpointCase.floor.depth,
    medianMilliseconds: rounded(median(samples.map((sample) => sample.milliseconds))),
    requests: samples.length,
  };
}

/** A new tenant with a gallery and an API key: nothing of it is in this process's recent reads. */
async function unreadTenant(): Promise<UnreadTenant> {
  const slug = `bench-cold-${randomBytes(4).toString('hex')}`;
  const tenant = await createTenant({ slug, name: 'Bench cold instance', plan: 'creator' });
  const { token } = await createBenchGallery(tenant.tenantId, 'Bench cold instance');
  const { secret } = await createApiKey(tenant.tenantId, 'Bench cold instance key');
  return { slug, token, apiKey: secret };
}

function coldEndpointCases(api: BenchApi): ColdEndpointCase[] {
  const serverSideColdFloor: RoundTripFloor = {
    calls: SERVER_SIDE_READ_FLOOR.calls + COLD_INSTANCE_EXTRA.calls,
    depth: SERVER_SIDE_READ_FLOOR.depth + COLD_INSTANCE_EXTRA.depth,
    reason: `${COLD_INSTANCE_EXTRA.reason}, then ${SERVER_SIDE_READ_FLOOR.reason}`,
  };
  return [
    {
      endpoint: 'GET check-in info (public), cold instance',
      floor: PUBLIC_CHECKIN_INFO_COLD_FLOOR,
      send: (tenant) => api.call(`/group-shoot/checkin/${tenant.token}`, { tenantSlug: tenant.slug }),
    },
    {
      endpoint: 'GET days, cold instance',
      floor: serverSideColdFloor,
      send: (tenant) =>
        api.call(`/groupshoot/${tenant.token}/days`, { tenantSlug: tenant.slug, apiKey: tenant.apiKey }),
    },
  ];
}

async function endpointCases(api: BenchApi, largeImportRows: number): Promise<EndpointCase[]> {
  const { galleryToken: token, shootingDayIds, packageIds } = api.demo;
  // The day without capacity: check-ins and imports never fill it.
  const openDayId = shootingDayIds[2]!;
  const server = `/groupshoot/${token}`;
  const get = (path: string) => (apiKey: string) => api.call(path, { apiKey });
  const importOf = (rows: number, label: string) => (apiKey: string, iteration: number) =>
    api.call(`${server}/persons`, {
      method: 'POST',
      apiKey,
      body: { persons: importRowsFor(rows, openDayId, `${label}-${iteration}`) },
    });
  const personId = await importedPersonId(api, openDayId);

  return [
    {
      endpoint: 'GET check-in info (public)',
      floor: PUBLIC_CHECKIN_INFO_FLOOR,
      send: () => api.call(`/group-shoot/checkin/${token}`),
    },
    { endpoint: 'GET days', floor: SERVER_SIDE_READ_FLOOR, send: get(`${server}/days`) },
    { endpoint: 'GET form-fields', floor: SERVER_SIDE_READ_FLOOR, send: get(`${server}/form-fields`) },
    { endpoint: 'GET stats', floor: SERVER_SIDE_READ_FLOOR, send: get(`${server}/stats`) },
    { endpoint: 'GET persons', floor: LIST_PERSONS_FLOOR, send: get(`${server}/persons`) },
    { endpoint: 'GET person photos', floor: PERSON_PHOTOS_FLOOR, send: get(`${server}/persons/${personId}/photos`) },
    { endpoint: 'POST persons (1 row)', floor: importFloor(1), send: importOf(1, 'one') },
    {
      endpoint: `POST persons (${largeImportRows} rows)`,
      floor: importFloor(largeImportRows),
      send: importOf(largeImportRows, 'many'),
    },
    {
      endpoint: 'POST /group-shoot submitCheckin (free, with day)',
      floor: SUBMIT_CHECKIN_FLOOR,
      send: (_apiKey, iteration) =>
        api.call('/group-shoot', {
          method: 'POST',
          body: {
            action: 'submitCheckin',
            token,
            name: `Bench Checkin ${iteration}`,
            email: `bench-checkin-${iteration}@example.com`,
            employeeId: `checkin-${iteration}-${Date.now()}`,
            consentGiven: true,
            shootingDayId: openDayId,
            selectedPackageId: packageIds.free,
          },
        }),
    },
  ];
}

/** A person to ask for photos: GET photos answers 404 for one that does not exist. */
async function importedPersonId(api: BenchApi, shootingDayId: string): Promise<string> {
  const answer = (await api.call(`/groupshoot/${api.demo.galleryToken}/persons`, {
    method: 'POST',
    apiKey: await api.freshApiKey(),
    body: { persons: importRowsFor(1, shootingDayId, 'photos') },
  })) as { persons: { personId: string }[] };
  return answer.persons[0]!.personId;
}
