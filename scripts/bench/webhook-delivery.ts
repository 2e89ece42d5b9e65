import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { WebhookSignatureError, constructWebhookEvent } from '#lib/client/webhook-signature';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { listDeliveries } from '#lib/webhooks/store/webhook-deliveries';
import { deleteSubscription } from '#lib/webhooks/store/webhook-subscriptions';
import type { EventType } from '#lib/events/rules/event-catalogue';
import { createSubscription } from '#lib/webhooks/manage-subscriptions';
import { type LocalEventPipeline, startEventPipeline } from '../local/event-pipeline';
import { type BenchApi, createBenchGallery, importRowsFor } from './bench-api';
import type { LoadFigures } from './load';
import { percentile, rounded, timed } from './statistics';

/**
 * How long the local stream reader waits after a pass that found nothing: Lambda polls a
 * stream's shards at a base rate of four times a second, so an event written while the
 * pipeline is idle waits up to this long in AWS too. Under load every pass finds records.
 */
export const STREAM_POLL_MS = 250;

/**
 * Messages the local queue hands over at once. The stack lets the queue run 20 delivery
 * functions (WEBHOOK_DELIVERY_CONCURRENCY in infra/webhook-delivery.ts), each with up to 10
 * messages; the local queue hands over one message per invocation, so this is 20 of them. The
 * worker itself keeps the one subscription to SUBSCRIPTION_ATTEMPTS_IN_FLIGHT attempts at once.
 */
export const DELIVERY_CONCURRENCY = 20;

/** Longest wait for a scenario's events before it fails: more than the longest delay of a delivery sent back for want of a slot. */
const DELIVERY_TIMEOUT_MS = 6 * 60_000;

/** Commit-to-delivery latency: the receiver's arrival time less the event's `createdAt`. */
export interface DeliveryLatency {
  events: number;
  p50Milliseconds: number;
  p95Milliseconds: number;
  p99Milliseconds: number;
  maxMilliseconds: number;
  /** Where the time went, from the delivery log: p50 and p99 of each stage. */
  stages: {
    /** Event written → its delivery recorded by the dispatcher (the stream read included). */
    toDispatch: StageFigures;
    /** Delivery recorded → its attempt started by the worker (the queue's wait, the worker's reads). */
    toAttempt: StageFigures;
    /** Attempt started → arrival at the receiver (signing, HTTP). */
    toArrival: StageFigures;
  };
}

export interface StageFigures {
  p50Milliseconds: number;
  p99Milliseconds: number;
}

export interface WebhookDeliveryResult {
  streamPollMilliseconds: number;
  deliveryConcurrency: number;
  checkins: {
    connections: number;
    requests: number;
    /** The check-in load with nothing reading the stream (the outbox write is in every check-in all the same). */
    withoutDelivery: LoadFigures;
    /** The same load with the pipeline running and a subscription to every event type. */
    withDelivery: LoadFigures;
    /** Check-in answer latency with delivery over without. */
    answerP50Ratio: number;
    answerP99Ratio: number;
    delivery: DeliveryLatency;
    /** Delivery latency over the check-in answer latency of the same requests. */
    deliveryToAnswerP50Ratio: number;
    deliveryToAnswerP99Ratio: number;
    /** Events the check-ins wrote per second, and events verified at the receiver per second over the same start until the last arrival. */
    eventsWrittenPerSecond: number;
    eventsDeliveredPerSecond: number;
    /** From the last check-in answer to the last delivery: the backlog the load left. */
    drainMilliseconds: number;
    /** Events that arrived more than once (delivery is at least once). */
    repeatedArrivals: number;
  };
  import: {
    rows: number;
    importMilliseconds: number;
    /** From the start of the import until its last person.created event was verified at the receiver. */
    allDeliveredMilliseconds: number;
    ratio: number;
    distinctEvents: number;
    delivery: DeliveryLatency;
  };
}

/**
 * Webhook delivery through the same handlers Lambda runs (scripts/local/event-pipeline.ts),
 * to a receiver in this process that verifies every signature with the client helper:
 * (a) the load scenario's free check-ins, first with nothing reading the stream, then with the
 * pipeline and a subscription to every event, for commit-to-delivery latency beside the
 * check-in answer latency; (b) an import of `rows` persons through POST persons with a
 * subscription to person.created, timed until every event is verified. Fails unless exactly
 * the expected events arrive, each one verified.
 */
