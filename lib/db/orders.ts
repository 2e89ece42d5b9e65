import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '#lib/clock';
import { ApiError } from '#lib/errors';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import { ExtraConditionFailed, type GalleryScope, type TransactItem, writePersonsTransaction } from '#lib/db/persons';
import { cancellationCodes, cancellationItem, withStoreRetries } from '#lib/db/retry';
import { generateAccessCode } from '#lib/domain/access-codes';
import type { Order, OrderStatus } from '#lib/domain/order-model';
import type { Person } from '#lib/domain/person-model';

export type CheckoutTokenPurpose = 'status' | 'retry';

/** Status and retry tokens stay usable for 30 days. */
const TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;

function orderKey(order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId'>) {
  return keys.order(order.tenantId, order.galleryToken, order.orderId);
}

function bookingUpdate(scope: GalleryScope, dayId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: 'ADD booked :delta',
      ConditionExpression:
        delta > 0 ? 'attribute_exists(pk) AND (attribute_not_exists(maxPersons) OR booked < maxPersons)' : 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':delta': delta },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A conditional change of an order's status, as a transaction item. */
function statusChange(order: Order, to: OrderStatus, condition: string, values: Record<string, string> = {}): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: orderKey(order),
      UpdateExpression: 'SET #status = :to, updatedAt = :now',
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':now': nowIso(), ...values },
    },
  };
}

async function transact(items: TransactItem[]): Promise<void> {
  await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })), { attempts: 10, maxDelayMs: 1000 });
}

/** The failed condition of item `index` of a cancelled transaction, if that is what happened. */
function conditionFailedAt(error: unknown, index: number): boolean {
  return (error as Error).name === 'TransactionCanceledException' && cancellationCodes(error)[index] === 'ConditionalCheckFailed';
}

/**
 * Stores a pending reservation with its two token hashes and takes its day's spot, in one
 * transaction: shooting_day_full when the day is at capacity.
 */
export async function reserveOrder(order: Order, tokenHashes: Record<CheckoutTokenPurpose, string>): Promise<void> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const expiresAt = Math.floor(Date.parse(order.createdAt) / 1000) + TOKEN_LIFETIME_SECONDS;
  const tokenItems: TransactItem[] = (Object.entries(tokenHashes) as [CheckoutTokenPurpose, string][]).map(([purpose, hash]) => ({
    Put: {
      TableName: tableName,
      Item: { ...keys.checkoutToken(hash), purpose, tenantId: order.tenantId, galleryToken: order.galleryToken, orderId: order.orderId, expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  const day = order.person.shootingDayId;
  try {
    await transact([
      { Put: { TableName: tableName, Item: { ...orderKey(order), ...order }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...tokenItems,
      ...(day ? [bookingUpdate(scope, day, 1)] : []),
    ]);
  } catch (error) {
    if (day && conditionFailedAt(error, 3)) throw new ApiError(cancellationItem(error, 3) ? 'shooting_day_full' : 'invalid_shooting_day');
    throw error;
  }
}

/** Undoes reserveOrder when no Checkout Session could be created: order, tokens and spot. */
export async function releaseReservation(order: Order, tokenHashes: Record<CheckoutTokenPurpose, string>): Promise<void> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  await transact([
    { Delete: { TableName: tableName, Key: orderKey(order) } },
    ...Object.values(tokenHashes).map((hash) => ({ Delete: { TableName: tableName, Key: keys.checkoutToken(hash) } })),
    ...(day ? [bookingUpdate(scope, day, -1)] : []),
  ]);
}

export async function attachCheckoutSession(order: Order, sessionId: string, checkoutUrl: string): Promise<void> {
  await withStoreRetries(() =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: orderKey(order),
        UpdateExpression: 'SET sessionId = :session, checkoutUrl = :url, updatedAt = :now',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':session': sessionId, ':url': checkoutUrl, ':pending': 'pending', ':now': nowIso() },
      }),
    ),
  );
}

/** What a pending order's session is while a retry replaces it: no Stripe session has this ID. */
export const SESSION_BEING_REPLACED = 'replacing';

/**
 * Unhooks a pending order from its session before that session is expired, so the session's
 * expiry event (which Stripe sends for a manual expiry too) releases nothing. False when the
 * order is no longer pending with that session.
 */
export async function detachCheckoutSession(order: Order, sessionId: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: orderKey(order),
        UpdateExpression: 'SET sessionId = :replacing, updatedAt = :now',
        ConditionExpression: '#status = :pending AND sessionId = :session',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':replacing': SESSION_BEING_REPLACED, ':pending': 'pending', ':session': sessionId, ':now': nowIso() },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

export async function getOrder(tenantId: string, galleryToken: string, orderId: string): Promise<Order | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.order(tenantId, galleryToken, orderId), ConsistentRead: true }));
  return Item as Order | undefined;
}

