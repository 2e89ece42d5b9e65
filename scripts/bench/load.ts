import { randomInt, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { DOCUMENT_TRANSLATION, DYNAMODB_CLIENT_CONFIG } from '#lib/platform/table/client';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { newPersonId } from '#lib/persons/rules/person-model';
import { UNLIMITED_DAY_SHARDS } from '#lib/galleries/rules/spot-counters';
import { inProcessApi } from '../local/api-server';
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
  /** Concurrent connections of the saturating load: one per simulated Lambda instance. */
  connections: number;
  /** Measured requests per side, in each of the two loads. */
  requests: number;
  /**
   * The steady load (the goal's measure): requests started at this fixed rate whatever the
   * answers, as independent participants arrive, the three sides' requests interleaved (a third
   * of the rate each).
   */
  arrivalRatePerSecond: number;
  /** The API over the local HTTP front under the steady load. */
  api: LoadFigures;
  /** The same functions invoked in this process with API Gateway's events, as Lambda invokes them (no HTTP), under the steady load. */
  functionsInProcess: LoadFigures;
  /** The same requests' DynamoDB calls replayed with the SDK alone, under the steady load. */
  dynamoDbAlone: LoadFigures;
  /** Under the saturating load (`connections` workers, each sending its next request at once): what one process sustains. */
  saturated: { api: LoadFigures; functionsInProcess: LoadFigures; dynamoDbAlone: LoadFigures };
  /** The API under autocannon in a worker thread (saturating, the method of earlier runs). */
  apiUnderAutocannon: LoadFigures;
  /** API p50 over DynamoDB-alone p50, steady load: what HTTP, middleware and domain code add. */
  p50Ratio: number;
  /** API p99 over DynamoDB-alone p99, steady load. */
  p99Ratio: number;
  /** In-process p50 over DynamoDB-alone p50, steady load: what the middleware and domain code add. */
  inProcessP50Ratio: number;
  /** In-process p99 over DynamoDB-alone p99, steady load. */
  inProcessP99Ratio: number;
  /** Saturated: DynamoDB-alone requests per second over the API's. */
  throughputRatio: number;
  /** Saturated: DynamoDB-alone requests per second over the functions' in process. */
  inProcessThroughputRatio: number;
  /** API p50 under autocannon over DynamoDB-alone p50 (saturated). */
  autocannonP50Ratio: number;
  /** API p99 under autocannon over DynamoDB-alone p99 (saturated). */
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
 * Each scenario's requests sent to the local API, the same requests given to its functions in
 * this process (as Lambda invokes them, without HTTP), and the same requests' DynamoDB work
 * alone: its calls, recorded from one sample request on a warm instance, replayed wave by wave.
 * The three sides are driven alike from this thread: first saturating, in turns (`connections`
 * workers, each sending its next request as soon as its last is answered: what one process
 * sustains), then steady, interleaved (requests started at a fixed rate, STEADY_SHARE of what
 * the DynamoDB work alone sustained, whatever the answers: the latency a participant sees).
 * Then the API under autocannon in a worker thread, the method of earlier runs. Any answer that
 * is not 2xx invalidates the run.
 */
export async function measureLoad(
  api: BenchApi,
  counter: RoundTripCounter,
  options: { baseUrl: string; connections: number; requests: number; keys: number },
): Promise<LoadResult[]> {
  const replayClient = DynamoDBDocumentClient.from(new DynamoDBClient(DYNAMODB_CLIENT_CONFIG), DOCUMENT_TRANSLATION);
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  const functions = inProcessApi();
  const results: LoadResult[] = [];
  try {
    for (const scenario of await loadScenarios(api, options.keys)) {
      const sendToApi = apiSender(agent, options.baseUrl, scenario);
      const invokeFunction = functionInvoker(functions, options.baseUrl, scenario);
      // The instance is warm before the sample: its recording is a warm request's work.
      await sendToApi();
      const { result: answer, work } = await counter.measure(scenario.sample);
      const rewriteFor = scenario.freshen?.(answer);
      const replay = () => replayWork(replayClient, work, rewriteFor?.());
      const sides: [Side, Side, Side] = [sendToApi, invokeFunction, replay];
      // An unmeasured round of each first: connections opened, code paths compiled.
      const warmUp = {
        connections: options.connections,
        requests: options.connections * WARM_UP_REQUESTS_PER_CONNECTION,
      };
      for (const side of sides) await driveLoad(side, warmUp);
      const turnRequests = Math.ceil(options.requests / ALTERNATING_ROUNDS);
      const [apiSaturated, inProcessSaturated, aloneSaturated] = await inTurns(sides, (side) =>
        driveLoad(side, { connections: options.connections, requests: turnRequests }),
      );
      const arrivalRatePerSecond = rounded(aloneSaturated.requestsPerSecond * STEADY_SHARE, 1);
      const [apiSteady, inProcessSteady, aloneSteady] = await driveInterleavedAtRate(sides, {
        ratePerSecond: arrivalRatePerSecond,
        requestsPerSide: options.requests,
      });
      const autocannonFigures = await loadWithAutocannon(options.baseUrl, scenario, options);
      const ratio = (part: number, whole: number) => rounded(part / whole);
      results.push({
        scenario: scenario.scenario,
        connections: options.connections,
        requests: options.requests,
        arrivalRatePerSecond,
        api: apiSteady,
        functionsInProcess: inProcessSteady,
        dynamoDbAlone: aloneSteady,
        saturated: { api: apiSaturated, functionsInProcess: inProcessSaturated, dynamoDbAlone: aloneSaturated },
        apiUnderAutocannon: autocannonFigures,
        p50Ratio: ratio(apiSteady.p50Milliseconds, aloneSteady.p50Milliseconds),
        p99Ratio: ratio(apiSteady.p99Milliseconds, aloneSteady.p99Milliseconds),
        inProcessP50Ratio: ratio(inProcessSteady.p50Milliseconds, aloneSteady.p50Milliseconds),
        inProcessP99Ratio: ratio(inProcessSteady.p99Milliseconds, aloneSteady.p99Milliseconds),
        throughputRatio: ratio(aloneSaturated.requestsPerSecond, apiSaturated.requestsPerSecond),
        inProcessThroughputRatio: ratio(aloneSaturated.requestsPerSecond, inProcessSaturated.requestsPerSecond),
        autocannonP50Ratio: ratio(autocannonFigures.p50Milliseconds, aloneSaturated.p50Milliseconds),
        autocannonP99Ratio: ratio(autocannonFigures.p99Milliseconds, aloneSaturated.p99Milliseconds),
      });
    }
  } finally {
    agent.destroy();
    replayClient.destroy();
  }
  return results;
}

/**
 * The steady load's rate, all three sides together, as a share of what the DynamoDB work alone
 * sustained saturated: a busy thread, not an overloaded one. Saturated, every side waits for the
 * one thread that all ten simulated instances share, so latency there is mostly queueing behind
 * the others' CPU, which Lambda instances, each with a CPU of its own, never do.
 */
const STEADY_SHARE = 0.4;

type Side = () => Promise<void>;

/** Each side's rounds taken in turns, a part of each at a time, so that the machine's drift weighs on all alike; the figures of each side. */
async function inTurns(
  sides: [Side, Side, Side],
  drive: (side: Side) => Promise<LoadRound>,
): Promise<[LoadFigures, LoadFigures, LoadFigures]> {
  const rounds: [LoadRound[], LoadRound[], LoadRound[]] = [[], [], []];
  for (let turn = 0; turn < ALTERNATING_ROUNDS; turn += 1) {
    for (const [index, side] of sides.entries()) rounds[index]!.push(await drive(side));
  }
  return [figuresOf(rounds[0]), figuresOf(rounds[1]), figuresOf(rounds[2])];
}

/** How many turns each side takes, each its share of the requests. */
const ALTERNATING_ROUNDS = 8;

/** Unmeasured requests per connection before each measured round: enough for V8 to have compiled the hot paths. */
const WARM_UP_REQUESTS_PER_CONNECTION = 20;

/**
 * What a check-in writes that is the participant's own, besides the person and code: the key
 * of the email's check-in count, the IDs of its events, and the marks that make a resent
 * write harmless (UUIDs). Each replay gets new ones, so that its transaction stores new items
 * and its counter updates count, as the API's do, instead of being refused as repeats.
 */
const EMAIL_KEY = /#EMAIL#[A-Za-z0-9_-]+/g;
const EVENT_ID = /evt_[0-9A-Za-z]{26}/g;
const WRITE_MARK = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** The day's counter the check-in took its spot from: each replay takes one at random, as check-ins do (the day is one without capacity). */
const SPOT_COUNTER = /#SPOTS#\d{2}/g;

async function loadScenarios(api: BenchApi, keyCount: number): Promise<LoadScenario[]> {
  const { galleryToken: token, tenantSlug, shootingDayIds, packageIds } = api.demo;
  // The day without capacity, so that no check-in is refused for a full day.
  const openDayId = shootingDayIds[2]!;
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
      sample: () => api.call(personsPath, { apiKey: sampleKey }),
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
          return (text) =>
            text
              .replaceAll(personId, freshPersonId)
              .replaceAll(code, freshCode)
              .replaceAll(sampleParticipant, freshParticipant)
              .replace(EMAIL_KEY, (key) => freshFor(key, () => `#EMAIL#${randomUUID()}`))
              .replace(EVENT_ID, (id) => freshFor(id.toLowerCase(), () => `evt_${newPersonId().slice('per_'.length)}`))
              .replace(WRITE_MARK, (mark) => freshFor(mark, randomUUID))
              .replace(SPOT_COUNTER, (counter) =>
                freshFor(counter, () => `#SPOTS#${String(randomInt(UNLIMITED_DAY_SHARDS)).padStart(2, '0')}`),
              );
        };
      },
    },
  ];
}