export async function measureWebhookDelivery(
  api: BenchApi,
  options: { baseUrl: string; connections: number; requests: number; rows: number },
): Promise<WebhookDeliveryResult> {
  const receiver = await startBenchReceiver();
  let pipeline: LocalEventPipeline | undefined;
  try {
    const checkin = await checkinRequest(api);
    const load = (requests: number) =>
      loadCheckins(options.baseUrl, checkin, { connections: options.connections, requests });
    await load(options.connections * 2);
    const withoutDelivery = await load(options.requests);

    // Started only now: it reads the stream from its start, so it first catches up on every earlier scenario's writes (no subscription yet, nothing to send).
    pipeline = await startEventPipeline({ pollMs: STREAM_POLL_MS, concurrency: DELIVERY_CONCURRENCY });
    await pipeline.settled();
    const checkins = await measureCheckinDelivery(api, pipeline, receiver, { ...options, load, withoutDelivery });
    return {
      streamPollMilliseconds: STREAM_POLL_MS,
      deliveryConcurrency: DELIVERY_CONCURRENCY,
      checkins,
      import: await measureImportDelivery(api, pipeline, receiver, options.rows),
    };
  } finally {
    await pipeline?.stop();
    await receiver.close();
  }
}

async function measureCheckinDelivery(
  api: BenchApi,
  pipeline: LocalEventPipeline,
  receiver: BenchReceiver,
  options: {
    connections: number;
    requests: number;
    load: (requests: number) => Promise<LoadFigures>;
    withoutDelivery: LoadFigures;
  },
): Promise<WebhookDeliveryResult['checkins']> {
  const subscriptionId = await subscribe(api, receiver, ['*']);
  await options.load(options.connections * 2);
  // The warm-up's events delivered first, so the measured ones start with no backlog and none of them is older than the start.
  await pipeline.settled();
  const startedAt = Date.now();
  const withDelivery = await options.load(options.requests);
  const endedAt = Date.now();
  // A delivery that found its tenant's attempt slots all taken went back to the queue with a
  // delay (docs/events.md#isolation): settled() does not wait for it, the receiver does.
  await receiver.waitFor(
    () => receiver.arrivals(api.demo.galleryToken, startedAt).length >= options.requests * 2,
    DELIVERY_TIMEOUT_MS,
  );
  await pipeline.settled();
  const arrivals = receiver.arrivals(api.demo.galleryToken, startedAt);
  // Each free check-in records person.created and checkin.completed.
  await expectArrivals(receiver, arrivals.length, options.requests * 2, 'check-in events', {
    tenantId: api.tenantId,
    subscriptionId,
  });
  const delivery = await deliveryLatency(arrivals, api.tenantId, subscriptionId);
  await deleteSubscription(api.tenantId, subscriptionId);
  const lastArrival = Math.max(...arrivals.map((arrival) => arrival.arrivedAt));
  const { withoutDelivery } = options;
  return {
    connections: options.connections,
    requests: options.requests,
    withoutDelivery,
    withDelivery,
    answerP50Ratio: rounded(withDelivery.p50Milliseconds / withoutDelivery.p50Milliseconds),
    answerP99Ratio: rounded(withDelivery.p99Milliseconds / withoutDelivery.p99Milliseconds),
    delivery,
    deliveryToAnswerP50Ratio: rounded(delivery.p50Milliseconds / withDelivery.p50Milliseconds),
    deliveryToAnswerP99Ratio: rounded(delivery.p99Milliseconds / withDelivery.p99Milliseconds),
    eventsWrittenPerSecond: rounded(arrivals.length / ((endedAt - startedAt) / 1000), 1),
    eventsDeliveredPerSecond: rounded(arrivals.length / ((lastArrival - startedAt) / 1000), 1),
    drainMilliseconds: Math.max(0, lastArrival - endedAt),
    repeatedArrivals: receiver.repeatedArrivals,
  };
}

