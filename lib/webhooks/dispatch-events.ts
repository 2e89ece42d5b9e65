import { now } from '#lib/platform/clock';
import {
  type DeliveryMessage,
  type QueuedDelivery,
  QUEUE_MAX_DELAY_SECONDS,
  deliveryQueue,
} from '#lib/webhooks/adapters/delivery-queue';
import { type ChangeRecord, eventOfRecord } from '#lib/events/adapters/stream-records';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { createDelivery, deliveryItemOfRecord, fromDeliveryItem } from '#lib/webhooks/store/webhook-deliveries';
import { listSubscriptions } from '#lib/webhooks/store/webhook-subscriptions';
import type { ServiceEvent } from '#lib/events/rules/event-catalogue';
import { type WebhookSubscription, subscribesTo } from '#lib/webhooks/rules/webhook-subscription';

/**
 * The dispatcher: turns the table's change records into queued deliveries. A new event item
 * becomes one delivery per enabled subscription of its tenant that takes its type; a delivery an
 * operator asked to replay is queued again. Everything it does is idempotent (a delivery is
 * created once, a second message for it finds it handled), so a batch retried after the
 * dispatcher died half-way loses nothing and only repeats.
 */

/** Queues the deliveries that the records call for; throws (so the batch is retried) when the table or queue fails. */
export async function dispatchChangeRecords(records: readonly ChangeRecord[]): Promise<{ queued: number }> {
  const subscriptionsOf = new Map<string, Promise<WebhookSubscription[]>>();
  const subscriptions = (tenantId: string) => {
    let found = subscriptionsOf.get(tenantId);
    if (!found) subscriptionsOf.set(tenantId, (found = listSubscriptions(tenantId)));
    return found;
  };
  const queued: QueuedDelivery[] = [];
  const events = records
    .filter((record) => record.eventName === 'INSERT')
    .flatMap((record) => eventOfRecord(record) ?? []);
  for (const record of records) {
    const item = deliveryItemOfRecord(record);
    const delivery = item && fromDeliveryItem(item);
    if (delivery?.status === 'replay_requested') queued.push({ message: messageOf(delivery), delaySeconds: 0 });
  }
  // Deliveries are created several at a time: one after another, a batch of a big import takes seconds.
  const created = await mapWithConcurrency(events, PARALLEL_DELIVERY_WRITES, async (event) =>
    deliveriesOf(event, await subscriptions(event.tenantId)),
  );
  queued.push(...created.flat());
  if (queued.length > 0) await deliveryQueue().send(queued);
  return { queued: queued.length };
}

/** Deliveries created at once by one dispatcher invocation. */
const PARALLEL_DELIVERY_WRITES = 16;

function messageOf(source: DeliveryMessage): DeliveryMessage {
  return {
    tenantId: source.tenantId,
    subscriptionId: source.subscriptionId,
    eventId: source.eventId,
    galleryToken: source.galleryToken,
  };
}

/** Creates (once) the event's delivery to each subscription that takes it, and the messages that will make them. */
async function deliveriesOf(
  event: ServiceEvent,
  subscriptions: readonly WebhookSubscription[],
): Promise<QueuedDelivery[]> {
  const at = now();
  const due = Math.max(at, event.deliverAfter ?? at);
  const takers = subscriptions.filter((subscription) => subscribesTo(subscription, event.type));
  await Promise.all(
    takers.map((subscription) =>
      createDelivery({
        tenantId: event.tenantId,
        subscriptionId: subscription.subscriptionId,
        eventId: event.eventId,
        eventType: event.type,
        galleryToken: event.galleryToken,
        status: 'pending',
        createdAt: new Date(at).toISOString(),
        attempts: 0,
        roundFailures: 0,
        nextAttemptAt: due,
        attemptLog: [],
      }),
    ),
  );
  // Queued even where the delivery existed: a retried batch may be retried because the send failed.
  return takers.map((subscription) => ({
    message: {
      tenantId: event.tenantId,
      subscriptionId: subscription.subscriptionId,
      eventId: event.eventId,
      galleryToken: event.galleryToken,
    },
    delaySeconds: Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil((due - at) / 1000)),
  }));
}
