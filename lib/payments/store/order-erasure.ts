import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { deleteItems } from '#lib/platform/table/batches';
import { ORDER_ITEM_PREFIX, paymentKeys } from '#lib/payments/store/keys';
import { withStoreRetries } from '#lib/platform/table/retry';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type PageVisitor, forEachPartitionPage } from '#lib/platform/table/query-pages';
import {
  type ParticipantIdentity,
  deleteOrderPointers,
  orderIdsOfParticipants,
} from '#lib/payments/store/order-pointers';

/** Orders as erasure and retention (lib/privacy) read and redact them. */

const participantText = v.optional(v.nullable(v.string()), null);

/**
 * An order as erasure and retention read it. Loose: redaction removes every attribute but the
 * accounting ones (lib/privacy/rules/personal-data.ts), so each attribute the item has must stay
 * in view, whatever this schema knows of. A redacted order has no `person` any more.
 */
const erasableOrderSchema = v.looseObject({
  pk: v.string(),
  sk: v.string(),
  orderId: v.string(),
  tenantId: v.string(),
  galleryToken: v.string(),
  status: v.string(),
  createdAt: v.string(),
  person: v.optional(
    v.looseObject({
      personId: v.string(),
      email: participantText,
      employeeId: participantText,
      hasSelfie: v.optional(v.boolean()),
    }),
  ),
  tokenHashes: v.optional(v.array(v.string())),
});

export type ErasableOrder = v.InferOutput<typeof erasableOrderSchema>;

/** An order erasure has not redacted yet: it still names its participant. */
export type OrderWithParticipant = ErasableOrder & { person: NonNullable<ErasableOrder['person']> };

/** An order as erasure reads it; a CorruptItemError when the item holds no order. */
export function fromErasableOrderItem(item: StoredItem): ErasableOrder {
  return parseItem('order', erasableOrderSchema, item);
}

/** Whether the order still names its participant. */
export function hasParticipant(order: ErasableOrder): order is OrderWithParticipant {
  return order.person !== undefined;
}

/** Every order of a gallery, as stored, `pageSize` at a time (erasure and retention of a whole gallery). */
export function forEachOrderPage(
  scope: GalleryScope,
  pageSize: number,
  visit: PageVisitor<ErasableOrder>,
): Promise<void> {
  return forEachPartitionPage(
    paymentKeys.ordersOfGallery(scope.tenantId, scope.token),
    pageSize,
    (items) => visit(items.map(fromErasableOrderItem)),
    { skPrefix: ORDER_ITEM_PREFIX },
  );
}

/**
 * The orders of these participants (by person ID, address or employee ID), as stored now and
 * strongly consistent, through their pointers (lib/payments/store/order-pointers.ts): erasure of
 * a person reads these alone, not every order of the gallery. Orders reserved before the
 * pointers existed are found once `pointOrdersToParticipants` has run over the gallery.
 */
export async function ordersOfParticipants(
  scope: GalleryScope,
  participants: readonly ParticipantIdentity[],
): Promise<ErasableOrder[]> {
  const orderIds = await orderIdsOfParticipants(scope, participants);
  const orders: ErasableOrder[] = [];
  for (let start = 0; start < orderIds.length; start += BATCH_GET_SIZE) {
    let keys = orderIds
      .slice(start, start + BATCH_GET_SIZE)
      .map((orderId) => paymentKeys.order(scope.tenantId, scope.token, orderId));
    while (keys.length > 0) {
      const answer = await withStoreRetries(() =>
        db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } })),
      );
      orders.push(...(answer.Responses?.[tableName] ?? []).map(fromErasableOrderItem));
      keys = (answer.UnprocessedKeys?.[tableName]?.Keys ?? []) as typeof keys;
    }
  }
  return orders.sort((a, b) => a.orderId.localeCompare(b.orderId));
}

/** BatchGetItem takes at most 100 keys. */
const BATCH_GET_SIZE = 100;

/**
 * Removes the `personal` attributes (the participant's data, as lib/privacy/rules/personal-data.ts
 * names it) from an order that has ended, and deletes its checkout tokens, then its pointers. An
 * order waiting for payment is refused: it must end first (it does within its session's lifetime).
 */
export async function redactOrder(order: ErasableOrder, personal: readonly string[]): Promise<void> {
  await redactOrderItem(order, personal);
  if (order.person) {
    await deleteOrderPointers({ tenantId: order.tenantId, token: order.galleryToken }, order.orderId, order.person);
  }
}

async function redactOrderItem(order: ErasableOrder, personal: readonly string[]): Promise<void> {
  await deleteItems((order.tokenHashes ?? []).map((hash) => paymentKeys.checkoutToken(hash)));
  try {
    await withStoreRetries(() =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: order.pk, sk: order.sk },
          UpdateExpression: `SET erasedAt = if_not_exists(erasedAt, :now)${personal.length > 0 ? ` REMOVE ${personal.map((_, index) => `#r${index}`).join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk) AND #status <> :pending',
          ExpressionAttributeNames: {
            '#status': 'status',
            ...Object.fromEntries(personal.map((name, index) => [`#r${index}`, name])),
          },
          ExpressionAttributeValues: { ':now': nowIso(), ':pending': 'pending' },
        }),
      ),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new DomainError(
      'reservation_changed',
      `Order ${order.orderId} is waiting for payment again; erase once it has ended.`,
    );
  }
}
