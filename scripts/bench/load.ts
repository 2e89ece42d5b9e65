import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
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
  /** The API, its load sent from this thread by the same driver as the DynamoDB work alone. */
  api: LoadFigures;
  /** The API under autocannon in a worker thread, a load generator competing for the cores. */
  apiUnderAutocannon: LoadFigures;
  /** The same requests' DynamoDB calls replayed with the SDK alone, same concurrency. */
  dynamoDbAlone: LoadFigures;
  /** API p50 over DynamoDB-alone p50: what HTTP, middleware and domain code add. */
  p50Ratio: number;
  /** API p99 over DynamoDB-alone p99. */
  p99Ratio: number;
  /** DynamoDB-alone requests per second over the API's. */
  throughputRatio: number;
  /** API p50 under autocannon over DynamoDB-alone p50. */
  autocannonP50Ratio: number;
  /** API p99 under autocannon over DynamoDB-alone p99. */
  autocannonP99Ratio: number;
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
 * Each scenario's requests sent to the local API, then the same requests' DynamoDB work alone:
 * its calls, recorded from one sample request, replayed wave by wave. Both sides are driven
 * alike, from this thread, by `connections` concurrent workers that each send one request after
 * another, timed the same way; the API's side also carries the HTTP client and server. Then the
 * API once more under autocannon in a worker thread, the figure of earlier runs: that load
 * generator takes CPU of its own from the two cores the API and DynamoDB Local share, which the
 * DynamoDB work alone never has to give. Any answer that is not 2xx invalidates the run.
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
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const results: LoadResult[] = [];
  try {
    for (const scenario of await loadScenarios(api, options.keys)) {
      const { result: answer, work } = await counter.measure(scenario.sample);
      const rewriteFor = scenario.freshen?.(answer);
      const sendToApi = apiSender(agent, options.baseUrl, scenario);
      const replay = () => replayWork(replayClient, work, rewriteFor?.());
      // An unmeasured round of each first: connections opened, code paths compiled.
      const warmUp = { connections: options.connections, requests: options.connections * WARM_UP_REQUESTS_PER_CONNECTION };
      await driveLoad(sendToApi, warmUp);
      await driveLoad(replay, warmUp);
      // Taken in turns, a part of each at a time, so that the machine's drift weighs on both alike.
      const apiRounds: LoadRound[] = [];
      const aloneRounds: LoadRound[] = [];
      const round = { connections: options.connections, requests: Math.ceil(options.requests / ALTERNATING_ROUNDS) };
      for (let turn = 0; turn < ALTERNATING_ROUNDS; turn += 1) {
        apiRounds.push(await driveLoad(sendToApi, round));
        aloneRounds.push(await driveLoad(replay, round));
      }
      const [apiFigures, aloneFigures] = [figuresOf(apiRounds), figuresOf(aloneRounds)];
      const autocannonFigures = await loadWithAutocannon(options.baseUrl, scenario, options);
      results.push({
        scenario: scenario.scenario,
        connections: options.connections,
        requests: options.requests,
        api: apiFigures,
        apiUnderAutocannon: autocannonFigures,
        dynamoDbAlone: aloneFigures,
        p50Ratio: rounded(apiFigures.p50Milliseconds / aloneFigures.p50Milliseconds),
        p99Ratio: rounded(apiFigures.p99Milliseconds / aloneFigures.p99Milliseconds),
        throughputRatio: rounded(aloneFigures.requestsPerSecond / apiFigures.requestsPerSecond),
        autocannonP50Ratio: rounded(autocannonFigures.p50Milliseconds / aloneFigures.p50Milliseconds),
        autocannonP99Ratio: rounded(autocannonFigures.p99Milliseconds / aloneFigures.p99Milliseconds),
      });
    }
  } finally {
    agent.destroy();
    replayClient.destroy();
  }
  return results;
}

/** How many turns the API and the DynamoDB work alone take, each its share of the requests. */
const ALTERNATING_ROUNDS = 4;

/** Unmeasured requests per connection before each measured round: enough for V8 to have compiled the hot paths. */
const WARM_UP_REQUESTS_PER_CONNECTION = 20;

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

/**
 * Sends the scenario's requests in turn over `agent`'s connections, `[<id>]` in a body made a
 * fresh ID each time (as autocannon's idReplacement does); any answer that is not 2xx throws.
 */
function apiSender(agent: Agent, baseUrl: string, scenario: LoadScenario): () => Promise<void> {
  const origin = new URL(baseUrl).origin;
  let next = 0;
  return () => {
    const template = scenario.requests[next % scenario.requests.length]!;
    next += 1;
    const body = typeof template.body === 'string' ? template.body.replaceAll('[<id>]', randomUUID()) : undefined;
    return new Promise<void>((resolve, reject) => {
      const sent = httpRequest(`${origin}${template.path}`, { method: template.method, headers: template.headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`${scenario.scenario}: an answer was ${status}`));
        });
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(body);
    });
  };
}

interface LoadRound {
  latencies: number[];
  seconds: number;
}

/** `options.requests` calls of `send`, `options.connections` at a time, each timed from start to answer. */
async function driveLoad(send: () => Promise<void>, options: { connections: number; requests: number }): Promise<LoadRound> {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < options.requests) {
      started += 1;
      const startedAt = process.hrtime.bigint();
      await send();
      latencies.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
    }
  };
  const startedAt = process.hrtime.bigint();
  await Promise.all(Array.from({ length: options.connections }, worker));
  return { latencies, seconds: Number(process.hrtime.bigint() - startedAt) / 1e9 };
}

function figuresOf(rounds: LoadRound[]): LoadFigures {
  const latencies = rounds.flatMap((round) => round.latencies);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  return {
    p50Milliseconds: rounded(percentile(latencies, 50)),
    p99Milliseconds: rounded(percentile(latencies, 99)),
    requestsPerSecond: rounded(latencies.length / seconds, 1),
  };
}

async function loadWithAutocannon(baseUrl: string, scenario: LoadScenario, options: { connections: number; requests: number }): Promise<LoadFigures> {
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