async function measureImportDelivery(
  api: BenchApi,
  pipeline: LocalEventPipeline,
  receiver: BenchReceiver,
  rows: number,
): Promise<WebhookDeliveryResult['import']> {
  const gallery = await createBenchGallery(api.tenantId, 'Bench: webhook delivery of an import');
  const subscriptionId = await subscribe(api, receiver, ['person.created']);
  const apiKey = await api.freshApiKey();
  const startedAt = Date.now();
  const { result: answer, milliseconds: importMilliseconds } = await timed(() =>
    api.call(`/groupshoot/${gallery.token}/persons`, {
      method: 'POST',
      apiKey,
      body: { persons: importRowsFor(rows, gallery.dayId, 'webhooks') },
    }),
  );
  await receiver.waitFor(() => receiver.arrivals(gallery.token, startedAt).length >= rows, DELIVERY_TIMEOUT_MS);
  // Anything more (a repeat, a stranger) arrives by now.
  await pipeline.settled();
  const arrivals = receiver.arrivals(gallery.token, startedAt);
  await expectArrivals(receiver, arrivals.length, rows, 'person.created events of the import', {
    tenantId: api.tenantId,
    subscriptionId,
  });
  const personIds = new Set((answer as { persons: { personId: string }[] }).persons.map((person) => person.personId));
  const strangers = arrivals.filter(
    (arrival) => arrival.type !== 'person.created' || !personIds.has(arrival.personId ?? ''),
  );
  if (strangers.length > 0)
    throw new Error(`${strangers.length} events at the receiver were not the imported persons' person.created`);
  const allDeliveredMilliseconds = Math.max(...arrivals.map((arrival) => arrival.arrivedAt)) - startedAt;
  return {
    rows,
    importMilliseconds: rounded(importMilliseconds),
    allDeliveredMilliseconds,
    ratio: rounded(allDeliveredMilliseconds / importMilliseconds),
    distinctEvents: arrivals.length,
    delivery: await deliveryLatency(arrivals, api.tenantId, subscriptionId),
  };
}

/** The load scenario's free check-in (scripts/bench/load.ts), each one a new participant on the day without capacity. */
async function checkinRequest(api: BenchApi): Promise<autocannon.Request> {
  const { galleryToken: token, tenantSlug, shootingDayIds, packageIds } = api.demo;
  // As the load scenario does: one client plays every participant.
  const unlimited = { limit: 1_000_000, windowMs: 60_000 };
  await updateGallerySettings(api.tenantId, token, { publicLimits: { reads: unlimited, checkins: unlimited } });
  const id = '[<id>]';
  return {
    method: 'POST',
    path: '/v1/group-shoot',
    headers: { 'X-Tenant-Slug': tenantSlug, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      action: 'submitCheckin',
      token,
      name: `Webhook Checkin ${id}`,
      email: `webhook-${id}@example.com`,
      employeeId: `webhook-${id}`,
      consentGiven: true,
      shootingDayId: shootingDayIds[2]!,
      selectedPackageId: packageIds.free,
    }),
  };
}

/** autocannon in a worker thread, set up as the load scenario sets it up; any answer that is not 2xx fails the run. */
async function loadCheckins(
  baseUrl: string,
  request: autocannon.Request,
  options: { connections: number; requests: number },
): Promise<LoadFigures> {
  const result = await autocannon({
    url: new URL(baseUrl).origin,
    connections: options.connections,
    amount: options.requests,
    requests: [request],
    idReplacement: true,
    workers: 1,
    sampleInt: 10,
    timeout: 30,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `Check-ins under webhook delivery: ${result.non2xx} answers were not 2xx and ${result.errors} requests failed`,
    );
  }
  return {
    p50Milliseconds: result.latency.p50,
    p99Milliseconds: result.latency.p99,
    requestsPerSecond: rounded(result.requests.total / result.duration, 1),
  };
}

/** A subscription of the demo tenant to `eventTypes` at the receiver, which then verifies with its secret. */
async function subscribe(api: BenchApi, receiver: BenchReceiver, eventTypes: (EventType | '*')[]): Promise<string> {
  const tenant = { tenantId: api.tenantId, slug: api.demo.tenantSlug };
  const { subscription, secret } = await createSubscription({
    tenant,
    url: receiver.url,
    eventTypes,
    description: 'Bench receiver',
  });
  receiver.secret = secret;
  return subscription.subscriptionId;
}

