import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSignatureError, constructWebhookEvent } from '#lib/client/webhook-signature';
import { listDeliveries } from '#lib/webhooks/store/webhook-deliveries';
import { deleteSubscription } from '#lib/webhooks/store/webhook-subscriptions';
import type { EventType } from '#lib/events/rules/event-catalogue';
import { createSubscription } from '#lib/webhooks/manage-subscriptions';
import { type LocalEventPipeline, startEventPipeline } from '../local/event-pipeline';
import { WEBHOOK_DELIVERY_BATCH_SIZE, WEBHOOK_DELIVERY_CONCURRENCY } from '../../infra/webhook-delivery';
import { type BenchApi, createBenchGallery, demoCheckin } from './bench-api';
import { checkinRequest, driveLoad, functionsInProcess, raiseDemoLimits } from './load';
import { latencyPercentiles, loadFiguresOf, percentile, rounded, timed } from './statistics';

/** The stream reader's wait after a pass that found nothing: Lambda polls a stream's shards four times a second. */
const STREAM_POLL_MS = 250;
/** Longest wait for a scenario's events: more than the longest delay of a delivery sent back for want of a slot. */
const DELIVERY_TIMEOUT_MS = 6 * 60_000;

export type WebhookDeliveryResult = Awaited<ReturnType<typeof measureWebhookDelivery>>;

/**
 * Webhook delivery through the handlers Lambda runs (scripts/local/event-pipeline.ts) to a
 * receiver that verifies every signature, under the load's free check-ins and for an import
 * (docs/benchmarks/webhook-delivery.md). Fails unless exactly the expected events arrive.
 */
export async function measureWebhookDelivery(
  api: BenchApi,
  options: { connections: number; requests: number; rows: number },
) {
  const receiver = await startReceiver();
  let pipeline: LocalEventPipeline | undefined;
  try {
    await raiseDemoLimits(api);
    const invoke = functionsInProcess(api.baseUrl);
    const checkin = checkinRequest(api.demo.tenantSlug, demoCheckin(api.demo, '[<id>]'));
    const load = async (requests: number) => {
      const { latencies, seconds } = await driveLoad(() => invoke(checkin), options.connections, requests);
      return loadFiguresOf(latencies, seconds);
    };
    await load(options.connections * 2);
    // The check-ins with nothing reading the stream (each writes its events all the same: the outbox).
    const withoutDelivery = await load(options.requests);
    // Started only now: it reads the stream from its start, so it first catches up on every earlier scenario's writes.
    pipeline = await startEventPipeline({ pollMs: STREAM_POLL_MS });
    await pipeline.settled();

    // Each free check-in records person.created and checkin.completed.
    let subscriptionId = await subscribe(api, receiver, ['*']);
    await load(options.connections * 2);
    // The warm-up's events delivered first, so that the measured ones start with no backlog.
    await pipeline.settled();
    const startedAt = Date.now();
    const withDelivery = await load(options.requests);
    const endedAt = Date.now();
    const checkinArrivals = await arrivalsOf(api, receiver, pipeline, subscriptionId, {
      galleryToken: api.demo.galleryToken,
      since: startedAt,
      expected: options.requests * 2,
    });
    const lastArrival = Math.max(...checkinArrivals.map((arrival) => arrival.arrivedAt));
    const firstArrival = Math.min(...checkinArrivals.map((arrival) => arrival.arrivedAt));
    const checkinDelivery = await deliveryLatency(checkinArrivals, api.tenantId, subscriptionId);
    await deleteSubscription(api.tenantId, subscriptionId);

    const gallery = await createBenchGallery(api.tenantId, 'Bench: webhook delivery of an import');
    subscriptionId = await subscribe(api, receiver, ['person.created']);
    const apiKey = await api.freshApiKey();
    const importStartedAt = Date.now();
    const { result: answer, milliseconds: importMilliseconds } = await timed(() =>
      api.importPersons(apiKey, gallery, options.rows, 'webhooks'),
    );
    const importArrivals = await arrivalsOf(api, receiver, pipeline, subscriptionId, {
      galleryToken: gallery.token,
      since: importStartedAt,
      expected: options.rows,
    });
    const personIds = new Set((answer as { persons: { personId: string }[] }).persons.map((person) => person.personId));
    if (importArrivals.some((arrival) => arrival.type !== 'person.created' || !personIds.has(arrival.personId ?? '')))
      throw new Error("Events at the receiver were not the imported persons' person.created");
    const allDeliveredMilliseconds = Math.max(...importArrivals.map((arrival) => arrival.arrivedAt)) - importStartedAt;
    return {
      streamPollMilliseconds: STREAM_POLL_MS,
      deliveryFunctions: WEBHOOK_DELIVERY_CONCURRENCY,
      deliveryBatchSize: WEBHOOK_DELIVERY_BATCH_SIZE,
      checkins: {
        connections: options.connections,
        requests: options.requests,
        withoutDelivery,
        withDelivery,
        answerP50Ratio: rounded(withDelivery.p50Milliseconds / withoutDelivery.p50Milliseconds),
        answerP99Ratio: rounded(withDelivery.p99Milliseconds / withoutDelivery.p99Milliseconds),
        delivery: checkinDelivery,
        /** Each stage's rate over its own span: the load's, and first to last arrival (the latency is `delivery`'s). */
        eventsWrittenPerSecond: rounded(checkinArrivals.length / ((endedAt - startedAt) / 1000), 1),
        eventsDeliveredPerSecond: rounded(checkinArrivals.length / ((lastArrival - firstArrival) / 1000), 1),
        /** From the last check-in answer to the last delivery: the backlog the load left. */
        drainMilliseconds: Math.max(0, lastArrival - endedAt),
        /** Events that arrived more than once (delivery is at least once). */
        repeatedArrivals: receiver.repeatedArrivals,
      },
      import: {
        rows: options.rows,
        importMilliseconds: rounded(importMilliseconds),
        allDeliveredMilliseconds,
        ratio: rounded(allDeliveredMilliseconds / importMilliseconds),
        distinctEvents: importArrivals.length,
        delivery: await deliveryLatency(importArrivals, api.tenantId, subscriptionId),
      },
    };
  } finally {
    await pipeline?.stop();
    await receiver.close();
  }
}

