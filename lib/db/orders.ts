import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { now, nowIso } from '#lib/clock';
import { DomainError } from '#lib/domain/domain-error';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import { type GalleryScope, type TransactItem, accessCodeItem, toPersonItem } from '#lib/db/persons';
import { cancellationCodes, cancellationItem, itemOfFailedCondition, withStoreRetries } from '#lib/db/retry';
import { generateAccessCode } from '#lib/domain/access-codes';
import type { Order, OrderStatus } from '#lib/domain/order-model';
import type { Person } from '#lib/domain/person-model';

export type CheckoutTokenPurpose = 'status' | 'retry';

/**
 * An order as stored, with the attributes only the store needs: the hashes of the tokens the
 * reservation was made with (so a check-in that failed half-way can be undone without them),
 * the session a retry is replacing, the retry that is replacing it, and the delivery that
 * turned the order into its person.
 */
export type StoredOrder = Order & {
  tokenHashes?: string[];
  replacedSessionId?: string;
  replacingBy?: string;
  paidBy?: string;
};

/** Status and retry tokens stay usable for 30 days. */
const TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
/** Handled Stripe events are remembered beyond Stripe's three days of redeliveries. */
const STRIPE_EVENT_LIFETIME_SECONDS = 7 * 24 * 3600;
/**
 * A retry that has been replacing an order's session for this long has ended (functions time
 * out after 29 s): it failed half-way, and any expiry of the order's sessions may end the order.
 */
const REPLACEMENT_ABANDONED_MS = 2 * 60 * 1000;
/** Rounds of drawing a new access code when a paid order's code collides. */
const CODE_ROUNDS = 8;

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

/** A conditional change of an order's status, as a transaction item (ALL_OLD on a failed condition). */
function statusChange(
  order: Order,
  to: OrderStatus,
  condition: string,
  values: Record<string, string> = {},
  alsoSet = '',
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: orderKey(order),
      UpdateExpression: `SET #status = :to, updatedAt = :now${alsoSet}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':now': nowIso(), ...values },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * A transaction, retried. The SDK gives it an idempotency token that its own retries reuse, so
 * a retry after a lost answer is not applied twice.
 */
async function transact(items: TransactItem[]): Promise<void> {
  await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })), { attempts: 10, maxDelayMs: 1000 });
}

/** The failed condition of item `index` of a cancelled transaction, if that is what happened. */
function conditionFailedAt(error: unknown, index: number): boolean {
  return (error as Error).name === 'TransactionCanceledException' && cancellationCodes(error)[index] === 'ConditionalCheckFailed';
}

/** Item `index` of a cancelled transaction as it was (ALL_OLD), as plain values. */
function itemAt(error: unknown, index: number): Record<string, any> | undefined {
  const item = cancellationItem(error, index);
  return item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined;
}

/**
 * A single conditional write whose condition may fail because this very write was applied
 * already (its answer was lost and the SDK sent it again): `ours` recognises that from the
 * item as it is. False when the condition failed for another reason.
 */
async function conditionalWrite(send: () => Promise<unknown>, ours: (item: Record<string, any> | undefined) => boolean): Promise<boolean> {
  try {
    await withStoreRetries(send);
    return true;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return ours(itemOfFailedCondition(error));
  }
}

const changedMeanwhile = () => new DomainError('reservation_changed', 'The reservation changed meanwhile; retry.');

/**
 * Stores a pending reservation with its two token hashes and takes its day's spot, in one
 * transaction: shooting_day_full when the day is at capacity. It has no session yet: until one
 * is attached, the expiry of a session of the order undoes the reservation (releaseReservation).
 */
export async function reserveOrder(order: Order, tokenHashes: Record<CheckoutTokenPurpose, string>): Promise<StoredOrder> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const expiresAt = Math.floor(Date.parse(order.createdAt) / 1000) + TOKEN_LIFETIME_SECONDS;
  const tokenItems: TransactItem[] = (Object.entries(tokenHashes) as [CheckoutTokenPurpose, string][]).map(([purpose, hash]) => ({
    Put: {
      TableName: tableName,
      Item: { ...keys.checkoutToken(hash), purpose, tenantId: order.tenantId, galleryToken: order.galleryToken, orderId: order.orderId, expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  const stored: StoredOrder = { ...order, tokenHashes: Object.values(tokenHashes) };
  const day = order.person.shootingDayId;
  try {
    await transact([
      { Put: { TableName: tableName, Item: { ...orderKey(order), ...stored }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...tokenItems,
      ...(day ? [bookingUpdate(scope, day, 1)] : []),
    ]);
    return stored;
  } catch (error) {
    if (day && conditionFailedAt(error, 3)) throw new DomainError(cancellationItem(error, 3) ? 'shooting_day_full' : 'unknown_shooting_day');
    throw error;
  }
}

/**
 * Undoes reserveOrder (order, tokens and spot) for a check-in that failed after its
 * reservation, while the order is pending. `onlyUnattached`: only while no session is attached
 * to it (the expiry of the session of a check-in that failed half-way); without, the failed
 * check-in's own undo, whatever it managed to attach. False when there was nothing to undo.
 */
export async function releaseReservation(order: StoredOrder, options: { onlyUnattached: boolean }): Promise<boolean> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  try {
    await transact([
      {
        Delete: {
          TableName: tableName,
          Key: orderKey(order),
          ConditionExpression: `#status = :pending${options.onlyUnattached ? ' AND attribute_not_exists(sessionId)' : ''}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending' },
        },
      },
      ...(order.tokenHashes ?? []).map((hash) => ({ Delete: { TableName: tableName, Key: keys.checkoutToken(hash) } })),
      ...(day ? [bookingUpdate(scope, day, -1)] : []),
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}