/** The order a token of this purpose belongs to, within this tenant; undefined otherwise. */
export async function findOrderByToken(tokenHash: string, purpose: CheckoutTokenPurpose, tenantId: string): Promise<Order | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.checkoutToken(tokenHash) }));
  if (!Item || Item.purpose !== purpose || Item.tenantId !== tenantId) return undefined;
  return getOrder(Item.tenantId, Item.galleryToken, Item.orderId);
}

/**
 * Turns a paid reservation into its person: person and code written, order marked paid, in
 * one transaction conditioned on the order still being pending. The spot was held since the
 * reservation. 'already' when another delivery of the same payment got there first.
 */
export async function finalizePaidOrder(order: Order): Promise<Person | 'already'> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const person: Person = { ...order.person, code: generateAccessCode() };
  const markPaid = ([written]: Person[]): TransactItem[] => [
    {
      Update: {
        TableName: tableName,
        Key: orderKey(order),
        UpdateExpression: 'SET #status = :paid, code = :code, updatedAt = :now',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':paid': 'paid', ':pending': 'pending', ':code': written!.code, ':now': nowIso() },
      },
    },
  ];
  try {
    const [written] = await writePersonsTransaction(scope, [person], new Set([person.code]), markPaid, { attempts: 10, maxDelayMs: 1000 });
    return written!;
  } catch (error) {
    if (error instanceof ExtraConditionFailed) return 'already';
    throw error;
  }
}

/**
 * Ends a pending reservation whose session expired (or whose payment failed) and releases its
 * spot; only for the order's current session, so an older session's expiry after a retry
 * changes nothing. False when there was nothing to end.
 */
export async function endPendingOrder(order: Order, sessionId: string, status: Extract<OrderStatus, 'expired' | 'canceled'>): Promise<boolean> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  try {
    await transact([
      statusChange(order, status, '#status = :pending AND sessionId = :session', { ':pending': 'pending', ':session': sessionId }),
      ...(day ? [bookingUpdate(scope, day, -1)] : []),
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}

/** Takes the spot of an expired or canceled reservation again, making it pending: shooting_day_full when taken. */
export async function reopenOrder(order: Order): Promise<void> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  try {
    await transact([
      statusChange(order, 'pending', '#status = :previous', { ':previous': order.status }),
      ...(day ? [bookingUpdate(scope, day, 1)] : []),
    ]);
  } catch (error) {
    if (day && conditionFailedAt(error, 1)) throw new ApiError('shooting_day_full');
    if (conditionFailedAt(error, 0)) throw new ApiError('storage_unavailable', 'The reservation changed meanwhile; retry.');
    throw error;
  }
}

/** Forgets an event whose handling failed, so that Stripe's next delivery is handled. */
export async function releaseStripeEvent(eventId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: keys.stripeEvent(eventId) }));
}

/** Adds a token for an existing order (a retry issues a new status token). */
export async function addCheckoutToken(order: Order, purpose: CheckoutTokenPurpose, tokenHash: string): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.checkoutToken(tokenHash),
        purpose,
        tenantId: order.tenantId,
        galleryToken: order.galleryToken,
        orderId: order.orderId,
        expiresAt: Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** True the first time an event ID is seen; Stripe retries deliveries for up to three days. */
export async function claimStripeEvent(eventId: string): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.stripeEvent(eventId), expiresAt: Math.floor(Date.now() / 1000) + 7 * 24 * 3600 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