/** A subscription of the demo tenant to `eventTypes` at the receiver, which then verifies with its secret. */
async function subscribe(api: BenchApi, receiver: Receiver, eventTypes: (EventType | '*')[]): Promise<string> {
  const tenant = { tenantId: api.tenantId, slug: api.demo.tenantSlug };
  const { subscription, secret } = await createSubscription({ tenant, url: receiver.url, eventTypes });
  receiver.secret = secret;
  return subscription.subscriptionId;
}

/**
 * The events of the gallery created since `since` once `expected` of them arrived: waited for at
 * the receiver, as settled() does not wait for a delivery sent back to the queue with a delay.
 * Throws unless exactly `expected` arrived and none was refused, with the delivery log's outcomes.
 */
async function arrivalsOf(
  api: BenchApi,
  receiver: Receiver,
  pipeline: LocalEventPipeline,
  subscriptionId: string,
  { galleryToken, since, expected }: { galleryToken: string; since: number; expected: number },
): Promise<Arrival[]> {
  const arrived = () => receiver.arrivals.filter((a) => a.galleryToken === galleryToken && a.createdAt >= since);
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (arrived().length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  // Anything more (a repeat, a stranger) arrives by now.
  await pipeline.settled();
  const arrivals = arrived();
  if (receiver.refused === 0 && arrivals.length === expected) return arrivals;
  const outcomes = new Map<string, number>();
  for (const delivery of await listDeliveries(api.tenantId, subscriptionId, { limit: 100_000 })) {
    const failures = delivery.attemptLog.flatMap((attempt) => (attempt.failure ? [attempt.failure] : []));
    const outcome = failures.length > 0 ? `${delivery.status} after ${failures.join(', ')}` : delivery.status;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  const log = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join('; ');
  throw new Error(
    `Expected ${expected} events at the receiver: ${arrivals.length} arrived, ${receiver.refused} refused (signature); delivery log: ${log}`,
  );
}

/** Commit to verified arrival (the arrival time less the event's `createdAt`), and its stages from the delivery log's first attempts. */
async function deliveryLatency(arrivals: readonly Arrival[], tenantId: string, subscriptionId: string) {
  const log = await listDeliveries(tenantId, subscriptionId, { limit: arrivals.length * 2 });
  const deliveries = new Map(log.map((delivery) => [delivery.eventId, delivery]));
  const stages = arrivals.map((arrival) => {
    const delivery = deliveries.get(arrival.eventId);
    const attemptedAt = delivery?.attemptLog[0]?.at;
    if (!delivery || !attemptedAt) throw new Error(`No attempt of ${arrival.eventId} in the delivery log`);
    const [dispatchedAt, startedAt] = [Date.parse(delivery.createdAt), Date.parse(attemptedAt)];
    // Written → delivery recorded (stream read, dispatcher) → attempt started (queue, worker reads) → arrived (signing, HTTP).
    return {
      toDispatch: dispatchedAt - arrival.createdAt,
      toAttempt: startedAt - dispatchedAt,
      toArrival: arrival.arrivedAt - startedAt,
    };
  });
  const stage = (name: 'toDispatch' | 'toAttempt' | 'toArrival') => latencyPercentiles(stages.map((row) => row[name]));
  const latencies = arrivals.map((arrival) => arrival.arrivedAt - arrival.createdAt);
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

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * An integrator's endpoint: notes the arrival time as soon as the body is read, then verifies
 * the signature with the typed client's helper. It keeps idle connections for two minutes, as
 * load balancers do: with Node's default of 5 s, a busy machine's event loop can hand the worker
 * a pooled connection the receiver is closing, and that attempt waits 30 s for its retry.
 */
async function startReceiver() {
  const seen = new Set<string>();
  const receiver = { url: '', secret: '', refused: 0, repeatedArrivals: 0, arrivals: [] as Arrival[], close };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      try {
        const signature = request.headers['groupshoot-signature'] as string | undefined;
        const event = constructWebhookEvent(Buffer.concat(chunks), signature, receiver.secret);
        const { id: eventId, type, galleryToken } = event;
        const personId = (event.data as { personId?: string } | null)?.personId;
        const createdAt = Date.parse(event.createdAt);
        if (seen.has(eventId)) receiver.repeatedArrivals += 1;
        else receiver.arrivals.push({ eventId, type, galleryToken, personId, createdAt, arrivedAt });
        seen.add(eventId);
        response.writeHead(200).end();
      } catch (error) {
        receiver.refused += 1;
        response.writeHead(400).end(error instanceof WebhookSignatureError ? error.code : 'not_json');
      }
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  function close() {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return receiver;
}
