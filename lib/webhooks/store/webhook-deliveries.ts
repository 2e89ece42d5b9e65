import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { DELIVERY_ITEM_PREFIX, webhookKeys } from '#lib/webhooks/store/keys';
import type { ChangeRecord } from '#lib/events/adapters/stream-records';
import { EVENT_RETENTION_DAYS } from '#lib/events/store/outbox';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from '#lib/webhooks/rules/webhook-delivery';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * The delivery log of a subscription: one item per event it was sent (or is to be sent),
 * keyed by the event ID, so the dispatcher creating it twice (a stream batch retried) changes
 * nothing. Kept as long as the events (DynamoDB TTL); it holds IDs and outcomes, no personal data.
 */

/** A delivery's item, kept as long as its event (DynamoDB TTL). */
function toDeliveryItem(delivery: WebhookDelivery): StoredItem {
  return {
    ...webhookKeys.webhookDelivery(delivery.tenantId, delivery.subscriptionId, delivery.eventId),
    ...delivery,
    expiresAt: Math.floor(Date.parse(delivery.createdAt) / 1000) + EVENT_RETENTION_DAYS * 86_400,
  };
}

const deliveryItemSchema = v.object({
  tenantId: v.string(),
  subscriptionId: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  galleryToken: v.string(),
  status: v.picklist(['pending', 'delivered', 'failed', 'gone', 'replay_requested']),
  createdAt: v.string(),
  attempts: v.number(),
  roundFailures: v.number(),
  roundStartedAt: v.optional(v.number()),
  nextAttemptAt: v.number(),
  deliveredAt: v.optional(v.string()),
  // Absent until the first attempt is logged.
  attemptLog: v.optional(
    v.array(
      v.object({
        attempt: v.number(),
        at: v.string(),
        durationMs: v.number(),
        statusCode: v.optional(v.number()),
        failure: v.optional(
          v.picklist([
            'timeout',
            'address_refused',
            'connection_failed',
            'http_status',
            'redirect',
            'endpoint_disabled',
            'url_refused',
          ]),
        ),
      }),
    ),
    [],
  ),
});

/** The delivery an item holds (a stream image or a read item); a CorruptItemError when it holds none. */
export function fromDeliveryItem(item: Record<string, unknown>): WebhookDelivery {
  return parseItem('webhook delivery', deliveryItemSchema, item);
}

/** Records a delivery to come; false when it exists already. */
export function createDelivery(delivery: WebhookDelivery): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new PutCommand({
          TableName: tableName,
          Item: toDeliveryItem(delivery),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    () => false,
  );
}

export async function getDelivery(
  tenantId: string,
  subscriptionId: string,
  eventId: string,
): Promise<WebhookDelivery | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: webhookKeys.webhookDelivery(tenantId, subscriptionId, eventId),
      ConsistentRead: true,
    }),
  );
  return Item ? fromDeliveryItem(Item) : undefined;
}

/**
 * Writes the outcome of an attempt: the new status and next attempt time, the attempt appended
 * to the log. `roundStartedAt` is set by the round's first attempt only.
 */
export async function recordAttempt(
  delivery: Pick<WebhookDelivery, 'tenantId' | 'subscriptionId' | 'eventId'>,
  outcome: {
    status: DeliveryStatus;
    attempt: DeliveryAttempt;
    nextAttemptAt: number;
    roundStartedAt: number;
    failed: boolean;
  },
): Promise<void> {
  const delivered = outcome.status === 'delivered';
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookKeys.webhookDelivery(delivery.tenantId, delivery.subscriptionId, delivery.eventId),
      UpdateExpression:
        'SET #status = :status, nextAttemptAt = :next, roundStartedAt = if_not_exists(roundStartedAt, :round), ' +
        `attemptLog = list_append(if_not_exists(attemptLog, :empty), :attempt)${delivered ? ', deliveredAt = :at' : ''} ` +
        `ADD attempts :one${outcome.failed ? ', roundFailures :one' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':next': outcome.nextAttemptAt,
        ':round': outcome.roundStartedAt,
        ':empty': [],
        ':attempt': [outcome.attempt],
        ':one': 1,
        ...(delivered ? { ':at': outcome.attempt.at } : {}),
      },
    }),
  );
}

/** Ends a delivery without an attempt: its event is gone, or its endpoint is disabled (failed, replayable). */
export async function closeDelivery(
  delivery: Pick<WebhookDelivery, 'tenantId' | 'subscriptionId' | 'eventId'>,
  status: 'gone' | 'failed',
  attempt?: DeliveryAttempt,
): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookKeys.webhookDelivery(delivery.tenantId, delivery.subscriptionId, delivery.eventId),
      UpdateExpression: `SET #status = :status${attempt ? ', attemptLog = list_append(if_not_exists(attemptLog, :empty), :attempt)' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ...(attempt ? { ':empty': [], ':attempt': [attempt] } : {}) },
    }),
  );
}

/** A pending delivery whose attempt is this overdue lost its queue message (it went to the dead-letter queue): it may be replayed. */
export const STUCK_DELIVERY_MS = 3_600_000;

/**
 * Asks for a delivery to be sent again, as a new round: the dispatcher sees the change on the
 * table's stream and queues it. False when there is no such delivery, or it is waiting already
 * (a replay asked for, or a pending attempt not yet STUCK_DELIVERY_MS overdue).
 */
export function requestReplay(tenantId: string, subscriptionId: string, eventId: string, at: number): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: webhookKeys.webhookDelivery(tenantId, subscriptionId, eventId),
          UpdateExpression: 'SET #status = :replay, nextAttemptAt = :at, roundFailures = :zero REMOVE roundStartedAt',
          ConditionExpression:
            'attribute_exists(pk) AND #status <> :replay AND (#status <> :pending OR nextAttemptAt < :stuck)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':replay': 'replay_requested',
            ':pending': 'pending',
            ':at': at,
            ':zero': 0,
            ':stuck': at - STUCK_DELIVERY_MS,
          },
        }),
      ),
    () => false,
  );
}

/** A page of a subscription's deliveries, newest first, optionally only those in `status`. */
export async function listDeliveries(
  tenantId: string,
  subscriptionId: string,
  options: { status?: DeliveryStatus; limit?: number } = {},
): Promise<WebhookDelivery[]> {
  const limit = options.limit ?? 50;
  const found: WebhookDelivery[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': webhookKeys.deliveriesOfSubscription(tenantId, subscriptionId),
          ...(options.status ? { ':status': options.status } : {}),
        },
        ...(options.status
          ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
          : {}),
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(page.Items ?? []).map(fromDeliveryItem));
    start = page.LastEvaluatedKey;
  } while (start && found.length < limit);
  return found.slice(0, limit);
}

/** A webhook delivery item (the delivery log) that a record writes; undefined for any other item. */
export function deliveryItemOfRecord(record: ChangeRecord): Record<string, unknown> | undefined {
  const image = record.newImage;
  return record.eventName !== 'REMOVE' &&
    image &&
    typeof image.sk === 'string' &&
    image.sk.startsWith(DELIVERY_ITEM_PREFIX)
    ? image
    : undefined;
}
