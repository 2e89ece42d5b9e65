import { now } from '#lib/clock';
import { type DeliveryMessage, type QueuedDelivery, QUEUE_MAX_DELAY_SECONDS, deliveryQueue } from '#lib/adapters/delivery-queue';
import { eventFromItem } from '#lib/db/events';
import { createDelivery } from '#lib/db/webhook-deliveries';
import { listSubscriptions } from '#lib/db/webhook-subscriptions';
import type { ServiceEvent } from '#lib/domain/events/event-catalogue';
import { type WebhookSubscription, subscribesTo } from '#lib/domain/events/webhook-subscription';

/**
 * The dispatcher: turns the table's change records into queued deliveries. A new event item
 * becomes one delivery per enabled subscription of its tenant that takes its type; a delivery an
 * operator asked to replay is queued again. Everything it does is idempotent (a delivery is
 * created once, a second message for it finds it handled), so a batch retried after the
 * dispatcher died half-way loses nothing and only repeats.
 */

/** A change record of the table, reduced to what the dispatcher reads (plain values). */
export interface ChangeRecord {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Record<string, any>;
}

const isEventItem = (image: Record<string, any>) => typeof image.sk === 'string' && image.sk.startsWith('EVENT#');
const isReplayRequest = (image: Record<string, any>) =>
  typeof image.sk === 'string' && image.sk.startsWith('DELIVERY#') && image.status === 'replay_requested';

/** Queues the deliveries that the records call for; throws (so the batch is retried) when the table or queue fails. */
export async function dispatchChangeRecords(records: readonly ChangeRecord[]): Promise<{ queued: number }> {
  const subscriptionsOf = new Map<string, Promise<WebhookSubscription[]>>();
  const subscriptions = (tenantId: string) => {
    let found = subscriptionsOf.get(tenantId);
    if (!found) subscriptionsOf.set(tenantId, (found = listSubscriptions(tenantId)));
    return found;
  };
  const queued: QueuedDelivery[] = [];
  const events = records.filter((record) => record.eventName === 'INSERT' && record.newImage && isEventItem(record.newImage));
  for (const record of records) {
    if (record.newImage && isReplayRequest(record.newImage)) queued.push({ message: messageOf(record.newImage as DeliveryMessage), delaySeconds: 0 });
  }
  // Deliveries are created several at a time: one after another, a batch of a big import takes seconds.
  let next = 0;
  const creator = async () => {
    while (next < events.length) {
      const image = events[next++]!.newImage!;
      queued.push(...(await deliveriesOf(eventFromItem(image), await subscriptions(image.tenantId))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DELIVERY_WRITES, events.length) }, creator));
  if (queued.length > 0) await deliveryQueue().send(queued);
  return { queued: queued.length };
}

/** Deliveries created at once by one dispatcher invocation. */
const PARALLEL_DELIVERY_WRITES = 16;

function messageOf(source: DeliveryMessage): DeliveryMessage {
  return { tenantId: source.tenantId, subscriptionId: source.subscriptionId, eventId: source.eventId, galleryToken: source.galleryToken };
}

/** Creates (once) the event's delivery to each subscription that takes it, and the messages that will make them. */
async function deliveriesOf(event: ServiceEvent, subscriptions: readonly WebhookSubscription[]): Promise<QueuedDelivery[]> {
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
    message: { tenantId: event.tenantId, subscriptionId: subscription.subscriptionId, eventId: event.eventId, galleryToken: event.galleryToken },
    delaySeconds: Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil((due - at) / 1000)),
  }));
}