/** What a pending order's session is while a retry replaces it: no Stripe session has this ID. */
export const SESSION_BEING_REPLACED = 'replacing';

/**
 * Attaches a new Checkout Session to a pending order: to a fresh reservation (no session yet),
 * or, with `claim`, to an order this retry is replacing the session of. storage_unavailable
 * when the order changed meanwhile.
 */
export async function attachCheckoutSession(order: Order, sessionId: string, checkoutUrl: string, claim?: string): Promise<void> {
  const attached = await conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: orderKey(order),
          UpdateExpression: 'SET sessionId = :session, checkoutUrl = :url, updatedAt = :now',
          ConditionExpression: claim
            ? '#status = :pending AND sessionId = :replacing AND replacingBy = :claim'
            : '#status = :pending AND attribute_not_exists(sessionId)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':session': sessionId,
            ':url': checkoutUrl,
            ':pending': 'pending',
            ':now': nowIso(),
            ...(claim ? { ':replacing': SESSION_BEING_REPLACED, ':claim': claim } : {}),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.status === 'pending' && item.sessionId === sessionId,
  );
  if (!attached) throw changedMeanwhile();
}

/**
 * A retry takes a pending order over for replacing its session: the order's session becomes
 * SESSION_BEING_REPLACED, remembering the session it replaces, so that session's expiry
 * (which Stripe sends for a manual expiry too) releases nothing. An order that an earlier,
 * failed retry left being replaced is taken over as it is. `claim` identifies this retry.
 * False when the order is no longer pending with the session it was read with.
 */
export async function claimSessionReplacement(order: StoredOrder, claim: string): Promise<boolean> {
  const current = order.sessionId ?? '';
  const replacesReal = current !== SESSION_BEING_REPLACED;
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: orderKey(order),
          UpdateExpression: `SET sessionId = :replacing, replacingBy = :claim, updatedAt = :now${replacesReal ? ', replacedSessionId = :current' : ''}`,
          ConditionExpression: '#status = :pending AND sessionId = :current',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':replacing': SESSION_BEING_REPLACED, ':claim': claim, ':pending': 'pending', ':current': current, ':now': nowIso() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.status === 'pending' && item.sessionId === SESSION_BEING_REPLACED && item.replacingBy === claim,
  );
}