/** The scenario's requests in turn, `[<id>]` in a body made a fresh ID each time (as autocannon's idReplacement does). */
function requestCycle(scenario: LoadScenario): () => { template: LoadRequest; body?: string } {
  let next = 0;
  return () => {
    const template = scenario.requests[next % scenario.requests.length]!;
    next += 1;
    return {
      template,
      body: typeof template.body === 'string' ? template.body.replaceAll('[<id>]', randomUUID()) : undefined,
    };
  };
}

function requireSuccess(scenario: LoadScenario, status: number): void {
  if (status < 200 || status >= 300) throw new Error(`${scenario.scenario}: an answer was ${status}`);
}

/** Sends the scenario's requests over `agent`'s connections; any answer that is not 2xx throws. */
function apiSender(agent: Agent, baseUrl: string, scenario: LoadScenario): () => Promise<void> {
  const origin = new URL(baseUrl).origin;
  const nextRequest = requestCycle(scenario);
  const send = (template: LoadRequest, body: string | undefined, resend: boolean): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const sent = httpRequest(
        `${origin}${template.path}`,
        { method: template.method, headers: template.headers, agent },
        (response) => {
          response.resume();
          response.on('end', () => {
            try {
              requireSuccess(scenario, response.statusCode ?? 0);
              resolve();
            } catch (error) {
              reject(error);
            }
          });
          response.on('error', reject);
        },
      );
      sent.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as idle just as this request went out: sent again on a new one, once.
        if (resend && sent.reusedSocket && error.code === 'ECONNRESET')
          send(template, body, false).then(resolve, reject);
        else reject(error);
      });
      sent.end(body);
    });
  return () => {
    const { template, body } = nextRequest();
    return send(template, body, true);
  };
}

