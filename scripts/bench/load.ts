import { randomInt, randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as DocumentCommands from '@aws-sdk/lib-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { DOCUMENT_TRANSLATION, DYNAMODB_CLIENT_CONFIG } from '#lib/platform/table/client';
import { checkinKeys } from '#lib/checkin/store/keys';
import { galleryKeys } from '#lib/galleries/store/keys';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { newPersonId } from '#lib/persons/rules/person-model';
import { UNLIMITED_DAY_SHARDS } from '#lib/galleries/rules/spot-counters';
import { inProcessApi } from '../local/api-server';
import { type BenchApi, demoCheckin } from './bench-api';
import type { RecordedWork, RoundTripCounter } from './round-trip-counter';
import { loadFiguresOf, rounded, startAtRate, timed } from './statistics';

/** One request of a scenario: `[<id>]` in its body becomes a fresh ID each time it is sent. */
export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

type Side = () => Promise<unknown>;

/**
 * The steady load's rate, both sides together, as a share of what the DynamoDB work alone
 * sustained saturated: a busy thread, not an overloaded one, whose latency would be mostly
 * queueing behind the other simulated instances' CPU, which Lambda instances never do.
 */
const STEADY_SHARE = 0.4;
/** Turns each side takes under the saturating load, each its share of the requests. */
const ALTERNATING_ROUNDS = 8;
/** Unmeasured requests per connection before the measured ones: enough for V8 to have compiled the hot paths. */
const WARM_UP_REQUESTS_PER_CONNECTION = 20;

/**
 * Each scenario's requests given to its functions in this process against the same requests'
 * DynamoDB work alone (one sample's calls, recorded, replayed): first saturating, in turns, then
 * steady, interleaved (the goal's measure); the method is in docs/benchmarks/load.md. Any answer
 * that is not 2xx invalidates the run.
 */
export async function measureLoad(
  api: BenchApi,
  counter: RoundTripCounter,
  options: { connections: number; requests: number; keys: number },
) {
  const replayClient = DynamoDBDocumentClient.from(new DynamoDBClient(DYNAMODB_CLIENT_CONFIG), DOCUMENT_TRANSLATION);
  const invoke = functionsInProcess(api.baseUrl);
  const results = [];
  try {
    for (const scenario of await loadScenarios(api, options.keys)) {
      let next = 0;
      const invokeFunction = () => invoke(scenario.requests[next++ % scenario.requests.length]!);
      await invokeFunction(); // so that the sample records a warm instance's work
      const { result: body, work } = await counter.measure(() => invoke(scenario.sample));
      const rewriteFor = scenario.freshen?.(JSON.parse(String(body)));
      const replay = () => replayWork(replayClient, work, rewriteFor?.());
      const sides: Side[] = [invokeFunction, replay];
      // An unmeasured round of each first: connections opened, code paths compiled.
      const warmUp = options.connections * WARM_UP_REQUESTS_PER_CONNECTION;
      for (const side of sides) await driveLoad(side, options.connections, warmUp);
      // In turns, so that the machine's drift weighs on both sides alike.
      const rounds = sides.map(() => ({ latencies: [] as number[], seconds: 0 }));
      const turn = Math.ceil(options.requests / ALTERNATING_ROUNDS);
      for (let round = 0; round < ALTERNATING_ROUNDS; round += 1) {
        for (const [index, side] of sides.entries()) {
          const { latencies, seconds } = await driveLoad(side, options.connections, turn);
          rounds[index]!.latencies.push(...latencies);
          rounds[index]!.seconds += seconds;
        }
      }
      const [inProcessSaturated, aloneSaturated] = rounds.map((own) => loadFiguresOf(own.latencies, own.seconds));
      const arrivalRatePerSecond = rounded(aloneSaturated!.requestsPerSecond * STEADY_SHARE, 1);
      const [inProcessSteady, aloneSteady] = await driveInterleavedAtRate(sides, {
        ratePerSecond: arrivalRatePerSecond,
        requestsPerSide: options.requests,
      });
      results.push({
        scenario: scenario.scenario,
        connections: options.connections,
        requests: options.requests,
        /** The steady load, both sides interleaved: requests started at this rate whatever the answers. */
        arrivalRatePerSecond,
        functionsInProcess: inProcessSteady!,
        dynamoDbAlone: aloneSteady!,
        saturated: { functionsInProcess: inProcessSaturated!, dynamoDbAlone: aloneSaturated! },
        p50Ratio: rounded(inProcessSteady!.p50Milliseconds / aloneSteady!.p50Milliseconds),
        p99Ratio: rounded(inProcessSteady!.p99Milliseconds / aloneSteady!.p99Milliseconds),
        /** Saturated: the DynamoDB work alone's requests per second over the functions'. */
        throughputRatio: rounded(aloneSaturated!.requestsPerSecond / inProcessSaturated!.requestsPerSecond),
      });
    }
  } finally {
    replayClient.destroy();
  }
  return results;
}

/**
 * What a check-in writes that is the participant's own besides the person and code (its email's
 * count, its events' IDs, the marks that make a resent write harmless) and the day's counter it
 * took: each replay gets new ones, so that its writes count instead of being refused as repeats.
 */
const EMAIL_KEY = /#EMAIL#[A-Za-z0-9_-]+/g;
const EVENT_ID = /evt_[0-9A-Za-z]{26}/g;
const WRITE_MARK = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const SPOT_COUNTER = /#SPOTS#\d{2}/g;
/** The part of `key` from its last `#` but one: `#EMAIL#<key>` of an email's count, `#SPOTS#<nn>` of a day's counter. */
const lastTwoParts = (key: string) => key.slice(key.lastIndexOf('#', key.lastIndexOf('#') - 1));
const freshEmailKey = () => lastTwoParts(checkinKeys.emailCheckins('t', 'g', randomUUID()).pk);
const freshSpotCounter = () =>
  lastTwoParts(galleryKeys.daySpotShard('t', 'g', 'd', randomInt(UNLIMITED_DAY_SHARDS)).sk);

/**
 * Sends a scenario's requests to the functions in process, as Lambda invokes them (the local
 * server's routing and event, without the socket); the answer's body. Throws unless it is 2xx.
 */
export function functionsInProcess(baseUrl: string): (request: LoadRequest) => Promise<string | undefined> {
  const functions = inProcessApi();
  const host = new URL(baseUrl).host;
  return async ({ method, path, headers, body }) => {
    const lowerCased = Object.entries({ host, ...headers }).map(
      ([name, value]) => [name.toLowerCase(), value] as const,
    );
    const fresh = body?.replaceAll('[<id>]', randomUUID());
    const answer = await functions({ method, path, headers: Object.fromEntries(lowerCased), body: fresh });
    const status = answer.statusCode ?? 200;
    if (status < 200 || status >= 300) throw new Error(`${method} ${path}: an answer was ${status}`);
    return answer.body;
  };
}

/**
 * The demo gallery's public limits raised, so that one load client may play every participant.
 * Not higher: at 10,000 a minute (one every 6 ms) the counter stays ahead of the clock, each
 * request one write; at a million (0.06 ms) it idles, and requests that meet write twice.
 */
export async function raiseDemoLimits(api: BenchApi): Promise<void> {
  const raised = { limit: 10_000, windowMs: 60_000 };
  await updateGallerySettings(api.tenantId, api.demo.galleryToken, {
    publicLimits: { reads: raised, checkins: raised },
  });
}

/** A check-in with `body` to the tenant `tenantSlug` as a load request (`[<id>]` in it: a new participant each time it is sent). */
export function checkinRequest(tenantSlug: string, body: object) {
  return {
    method: 'POST' as const,
    path: '/v1/group-shoot',
    headers: { 'X-Tenant-Slug': tenantSlug, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/**
 * Each scenario's requests, which the load cycles through; a `sample` like them, whose DynamoDB work
 * is recorded; and for one whose requests write new items, `freshen`: given the sample's answer, a
 * rewrite of the recorded inputs per replay, so that each replay writes new items too.
 */
async function loadScenarios(api: BenchApi, keyCount: number) {
  const { galleryToken: token, tenantSlug } = api.demo;
  await raiseDemoLimits(api);
  const apiKeys = await Promise.all(Array.from({ length: keyCount }, () => api.freshApiKey()));
  // Made before the sample, so that the recording holds the request's work and not the key's creation.
  const sampleKey = await api.freshApiKey();
  const headers = { 'X-Tenant-Slug': tenantSlug };
  const personsRead = (key: string) => ({
    method: 'GET',
    path: `/v1/groupshoot/${token}/persons`,
    headers: { ...headers, Authorization: `Bearer ${key}` },
  });
  const sampleParticipant = `sample-${Date.now()}`;
  const checkinInfo = { method: 'GET', path: `/v1/group-shoot/checkin/${token}`, headers };
  return [
    { scenario: 'GET check-in info (public)', requests: [checkinInfo], sample: checkinInfo },
    {
      scenario: `GET persons (server-side, ${keyCount} keys)`,
      requests: apiKeys.map(personsRead),
      sample: personsRead(sampleKey),
    },
    {
      scenario: 'POST /group-shoot submitCheckin (free)',
      requests: [checkinRequest(tenantSlug, demoCheckin(api.demo, '[<id>]'))],
      sample: checkinRequest(tenantSlug, demoCheckin(api.demo, sampleParticipant)),
      freshen: (answer: unknown) => {
        const { personId, code } = answer as { personId: string; code: string };
        return (): ((text: string) => string) => {
          // Each value of the sample gets one new value per replay, wherever it occurs.
          const freshIds = new Map<string, string>();
          const freshFor = (id: string, make: () => string) => freshIds.get(id) ?? freshIds.set(id, make()).get(id)!;
          return (text) =>
            text
              .replaceAll(personId, freshFor(personId, newPersonId))
              .replaceAll(code, freshFor(code, generateAccessCode))
              .replaceAll(
                sampleParticipant,
                freshFor(sampleParticipant, () => `replay-${randomUUID()}`),
              )
              .replace(EMAIL_KEY, (key) => freshFor(key, freshEmailKey))
              .replace(EVENT_ID, (id) => freshFor(id.toLowerCase(), () => `evt_${newPersonId().slice('per_'.length)}`))
              .replace(WRITE_MARK, (mark) => freshFor(mark, randomUUID))
              .replace(SPOT_COUNTER, (counter) => freshFor(counter, freshSpotCounter));
        };
      },
    },
  ];
}

/** `requests` calls of `send`, `connections` at a time, each timed from start to answer. */
export async function driveLoad(send: Side, connections: number, requests: number) {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < requests) {
      started += 1;
      latencies.push((await timed(send)).milliseconds);
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { latencies, seconds: (performance.now() - startedAt) / 1000 };
}

/**
 * `requestsPerSide` requests of each side started at a fixed total rate whatever the answers,
 * each run of one request per side in a random order, so that a stall of the machine meets every
 * side alike; each timed from when it was due (startAtRate).
 */
async function driveInterleavedAtRate(sides: Side[], options: { ratePerSecond: number; requestsPerSide: number }) {
  const latencies: number[][] = sides.map(() => []);
  let notYetInRun: number[] = [];
  const seconds = await startAtRate(options.requestsPerSide * sides.length, options.ratePerSecond, async (_, due) => {
    if (notYetInRun.length === 0) notYetInRun = [...sides.keys()];
    const sideIndex = notYetInRun.splice(randomInt(notYetInRun.length), 1)[0]!;
    await sides[sideIndex]!();
    latencies[sideIndex]!.push(performance.now() - due);
  });
  return latencies.map((own) => loadFiguresOf(own, seconds));
}

/**
 * Sends recorded work again, wave by wave, the calls of a wave together, each input's strings
 * through `rewrite`. A refused condition is DynamoDB work done, like the functions' own refusals.
 */
async function replayWork(client: DynamoDBDocumentClient, work: RecordedWork, rewrite?: (text: string) => string) {
  for (const wave of work) {
    await Promise.all(
      wave.map(async (call) => {
        // The low-level name the counter saw (`GetItemCommand`, `TransactWriteItemsCommand`) to the document command's.
        const name = call.command.replace(/Items?Command$/, 'Command') as keyof typeof DocumentCommands;
        const Command = DocumentCommands[name] as unknown as new (input: unknown) => DocumentCommands.GetCommand;
        const input = (rewrite ? rewriteStrings(call.input, rewrite) : call.input) as Record<string, unknown>;
        // A transaction's token makes a resend within 10 minutes a no-op: each replay is new work.
        if (input.ClientRequestToken) input.ClientRequestToken = randomUUID();
        await client.send(new Command(input)).catch((error: Error) => {
          if (error.name !== 'ConditionalCheckFailedException' && error.name !== 'TransactionCanceledException')
            throw error;
        });
      }),
    );
  }
}

function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((element) => rewriteStrings(element, rewrite));
  if (value instanceof Set) return new Set([...value].map((element) => rewriteStrings(element, rewrite)));
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, rewriteStrings(element, rewrite)]));
  }
  return value;
}
