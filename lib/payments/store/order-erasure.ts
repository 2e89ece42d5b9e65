import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { deleteItems } from '#lib/platform/table/batches';
import { ORDER_ITEM_PREFIX, paymentKeys } from '#lib/payments/store/keys';
import { queryAll } from '#lib/platform/table/queries';
import { withStoreRetries } from '#lib/platform/table/retry';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

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

/** Every order of a gallery, as stored (redacted ones included). */
export async function listOrderItems(scope: GalleryScope): Promise<ErasableOrder[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :order)',
    ExpressionAttributeValues: {
      ':pk': paymentKeys.ordersOfGallery(scope.tenantId, scope.token),
      ':order': ORDER_ITEM_PREFIX,
    },
  });
  return items.map(fromErasableOrderItem);
}

/**
 * Removes the `personal` attributes (the participant's data, as lib/privacy/rules/personal-data.ts
 * names it) from an order that has ended, and deletes its checkout tokens. An order waiting for
 * payment is refused: it must end first (it does within its session's lifetime).
 */
export async function redactOrder(order: ErasableOrder, personal: readonly string[]): Promise<void> {
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