/**
 * Gives a pending order back the session this retry unhooked from it (Stripe could not expire
 * it), so that session's expiry still frees the spot. False when the order changed meanwhile.
 */
export async function restoreReplacedSession(order: Order, sessionId: string, checkoutUrl: string | undefined, claim: string): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: orderKey(order),
          UpdateExpression: `SET sessionId = :session, updatedAt = :now${checkoutUrl ? ', checkoutUrl = :url' : ''}`,
          ConditionExpression: '#status = :pending AND sessionId = :replacing AND replacingBy = :claim',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':session': sessionId,
            ':pending': 'pending',
            ':replacing': SESSION_BEING_REPLACED,
            ':claim': claim,
            ':now': nowIso(),
            ...(checkoutUrl ? { ':url': checkoutUrl } : {}),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.status === 'pending' && item.sessionId === sessionId,
  );
}

export async function getOrder(tenantId: string, galleryToken: string, orderId: string): Promise<StoredOrder | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.order(tenantId, galleryToken, orderId), ConsistentRead: true }));
  return Item as StoredOrder | undefined;
}

/** The order a token of this purpose belongs to, within this tenant; undefined otherwise. */
export async function findOrderByToken(tokenHash: string, purpose: CheckoutTokenPurpose, tenantId: string): Promise<StoredOrder | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.checkoutToken(tokenHash) }));
  if (!Item || Item.purpose !== purpose || Item.tenantId !== tenantId) return undefined;
  return getOrder(Item.tenantId, Item.galleryToken, Item.orderId);
}

/**
 * Turns a paid reservation into its person: person and code written, order marked paid, in
 * one transaction conditioned on the order still being pending. The spot was held since the
 * reservation. 'already' when another delivery of the same payment got there first; the mark
 * `paidBy` tells this call's own transaction (its answer lost) from another delivery's.
 */
export async function finalizePaidOrder(order: Order): Promise<Person | 'already'> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const attempt = randomUUID();
  for (let round = 0; round < CODE_ROUNDS; round += 1) {
    const person: Person = { ...order.person, code: generateAccessCode() };
    try {
      await transact([
        { Put: { TableName: tableName, Item: toPersonItem(scope, person), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: accessCodeItem(scope, person), ConditionExpression: 'attribute_not_exists(pk)' } },
        statusChange(order, 'paid', '#status = :pending', { ':pending': 'pending', ':code': person.code, ':attempt': attempt }, ', code = :code, paidBy = :attempt'),
      ]);
      return person;
    } catch (error) {
      if (conditionFailedAt(error, 2)) {
        const stored = itemAt(error, 2);
        return stored?.status === 'paid' && stored.paidBy === attempt ? { ...order.person, code: stored.code } : 'already';
      }
      // The person ID is the order's, and only this transaction writes it: the person exists, so the order is paid.
      if (conditionFailedAt(error, 0)) {
        const stored = await getOrder(order.tenantId, order.galleryToken, order.orderId);
        return stored?.status === 'paid' && stored.paidBy === attempt ? { ...order.person, code: stored.code! } : 'already';
      }
      if (!conditionFailedAt(error, 1)) throw error;
      // The code is taken in the gallery: draw another.
    }
  }
  // Only a gallery close to its 923,521 codes gets here; Stripe's redelivery tries again.
  throw new DomainError('access_codes_exhausted', 'No free access code was found for the gallery; retry.');
}

/**
 * Ends a pending reservation whose session expired (or whose payment failed) and releases its
 * spot: only for the order's current session, so an older session's expiry after a retry
 * changes nothing; or for an order a retry left being replaced, unless it is the replaced
 * session's expiry while that retry may still be running. False when there was nothing to end.
 */
