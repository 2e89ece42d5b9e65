import { nowIso } from '#lib/platform/clock';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { type BenchApi, createBenchGallery, createBenchStudio, demoCheckin, importRowsFor } from './bench-api';
import type { RoundTripCount, RoundTripCounter } from './round-trip-counter';
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

/** One request of an endpoint: on the demo tenant with a key of the case's own, or on `unread`, a tenant this process has never read (a cold instance). */
interface EndpointCase {
  endpoint: string;
  floor: RoundTripFloor;
  send(apiKey: string, iteration: number, unread?: { slug: string; token: string; apiKey: string }): Promise<unknown>;
  cold?: boolean;
}

/**
 * DynamoDB round trips per request of each endpoint, over HTTP to the local API, one request at
 * a time so that every call is its request's: a warm case after one unmeasured request, a cold
 * case's every request on a tenant made for it (docs/benchmarks/round-trips.md).
 */
export async function measureRoundTrips(
  api: BenchApi,
  counter: RoundTripCounter,
  options: { iterations: number; largeImportRows: number },
) {
  const results = [];
  for (const endpointCase of await endpointCases(api, options.largeImportRows)) {
    const apiKey = await api.freshApiKey();
    if (!endpointCase.cold) await endpointCase.send(apiKey, 0);
    const samples: (RoundTripCount & { milliseconds: number })[] = [];
    for (let iteration = 1; iteration <= options.iterations; iteration += 1) {
      const unread = endpointCase.cold ? await createBenchStudio('cold') : undefined;
      const send = () => endpointCase.send(apiKey, iteration, unread);
      const { result, milliseconds } = await timed(() => counter.measure(send));
      samples.push({ ...result.count, milliseconds });
    }
    const [calls, failedCalls, depth] = (['calls', 'failedCalls', 'depth'] as const).map((name) =>
      median(samples.map((sample) => sample[name])),
    ) as [number, number, number];
    results.push({
      endpoint: endpointCase.endpoint,
      /** Medians over the measured requests (they agree unless a condition retried); failed calls were retried access-code collisions. */
      calls,
      failedCalls,
      depth,
      operations: compactOperations(samples[0]!.operations),
      floor: endpointCase.floor,
      // A failed call that was sent again is a retry of a round trip the floor counts already.
      atFloor: calls - failedCalls <= endpointCase.floor.calls && depth <= endpointCase.floor.depth,
      medianMilliseconds: rounded(median(samples.map((sample) => sample.milliseconds))),
      requests: samples.length,
    });
  }
  return results;
}

async function endpointCases(api: BenchApi, largeImportRows: number): Promise<EndpointCase[]> {
  const token = api.demo.galleryToken;
  const server = `/groupshoot/${token}`;
  const get = (path: string) => (apiKey: string) => api.call(path, { apiKey });
  const importOf = (rows: number, label: string) => (apiKey: string, iteration: number) =>
    api.importPersons(apiKey, api.openDay, rows, `${label}-${iteration}`);
  // A person to ask for photos: GET photos answers 404 for one that does not exist.
  const imported = (await importOf(1, 'photos')(await api.freshApiKey(), 0)) as { persons: { personId: string }[] };
  const personId = imported.persons[0]!.personId;
  const checkin = (_apiKey: string, iteration: number) =>
    api.call('/group-shoot', { method: 'POST', body: demoCheckin(api.demo, `checkin-${iteration}-${Date.now()}`) });
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
    { endpoint: 'POST /group-shoot submitCheckin (free, with day)', floor: SUBMIT_CHECKIN_FLOOR, send: checkin },
    {
      endpoint: 'GET check-in info (public), cold instance',
      floor: PUBLIC_CHECKIN_INFO_COLD_FLOOR,
      cold: true,
      send: (_apiKey, _iteration, unread) =>
        api.call(`/group-shoot/checkin/${unread!.token}`, { tenantSlug: unread!.slug }),
    },
    {
      endpoint: 'GET days, cold instance',
      floor: {
        calls: SERVER_SIDE_READ_FLOOR.calls + COLD_INSTANCE_EXTRA.calls,
        depth: SERVER_SIDE_READ_FLOOR.depth + COLD_INSTANCE_EXTRA.depth,
        reason: `${COLD_INSTANCE_EXTRA.reason}, then ${SERVER_SIDE_READ_FLOOR.reason}`,
      },
      cold: true,
      send: (_apiKey, _iteration, unread) =>
        api.call(`/groupshoot/${unread!.token}/days`, { tenantSlug: unread!.slug, apiKey: unread!.apiKey }),
    },
  ];
}

/** `Query, TransactWriteItems × 10, UpdateItem × 2` instead of 13 names. */
function compactOperations(operations: readonly string[]): string {
  const runs: { name: string; times: number }[] = [];
  for (const name of operations) {
    const last = runs.at(-1);
    if (last?.name === name) last.times += 1;
    else runs.push({ name, times: 1 });
  }
  return runs.map((run) => (run.times > 1 ? `${run.name} × ${run.times}` : run.name)).join(', ');
}

/**
 * The import ratio: `rows` persons through POST persons against the same person and code items
 * written by insertPersonsWithCodes (the least that keeps codes unique) into a second gallery,
 * alternated after a warm-up each, so that both see the same state of the machine and the table.
 */
export async function compareImports(api: BenchApi, options: { rows: number; iterations: number }) {
  const apiKey = await api.freshApiKey();
  const { token, dayId } = await createBenchGallery(api.tenantId, 'Bench: SDK-alone imports');
  const importThroughApi = (label: string) => api.importPersons(apiKey, api.openDay, options.rows, label);
  const insertWithSdk = async (label: string) => {
    const createdAt = nowIso();
    const drafts = importRowsFor(options.rows, dayId, label).map((row) => importedPersonDraft(row, createdAt));
    const { failed } = await insertPersonsWithCodes({ tenantId: api.tenantId, token }, drafts);
    if (failed.length > 0) throw new Error(`${failed.length} persons not written by the SDK-alone import`);
  };
  await importThroughApi('api-warmup');
  await insertWithSdk('sdk-warmup');
  const [apiSamples, sdkSamples]: [number[], number[]] = [[], []];
  for (let iteration = 0; iteration < options.iterations; iteration += 1) {
    apiSamples.push((await timed(() => importThroughApi(`api-${iteration}`))).milliseconds);
    sdkSamples.push((await timed(() => insertWithSdk(`sdk-${iteration}`))).milliseconds);
  }
  return {
    ...options,
    apiMedianMilliseconds: rounded(median(apiSamples)),
    sdkAloneMedianMilliseconds: rounded(median(sdkSamples)),
    ratio: rounded(median(apiSamples) / median(sdkSamples)),
  };
}
