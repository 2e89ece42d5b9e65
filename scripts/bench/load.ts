import { randomInt, randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { DOCUMENT_TRANSLATION, DYNAMODB_CLIENT_CONFIG } from '#lib/platform/table/client';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { newPersonId } from '#lib/persons/rules/person-model';
import { UNLIMITED_DAY_SHARDS } from '#lib/galleries/rules/spot-counters';
import { inProcessApi } from '../local/api-server';
import type { BenchApi } from './bench-api';
import { replayWork } from './dynamodb-replay';
import type { RoundTripCounter } from './round-trip-counter';
import { type LoadFigures, loadFiguresOf, rounded } from './statistics';

export type LoadResult = Awaited<ReturnType<typeof measureLoad>>[number];

/** One request of a scenario: `[<id>]` in its body becomes a fresh ID each time it is sent. */
interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface LoadScenario {
  scenario: string;
  /** The requests the load cycles through. */
  requests: LoadRequest[];
  /** One request like those, sent once while its DynamoDB work is recorded. */
  sample: () => Promise<unknown>;
  /** Makes a recorded write new for each replayed request, as each API request writes new items: given the sample's answer, a rewrite of call inputs per replay. */
  freshen?(answer: unknown): () => (text: string) => string;
}

type Side = () => Promise<void>;
interface LoadRound {
  latencies: number[];
  seconds: number;
}

/**
 * The steady load's rate, all three sides together, as a share of what the DynamoDB work alone
 * sustained saturated: a busy thread, not an overloaded one. Saturated, every side waits for the
 * one thread that all simulated instances share, so latency there is mostly queueing behind the
 * others' CPU, which Lambda instances, each with a CPU of its own, never do.
 */
const STEADY_SHARE = 0.4;
/** Turns each side takes under the saturating load, each its share of the requests. */
const ALTERNATING_ROUNDS = 8;
/** Unmeasured requests per connection before the measured ones: enough for V8 to have compiled the hot paths. */
const WARM_UP_REQUESTS_PER_CONNECTION = 20;

/**
 * Each scenario's requests sent to the local API over HTTP, the same requests given to its
 * functions in this process (as Lambda invokes them, without HTTP), and the same requests'
 * DynamoDB work alone: its calls, recorded from one sample request on a warm instance, replayed
 * wave by wave. The three sides are driven alike from this thread: first saturating, in turns
 * (`connections` workers, each sending its next request as soon as its last is answered: what
 * one process sustains), then steady, interleaved (requests started at a fixed rate whatever the
 * answers: the latency a participant sees, the goal's measure). Ratios are each side over the
 * DynamoDB work alone. Any answer that is not 2xx invalidates the run.
 */
export async function measureLoad(
  api: BenchApi,
  counter: RoundTripCounter,
  baseUrl: string,
  options: { connections: number; requests: number; keys: number },
) {
  const replayClient = DynamoDBDocumentClient.from(new DynamoDBClient(DYNAMODB_CLIENT_CONFIG), DOCUMENT_TRANSLATION);
  const functions = inProcessApi();
  const results = [];
  try {
    for (const scenario of await loadScenarios(api, options.keys)) {
      const nextRequest = requestCycle(scenario);
      const sendToApi = async () => {
        const { method, path, headers, body } = nextRequest();
        const response = await fetch(`${new URL(baseUrl).origin}${path}`, { method, headers, body });
        await response.arrayBuffer();
        requireSuccess(scenario, response.status);
      };
      const invokeFunction = async () => {
        const { method, path, headers, body } = nextRequest();
        const lowerCased = Object.entries({ host: new URL(baseUrl).host, ...headers });
        const event = {
          method,
          path,
          headers: Object.fromEntries(lowerCased.map(([n, v]) => [n.toLowerCase(), v])),
          body,
        };
        requireSuccess(scenario, (await functions(event)).statusCode ?? 200);
      };
      // The instance is warm before the sample: its recording is a warm request's work.
      await sendToApi();
      const { result: answer, work } = await counter.measure(scenario.sample);
      const rewriteFor = scenario.freshen?.(answer);
      const replay = () => replayWork(replayClient, work, rewriteFor?.());
      const sides: Side[] = [sendToApi, invokeFunction, replay];
      // An unmeasured round of each first: connections opened, code paths compiled.
      const warmUp = {
        connections: options.connections,
        requests: options.connections * WARM_UP_REQUESTS_PER_CONNECTION,
      };
      for (const side of sides) await driveLoad(side, warmUp);
      // In turns, so that the machine's drift weighs on all sides alike.
      const rounds: LoadRound[][] = [[], [], []];
      const turn = { connections: options.connections, requests: Math.ceil(options.requests / ALTERNATING_ROUNDS) };
      for (let round = 0; round < ALTERNATING_ROUNDS; round += 1) {
        for (const [index, side] of sides.entries()) rounds[index]!.push(await driveLoad(side, turn));
      }
      const [apiSaturated, inProcessSaturated, aloneSaturated] = rounds.map((own) =>
        loadFiguresOf(
          own.flatMap((round) => round.latencies),
          own.reduce((sum, round) => sum + round.seconds, 0),
        ),
      ) as [LoadFigures, LoadFigures, LoadFigures];
      const arrivalRatePerSecond = rounded(aloneSaturated.requestsPerSecond * STEADY_SHARE, 1);
      const [apiSteady, inProcessSteady, aloneSteady] = (await driveInterleavedAtRate(sides, {
        ratePerSecond: arrivalRatePerSecond,
        requestsPerSide: options.requests,
      })) as [LoadFigures, LoadFigures, LoadFigures];
      const ratio = (part: number, whole: number) => rounded(part / whole);
      results.push({
        scenario: scenario.scenario,
        connections: options.connections,
        requests: options.requests,
        /** The steady load: requests started at this rate whatever the answers, the three sides interleaved. */
        arrivalRatePerSecond,
        /** The API over the local HTTP front, the functions in process, the DynamoDB work alone, steady load. */
        api: apiSteady,
        functionsInProcess: inProcessSteady,
        dynamoDbAlone: aloneSteady,
        saturated: { api: apiSaturated, functionsInProcess: inProcessSaturated, dynamoDbAlone: aloneSaturated },
        p50Ratio: ratio(apiSteady.p50Milliseconds, aloneSteady.p50Milliseconds),
        p99Ratio: ratio(apiSteady.p99Milliseconds, aloneSteady.p99Milliseconds),
        inProcessP50Ratio: ratio(inProcessSteady.p50Milliseconds, aloneSteady.p50Milliseconds),
        inProcessP99Ratio: ratio(inProcessSteady.p99Milliseconds, aloneSteady.p99Milliseconds),
        /** Saturated: the DynamoDB work alone's requests per second over the API's, and over the functions'. */
        throughputRatio: ratio(aloneSaturated.requestsPerSecond, apiSaturated.requestsPerSecond),
        inProcessThroughputRatio: ratio(aloneSaturated.requestsPerSecond, inProcessSaturated.requestsPerSecond),
      });
    }
  } finally {
    replayClient.destroy();
  }
  return results;
}

/**
 * What a check-in writes that is the participant's own, besides the person and code: the key
 * of the email's check-in count, the IDs of its events, and the marks that make a resent write
 * harmless (UUIDs); and the day's counter it took its spot from. Each replay gets new ones (a
 * counter at random, as check-ins take), so that its transaction stores new items and its
 * counter updates count, as the API's do, instead of being refused as repeats.
 */
const EMAIL_KEY = /#EMAIL#[A-Za-z0-9_-]+/g;
const EVENT_ID = /evt_[0-9A-Za-z]{26}/g;
const WRITE_MARK = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const SPOT_COUNTER = /#SPOTS#\d{2}/g;

async function loadScenarios(api: BenchApi, keyCount: number): Promise<LoadScenario[]> {
  const { galleryToken: token, tenantSlug, shootingDayIds, packageIds } = api.demo;
  // One load client plays every participant: the demo gallery lets it (a studio raises its limits the same way).
  // 10,000 a minute is one request every 6 ms, more often than this client sends one: its counter
  // stays ahead of the clock, where concurrent requests each add to it in one write. A limit so
  // high that its interval is shorter than the gap between requests (a million a minute: 0.06 ms)
  // keeps the counter idle, and requests that meet within that interval write twice.
  const raised = { limit: 10_000, windowMs: 60_000 };
  await updateGallerySettings(api.tenantId, token, { publicLimits: { reads: raised, checkins: raised } });
  const apiKeys = await Promise.all(Array.from({ length: keyCount }, () => api.freshApiKey()));
  // Made before the sample, so that the recording holds the request's work and not the key's creation.
  const sampleKey = await api.freshApiKey();
  const personsPath = `/groupshoot/${token}/persons`;
  const sampleParticipant = `sample-${Date.now()}`;
  const checkinBody = (id: string) => ({
    action: 'submitCheckin',
    token,
    name: `Load Checkin ${id}`,
    email: `load-${id}@example.com`,
    employeeId: `load-${id}`,
    consentGiven: true,
    // The day without capacity, so that no check-in is refused for a full day.
    shootingDayId: shootingDayIds[2]!,
    selectedPackageId: packageIds.free,
  });
  const headers = { 'X-Tenant-Slug': tenantSlug };
  return [
    {
      scenario: 'GET check-in info (public)',
      requests: [{ method: 'GET', path: `/v1/group-shoot/checkin/${token}`, headers }],
      sample: () => api.call(`/group-shoot/checkin/${token}`),
    },
    {
      scenario: `GET persons (server-side, ${keyCount} keys)`,
      requests: apiKeys.map((key) => ({
        method: 'GET',
        path: `/v1${personsPath}`,
        headers: { ...headers, Authorization: `Bearer ${key}` },
      })),
      sample: () => api.call(personsPath, { apiKey: sampleKey }),
    },
    {
      scenario: 'POST /group-shoot submitCheckin (free)',
      requests: [
        {
          method: 'POST',
          path: '/v1/group-shoot',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(checkinBody('[<id>]')),
        },
      ],
      sample: () => api.call('/group-shoot', { method: 'POST', body: checkinBody(sampleParticipant) }),
      freshen: (answer) => {
        const { personId, code } = answer as { personId: string; code: string };
        return () => {
          const [freshPersonId, freshCode, freshParticipant] = [
            newPersonId(),
            generateAccessCode(),
            `replay-${randomUUID()}`,
          ];
          const freshIds = new Map<string, string>();
          const freshFor = (id: string, make: () => string) => freshIds.get(id) ?? freshIds.set(id, make()).get(id)!;
          const shard = () => `#SPOTS#${String(randomInt(UNLIMITED_DAY_SHARDS)).padStart(2, '0')}`;
          return (text) =>
            text
              .replaceAll(personId, freshPersonId)
              .replaceAll(code, freshCode)
              .replaceAll(sampleParticipant, freshParticipant)
              .replace(EMAIL_KEY, (key) => freshFor(key, () => `#EMAIL#${randomUUID()}`))
              .replace(EVENT_ID, (id) => freshFor(id.toLowerCase(), () => `evt_${newPersonId().slice('per_'.length)}`))
              .replace(WRITE_MARK, (mark) => freshFor(mark, randomUUID))
              .replace(SPOT_COUNTER, (counter) => freshFor(counter, shard));
        };
      },
    },
  ];
}

/** The scenario's requests in turn, `[<id>]` in a body made a fresh ID each time. */
function requestCycle(scenario: LoadScenario): () => LoadRequest {
  let next = 0;
  return () => {
    const template = scenario.requests[next++ % scenario.requests.length]!;
    return { ...template, body: template.body?.replaceAll('[<id>]', randomUUID()) };
  };
}

function requireSuccess(scenario: LoadScenario, status: number): void {
  if (status < 200 || status >= 300) throw new Error(`${scenario.scenario}: an answer was ${status}`);
}

/** `options.requests` calls of `send`, `options.connections` at a time, each timed from start to answer. */
async function driveLoad(send: Side, options: { connections: number; requests: number }): Promise<LoadRound> {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < options.requests) {
      started += 1;
      const startedAt = performance.now();
      await send();
      latencies.push(performance.now() - startedAt);
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  return { latencies, seconds: (performance.now() - startedAt) / 1000 };
}

/**
 * `requestsPerSide` requests of each side started at a fixed total rate whatever the answers, as
 * independent participants arrive, the sides interleaved (each run of one request per side in a
 * random order); each timed from when it was due, so that a start the busy thread delayed counts
 * against it. Interleaved, a stall of the machine or of DynamoDB Local meets every side alike,
 * and the thread's queue is shared by all: what differs is each request's own work, as on
 * Lambda, where an instance serves one request at a time and queues behind nobody.
 */
async function driveInterleavedAtRate(
  sides: Side[],
  options: { ratePerSecond: number; requestsPerSide: number },
): Promise<LoadFigures[]> {
  const latencies: number[][] = sides.map(() => []);
  const running: Promise<void>[] = [];
  const startedAt = performance.now();
  let order: number[] = [];
  for (let index = 0; index < options.requestsPerSide * sides.length; index += 1) {
    // A random order of the sides (Fisher–Yates), one run after another.
    if (order.length === 0) {
      order = [...sides.keys()];
      for (let at = order.length - 1; at > 0; at -= 1) {
        const other = randomInt(at + 1);
        [order[at], order[other]] = [order[other]!, order[at]!];
      }
    }
    const sideIndex = order.pop()!;
    const due = startedAt + (index * 1000) / options.ratePerSecond;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(sides[sideIndex]!().then(() => void latencies[sideIndex]!.push(performance.now() - due)));
  }
  await Promise.all(running);
  const seconds = (performance.now() - startedAt) / 1000;
  return latencies.map((own) => loadFiguresOf(own, seconds));
}