export async function endPendingOrder(order: Order, sessionId: string, status: Extract<OrderStatus, 'expired' | 'canceled'>): Promise<boolean> {
  const abandonedBefore = new Date(now() - REPLACEMENT_ABANDONED_MS).toISOString();
  return endOrder(
    order,
    status,
    '#status = :pending AND (sessionId = :session OR (sessionId = :replacing AND ' +
      '(attribute_not_exists(replacedSessionId) OR replacedSessionId <> :session OR updatedAt < :abandoned)))',
    { ':pending': 'pending', ':session': sessionId, ':replacing': SESSION_BEING_REPLACED, ':abandoned': abandonedBefore },
  );
}

/**
 * Ends a pending order whose retry (`claim`) failed before a new session was attached: no
 * session can complete or expire it now. `status`: what it was before the retry.
 */
export async function abandonSessionReplacement(order: Order, claim: string, status: Extract<OrderStatus, 'expired' | 'canceled'>): Promise<boolean> {
  return endOrder(order, status, '#status = :pending AND sessionId = :replacing AND replacingBy = :claim', {
    ':pending': 'pending',
    ':replacing': SESSION_BEING_REPLACED,
    ':claim': claim,
  });
}

async function endOrder(order: Order, status: Extract<OrderStatus, 'expired' | 'canceled'>, condition: string, values: Record<string, string>) {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  try {
    await transact([statusChange(order, status, condition, values), ...(day ? [bookingUpdate(scope, day, -1)] : [])]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}

/**
 * Takes the spot of an expired or canceled reservation again, making it pending and claimed by
 * this retry (`claim`) for its new session: shooting_day_full when taken.
 */
export async function reopenOrder(order: StoredOrder, claim: string): Promise<void> {
  const scope = { tenantId: order.tenantId, token: order.galleryToken };
  const day = order.person.shootingDayId;
  const replaces = order.sessionId && order.sessionId !== SESSION_BEING_REPLACED ? order.sessionId : undefined;
  try {
    await transact([
      statusChange(
        order,
        'pending',
        '#status = :previous',
        { ':previous': order.status, ':replacing': SESSION_BEING_REPLACED, ':claim': claim, ...(replaces ? { ':replaced': replaces } : {}) },
        `, sessionId = :replacing, replacingBy = :claim${replaces ? ', replacedSessionId = :replaced' : ''}`,
      ),
      ...(day ? [bookingUpdate(scope, day, 1)] : []),
    ]);
  } catch (error) {
    if (day && conditionFailedAt(error, 1)) throw new DomainError('shooting_day_full');
    if (conditionFailedAt(error, 0)) {
      const stored = itemAt(error, 0);
      // This very transaction, applied already (its answer lost).
      if (stored?.status === 'pending' && stored.replacingBy === claim) return;
      throw changedMeanwhile();
    }
    throw error;
  }
}

/** Adds a token for an existing order (a retry issues a new status token). */
export async function addCheckoutToken(order: Order, purpose: CheckoutTokenPurpose, tokenHash: string): Promise<void> {
  // Tokens are random (190 bits): an existing item of this hash is this write, applied already.
  const added = await conditionalWrite(
    () =>
      db.send(
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
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.orderId === order.orderId && item.purpose === purpose,
  );
  if (!added) throw changedMeanwhile();
}

/**
 * Whether a Stripe event was handled already. Only an event whose handling completed is
 * remembered (handledAt): handling is idempotent by the orders' conditional transitions, so a
 * redelivery of an event whose handling failed, or overlapped another delivery, is handled again.
 */
export async function stripeEventHandled(eventId: string): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.stripeEvent(eventId) }));
  return typeof Item?.handledAt === 'string';
}

/** Remembers a handled Stripe event; Stripe retries deliveries for up to three days. */
export async function rememberStripeEvent(eventId: string): Promise<void> {
  await withStoreRetries(() =>
    db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.stripeEvent(eventId), handledAt: nowIso(), expiresAt: Math.floor(Date.now() / 1000) + STRIPE_EVENT_LIFETIME_SECONDS },
      }),
    ),
  );
}