/** Throws unless `expected` events arrived and none was refused, with what the delivery log says of them. */
async function expectArrivals(
  receiver: BenchReceiver,
  arrived: number,
  expected: number,
  what: string,
  log: { tenantId: string; subscriptionId: string },
): Promise<void> {
  if (receiver.refused === 0 && arrived === expected) return;
  const outcomes = new Map<string, number>();
  for (const delivery of await listDeliveries(log.tenantId, log.subscriptionId, { limit: 100_000 })) {
    const failures = delivery.attemptLog.filter((attempt) => attempt.failure).map((attempt) => attempt.failure);
    const outcome = failures.length > 0 ? `${delivery.status} after ${failures.join(', ')}` : delivery.status;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  const summary = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join('; ');
  throw new Error(
    `Expected ${expected} ${what} at the receiver: ${arrived} distinct ones arrived, ${receiver.refused} refused (signature); delivery log: ${summary}`,
  );
}

/** The arrivals' latencies, and their stages from the subscription's delivery log (first attempts). */
async function deliveryLatency(
  arrivals: readonly Arrival[],
  tenantId: string,
  subscriptionId: string,
): Promise<DeliveryLatency> {
  const latencies = arrivals.map((arrival) => arrival.arrivedAt - arrival.createdAt);
  const deliveries = new Map(
    (await listDeliveries(tenantId, subscriptionId, { limit: arrivals.length * 2 })).map((delivery) => [
      delivery.eventId,
      delivery,
    ]),
  );
  const stages = arrivals.map((arrival) => {
    const delivery = deliveries.get(arrival.eventId);
    const attemptedAt = delivery?.attemptLog[0]?.at;
    if (!delivery || !attemptedAt) throw new Error(`No attempt of ${arrival.eventId} in the delivery log`);
    const [dispatchedAt, startedAt] = [Date.parse(delivery.createdAt), Date.parse(attemptedAt)];
    return {
      toDispatch: dispatchedAt - arrival.createdAt,
      toAttempt: startedAt - dispatchedAt,
      toArrival: arrival.arrivedAt - startedAt,
    };
  });
  const stage = (name: keyof (typeof stages)[number]): StageFigures => {
    const values = stages.map((row) => row[name]);
    return { p50Milliseconds: percentile(values, 50), p99Milliseconds: percentile(values, 99) };
  };
  return {
    events: latencies.length,
    p50Milliseconds: percentile(latencies, 50),
    p95Milliseconds: percentile(latencies, 95),
    p99Milliseconds: percentile(latencies, 99),
    maxMilliseconds: Math.max(...latencies),
    stages: { toDispatch: stage('toDispatch'), toAttempt: stage('toAttempt'), toArrival: stage('toArrival') },
  };
}

/** An event's first verified arrival, in epoch milliseconds, the clock its `createdAt` was taken from. */
interface Arrival {
  eventId: string;
  type: string;
  galleryToken: string;
  personId?: string;
  createdAt: number;
  arrivedAt: number;
}

interface BenchReceiver {
  readonly url: string;
  secret: string;
  refused: number;
  repeatedArrivals: number;
  /** The events of `galleryToken` created at or after `since` that have arrived so far. */
  arrivals(galleryToken: string, since: number): Arrival[];
  waitFor(done: () => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * An integrator's endpoint: notes the arrival time as soon as the body is read, then verifies
 * the signature with the typed client's helper, as a receiver should before trusting anything.
 * It keeps idle connections for two minutes, as load balancers do (an ALB one minute): with
 * Node's default of 5 s, a busy machine's event loop can hand the worker a pooled connection
 * the receiver is closing, and that attempt fails (ECONNRESET) and waits 30 s for its retry.
 */
async function startBenchReceiver(): Promise<BenchReceiver> {
  const firstArrivals = new Map<string, Arrival>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      try {
        const event = constructWebhookEvent(
          Buffer.concat(chunks),
          request.headers['groupshoot-signature'] as string | undefined,
          receiver.secret,
        );
        if (firstArrivals.has(event.id)) receiver.repeatedArrivals += 1;
        else {
          const personId = (event.data as { personId?: string } | null)?.personId;
          firstArrivals.set(event.id, {
            eventId: event.id,
            type: event.type,
            galleryToken: event.galleryToken,
            personId,
            createdAt: Date.parse(event.createdAt),
            arrivedAt,
          });
        }
        response.writeHead(200).end();
      } catch (error) {
        receiver.refused += 1;
        response.writeHead(400).end(error instanceof WebhookSignatureError ? error.code : 'not_json');
      }
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: BenchReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    secret: '',
    refused: 0,
    repeatedArrivals: 0,
    arrivals: (galleryToken, since) =>
      [...firstArrivals.values()].filter(
        (arrival) => arrival.galleryToken === galleryToken && arrival.createdAt >= since,
      ),
    async waitFor(done, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`The receiver still waited after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
