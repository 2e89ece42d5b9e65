import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { paymentKeys } from '#lib/payments/store/keys';
import { type StoredOrder, getOrder, isRedacted } from '#lib/payments/store/orders';
import { DomainError } from '#lib/platform/domain-error';
import { CHECKOUT_TOKEN_LIFETIME_SECONDS } from '#lib/payments/rules/order-lifecycle';
import type { Order } from '#lib/payments/rules/order-model';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

/** What a checkout token lets its holder do: poll the order's status, or retry its checkout. */
export type CheckoutTokenPurpose = 'status' | 'retry';

/** A token's item, keyed by the SHA-256 of its value; it expires with the token. */
export function checkoutTokenItem(
  order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId' | 'createdAt'>,
  purpose: CheckoutTokenPurpose,
  tokenHash: string,
  issuedAtMs: number,
): StoredItem {
  return {
    ...paymentKeys.checkoutToken(tokenHash),
    purpose,
    tenantId: order.tenantId,
    galleryToken: order.galleryToken,
    orderId: order.orderId,
    expiresAt: Math.floor(issuedAtMs / 1000) + CHECKOUT_TOKEN_LIFETIME_SECONDS,
  };
}

const checkoutTokenItemSchema = v.object({
  purpose: v.picklist(['status', 'retry']),
  tenantId: v.string(),
  galleryToken: v.string(),
  orderId: v.string(),
});

/** What galleryOfCheckoutToken projects of a token's item. */
const tokenGallerySchema = v.object({ tenantId: v.string(), galleryToken: v.string() });

/** The token an item holds; a CorruptItemError when it holds none. */
export function fromCheckoutTokenItem(item: StoredItem): v.InferOutput<typeof checkoutTokenItemSchema> {
  return parseItem('checkout token', checkoutTokenItemSchema, item);
}

/** The order a token of this purpose belongs to, within this tenant; undefined otherwise. */
export async function findOrderByToken(
  tokenHash: string,
  purpose: CheckoutTokenPurpose,
  tenantId: string,
): Promise<StoredOrder | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: paymentKeys.checkoutToken(tokenHash) }));
  const token = Item && fromCheckoutTokenItem(Item);
  if (!token || token.purpose !== purpose || token.tenantId !== tenantId) return undefined;
  const order = await getOrder(token.tenantId, token.galleryToken, token.orderId);
  // Redaction deletes an order's tokens: one found a moment before is answered as gone.
  return order && !isRedacted(order) ? order : undefined;
}

/** The gallery of a token of either purpose within this tenant, undefined otherwise (Idempotency-Key records of checkinStatus and retryCheckout are listed under it). */
export async function galleryOfCheckoutToken(tokenHash: string, tenantId: string): Promise<string | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: paymentKeys.checkoutToken(tokenHash),
      ProjectionExpression: 'tenantId, galleryToken',
    }),
  );
  const token = Item && parseItem('checkout token', tokenGallerySchema, Item);
  return token?.tenantId === tenantId ? token.galleryToken : undefined;
}

/** Adds a token for an existing order (a retry issues a new status token). */
export async function addCheckoutToken(order: Order, purpose: CheckoutTokenPurpose, tokenHash: string): Promise<void> {
  // Tokens are random (190 bits): an existing item of this hash is this write, applied already.
  const added = await conditionalWrite(
    () =>
      db.send(
        new PutCommand({
          TableName: tableName,
          Item: checkoutTokenItem(order, purpose, tokenHash, now()),
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.orderId === order.orderId && item.purpose === purpose,
  );
  if (!added) throw new DomainError('reservation_changed', 'The reservation changed meanwhile; retry.');
}
