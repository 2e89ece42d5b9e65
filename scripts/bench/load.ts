import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { newPersonId } from '#lib/persons/rules/person-model';
import type { BenchApi } from './bench-api';
import { replayWork } from './dynamodb-replay';
import type { RecordedWork, RoundTripCounter } from './round-trip-counter';
import { percentile, rounded } from './statistics';

export interface LoadFigures {
  p50Milliseconds: number;
  p99Milliseconds: number;
  requestsPerSecond: number;
}

export interface LoadResult {
  scenario: string;
  /** Concurrent connections: one per simulated Lambda instance. */
  connections: number;
  requests: number;
  api: LoadFigures;
  /** The same requests' DynamoDB calls replayed with the SDK alone, same concurrency. */
  dynamoDbAlone: LoadFigures;
  /** API p50 over DynamoDB-alone p50: what HTTP, middleware and domain code add. */
  p50Ratio: number;
  /** API p99 over DynamoDB-alone p99. */
  p99Ratio: number;
  /** DynamoDB-alone requests per second over the API's. */
  throughputRatio: number;
}

interface LoadScenario {
  scenario: string;
  /** The requests autocannon cycles through; `[<id>]` in a body becomes a fresh ID. */
  requests: LoadRequest[];
  /** One request like those, sent once while its DynamoDB work is recorded. */
  sample(): Promise<unknown>;
  /**
   * Makes a recorded write new for each replayed request, as each API request writes new
   * items: given the sample's answer, a rewrite of call inputs per replayed request.
   */
  freshen?(answer: unknown): () => (text: string) => string;
}

/**
 * Load on the local API with autocannon (in a worker thread, so the API keeps this thread),
 * then the same requests' DynamoDB work alone: each scenario's calls, recorded from one
 * sample request, replayed wave by wave by as many concurrent workers as autocannon had
 * connections. Any answer that is not 2xx invalidates the run.
 */
export async function measureLoad(
  api: BenchApi,
  counter: RoundTripCounter,
  options: { baseUrl: string; connections: number; requests: number; keys: number },
): Promise<LoadResult[]> {
  // Configured as lib/platform/table/client.ts configures the API's client.
  const replayClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, maxAttempts: 4 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const results: LoadResult[] = [];
  try {
    for (const scenario of await loadScenarios(api, options.keys)) {
      const { result: answer, work } = await counter.measure(scenario.sample);
      const rewriteFor = scenario.freshen?.(answer);
      // A short unmeasured round of each first: connections opened, code paths warm.
      const warmUp = { connections: options.connections, requests: options.connections * 2 };
      await loadApi(options.baseUrl, scenario, warmUp);
      const apiFigures = await loadApi(options.baseUrl, scenario, options);
      await loadDynamoDbAlone(replayClient, work, rewriteFor, warmUp);
      const aloneFigures = await loadDynamoDbAlone(replayClient, work, rewriteFor, options);
      results.push({
        scenario: scenario.scenario,
        connections: options.connections,
        requests: options.requests,
        api: apiFigures,
        dynamoDbAlone: aloneFigures,
        p50Ratio: rounded(apiFigures.p50Milliseconds / aloneFigures.p50Milliseconds),
        p99Ratio: rounded(apiFigures.p99Milliseconds / aloneFigures.p99Milliseconds),
        throughputRatio: rounded(aloneFigures.requestsPerSecond / apiFigures.requestsPerSecond),
      });
    }
  } finally {
    replayClient.destroy();
  }
  return results;
}

async function loadScenarios(api: BenchApi, keyCount: number): Promise<LoadScenario[]> {
  const { galleryToken: token, tenantSlug, shootingDayIds, packageIds } = api.demo;
  // The day without capacity, so that no check-in is refused for a full day.
  const openDayId = shootingDayIds[2]!;
  // One load client plays every participant: the demo gallery lets it (a studio raises its limits the same way).
  const unlimited = { limit: 1_000_000, windowMs: 60_000 };
  await updateGallerySettings(api.tenantId, token, { publicLimits: { reads: unlimited, checkins: unlimited } });
  const apiKeys = await Promise.all(Array.from({ length: keyCount }, () => api.freshApiKey()));
  const personsPath = `/groupshoot/${token}/persons`;
  const checkinBody = (id: string) => ({
    action: 'submitCheckin',
    token,
    name: `Load Checkin ${id}`,
    email: `load-${id}@example.com`,
    employeeId: `load-${id}`,
    consentGiven: true,
    shootingDayId: openDayId,
    selectedPackageId: packageIds.free,
  });
  return [
    {
      scenario: 'GET check-in info (public)',
      requests: [{ method: 'GET', path: `/v1/group-shoot/checkin/${token}`, headers: { 'X-Tenant-Slug': tenantSlug } }],
      sample: () => api.call(`/group-shoot/checkin/${token}`),
    },
    {
      scenario: `GET persons (server-side, ${keyCount} keys)`,
      requests: apiKeys.map((key) => ({
        method: 'GET',
        path: `/v1${personsPath}`,
        headers: { 'X-Tenant-Slug': tenantSlug, Authorization: `Bearer ${key}` },
      })),
      sample: async () => api.call(personsPath, { apiKey: await api.freshApiKey() }),
    },
    {
      scenario: 'POST /group-shoot submitCheckin (free)',
      requests: [
        {
          method: 'POST',
          path: '/v1/group-shoot',
          headers: { 'X-Tenant-Slug': tenantSlug, 'Content-Type': 'application/json' },
          body: JSON.stringify(checkinBody('[<id>]')),
        },
      ],
      sample: () => api.call('/group-shoot', { method: 'POST', body: checkinBody(`sample-${Date.now()}`) }),
      freshen: (answer) => {
        const { personId, code } = answer as { personId: string; code: string };
        return () => {
          const [freshPersonId, freshCode] = [newPersonId(), generateAccessCode()];
          return (text) => text.replaceAll(personId, freshPersonId).replaceAll(code, freshCode);
        };
      },
    },
  ];
}

async function loadApi(baseUrl: string, scenario: LoadScenario, options: { connections: number; requests: number }): Promise<LoadFigures> {
  const result = await autocannon({
    url: new URL(baseUrl).origin,
    connections: options.connections,
    amount: options.requests,
    requests: scenario.requests,
    idReplacement: true,
    workers: 1,
    // Sampled every 10 ms rather than every second, so that the duration of a short run is exact.
    sampleInt: 10,
    timeout: 30,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${scenario.scenario}: ${result.non2xx} answers were not 2xx and ${result.errors} requests failed`);
  }
  return {
    p50Milliseconds: result.latency.p50,
    p99Milliseconds: result.latency.p99,
    requestsPerSecond: rounded(result.requests.total / result.duration, 1),
  };
}

async function loadDynamoDbAlone(
  client: DynamoDBDocumentClient,
  work: RecordedWork,
  rewriteFor: (() => (text: string) => string) | undefined,
  options: { connections: number; requests: number },
): Promise<LoadFigures> {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < options.requests) {
      started += 1;
      const startedAt = process.hrtime.bigint();
      await replayWork(client, work, rewriteFor?.());
      latencies.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
    }
  };
  const startedAt = process.hrtime.bigint();
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  return {
    p50Milliseconds: rounded(percentile(latencies, 50)),
    p99Milliseconds: rounded(percentile(latencies, 99)),
    requestsPerSecond: rounded(latencies.length / seconds, 1),
  };
}