/** Gives the scenario's requests to the functions in this process, as API Gateway would; any answer that is not 2xx throws. */
function functionInvoker(
  functions: ReturnType<typeof inProcessApi>,
  baseUrl: string,
  scenario: LoadScenario,
): () => Promise<void> {
  const host = new URL(baseUrl).host;
  const nextRequest = requestCycle(scenario);
  return async () => {
    const { template, body } = nextRequest();
    const headers = Object.fromEntries(
      Object.entries({ host, ...template.headers }).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const result = await functions({ method: template.method ?? 'GET', path: template.path ?? '/', headers, body });
    requireSuccess(scenario, result.statusCode ?? 200);
  };
}

interface LoadRound {
  latencies: number[];
  seconds: number;
}

/** `options.requests` calls of `send`, `options.connections` at a time, each timed from start to answer. */
async function driveLoad(
  send: () => Promise<void>,
  options: { connections: number; requests: number },
): Promise<LoadRound> {
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

/**
 * `requestsPerSide` requests of each side started at a fixed total rate whatever the answers, as
 * independent participants arrive, the sides interleaved request by request (each run of one
 * request per side in a random order); each timed from when it was due, so that a start the busy
 * thread delayed counts against it. Interleaved, a pause of the machine or of DynamoDB Local
 * (this machine has stalls of 50 to 100 ms every few seconds, whatever runs) meets every side
 * alike, and the thread's queue is shared by all: what differs is each request's own work, as
 * on Lambda, where an instance serves one request at a time and queues behind nobody.
 */
async function driveInterleavedAtRate(
  sides: [Side, Side, Side],
  options: { ratePerSecond: number; requestsPerSide: number },
): Promise<[LoadFigures, LoadFigures, LoadFigures]> {
  const latencies: [number[], number[], number[]] = [[], [], []];
  const running: Promise<void>[] = [];
  const startedAt = performance.now();
  let order: number[] = [];
  for (let index = 0; index < options.requestsPerSide * sides.length; index += 1) {
    if (order.length === 0) order = shuffled([...sides.keys()]);
    const sideIndex = order.pop()!;
    const due = startedAt + (index * 1000) / options.ratePerSecond;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(sides[sideIndex]!().then(() => void latencies[sideIndex]!.push(performance.now() - due)));
  }
  await Promise.all(running);
  const seconds = (performance.now() - startedAt) / 1000;
  const [api, inProcess, alone] = latencies.map((own) => figuresOf([{ latencies: own, seconds }]));
  return [api!, inProcess!, alone!];
}

/** `values` in a random order (Fisher–Yates). */
function shuffled(values: number[]): number[] {
  const copy = [...values];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
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

async function loadWithAutocannon(
  baseUrl: string,
  scenario: LoadScenario,
  options: { connections: number; requests: number },
): Promise<LoadFigures> {
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
