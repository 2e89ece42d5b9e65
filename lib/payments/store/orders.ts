import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll, setClause } from '#lib/platform/table/queries';
import * as v from 'valibot';
import { type StoredItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import type { PersonDraft } from '#lib/persons/rules/person-model';
import { GSI1 } from '#lib/platform/table/table-definition';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { paymentKeys } from '#lib/payments/store/keys';
import {
  ORDER_TRANSITIONS,
  type OrderState,
  type OrderTransitionName,
  type SessionReplacement,
} from '#lib/payments/rules/order-lifecycle';
import type { Order, OrderStatus } from '#lib/payments/rules/order-model';

/**
 * Orders as items: the stored order, its reads, and the conditional update every transition of
 * the lifecycle (lib/payments/rules/order-lifecycle.ts) is written with. The transitions themselves
 * are in lib/payments/store/order-transitions.ts.
 */

/**
 * An order as stored, with what only the store needs: the hashes of the tokens it was reserved
 * with (so a check-in that failed half-way can be undone without them), the replacement a retry
 * is making, and the delivery that turned the order into its person.
 */
export type StoredOrder = Order &
  SessionReplacement & {
    tokenHashes?: string[];
    paidBy?: string;
    /** Checkout retries so far (claimReplacement and reopen count one each). */
    retries?: number;
  };

/** Attributes a transition may take off an order (REMOVE): the names are the type's, never a request's. */
type OptionalOrderAttribute = 'sessionId' | 'replacingBy' | 'replacedSessionId';

/** An order's item as stored: the order, its replacement state and the store's own marks (keys aside). */
/** What an order keeps for accounting, erased or not. */
const orderAccountingEntries = {
  orderId: v.string(),
  tenantId: v.string(),
  galleryToken: v.string(),
  status: v.picklist(['pending', 'paid', 'expired', 'canceled']),
  packageId: v.string(),
  packageName: v.string(),
  amount: v.number(),
  currency: v.string(),
  accountId: v.string(),
  sessionId: v.optional(v.string()),
  replacedSessionId: v.optional(v.string()),
  paidBy: v.optional(v.string()),
  retries: v.optional(v.number()),
  createdAt: v.string(),
  updatedAt: v.string(),
};

const orderItemSchema = v.object({
  ...orderAccountingEntries,
  person: storedObject<PersonDraft>(),
  checkoutUrl: v.optional(v.string()),
  code: v.optional(v.string()),
  invitee: v.optional(v.object({ personId: v.string(), shootingDayId: v.nullable(v.string()) })),
  completedPersonId: v.optional(v.string()),
  completedName: v.optional(v.string()),
  replacingBy: v.optional(v.string()),
  tokenHashes: v.optional(v.array(v.string())),
});

/**
 * An ended order whose participant erasure or retention removed (lib/privacy/rules/personal-data.ts):
 * its accounting part and when it was erased.
 */
export type RedactedOrder = Pick<
  StoredOrder,
  | 'orderId'
  | 'tenantId'
  | 'galleryToken'
  | 'status'
  | 'packageId'
  | 'packageName'
  | 'amount'
  | 'currency'
  | 'accountId'
  | 'sessionId'
  | 'replacedSessionId'
  | 'paidBy'
  | 'retries'
  | 'createdAt'
  | 'updatedAt'
> & { erasedAt: string };

const redactedOrderItemSchema = v.object({ ...orderAccountingEntries, erasedAt: v.string() });

/** Whether an order read back was redacted: it no longer names its participant. */
export function isRedacted(order: StoredOrder | RedactedOrder): order is RedactedOrder {
  return !('person' in order);
}

/**
 * The order an item holds (its keys left behind), or what redaction left of it; a
 * CorruptItemError when it holds neither.
 */
export function fromOrderOrRedactedItem(item: StoredItem): StoredOrder | RedactedOrder {
  return 'person' in item || !('erasedAt' in item)
    ? fromOrderItem(item)
    : parseItem('order', redactedOrderItemSchema, item);
}

/** The order an item holds (its keys left behind): one that was not redacted; a CorruptItemError otherwise. */
export function fromOrderItem(item: StoredItem): StoredOrder {
  return parseItem('order', orderItemSchema, item);
}

/** A new order's item: its key, the index of pending orders, and the order. */
export function toOrderItem(order: StoredOrder): StoredItem {
  return { ...orderKey(order), ...pendingOrderIndex(order), ...order };
}

export function orderKey(order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId'>) {
  return paymentKeys.order(order.tenantId, order.galleryToken, order.orderId);
}

/**
 * An order waiting for payment is in the sparse GSI1 partition of pending orders, by creation;
 * every transition out of pending takes it out, reopen puts it back.
 */
export function pendingOrderIndex(order: Pick<Order, 'createdAt' | 'orderId'>) {
  return { [GSI1.partitionKey]: paymentKeys.pendingOrders(), [GSI1.sortKey]: `${order.createdAt}#${order.orderId}` };
}

/** Orders of every tenant that have been waiting for payment since before `createdBefore` (as the index saw them). */
export async function listPendingOrdersCreatedBefore(createdBefore: string): Promise<StoredOrder[]> {
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
    ExpressionAttributeValues: { ':pk': paymentKeys.pendingOrders(), ':before': createdBefore },
  });
  return items.map(fromOrderItem);
}

export async function getOrder(
  tenantId: string,
  galleryToken: string,
  orderId: string,
): Promise<StoredOrder | RedactedOrder | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: paymentKeys.order(tenantId, galleryToken, orderId),
      ConsistentRead: true,
    }),
  );
  return Item ? fromOrderOrRedactedItem(Item) : undefined;
}

/**
 * Each lifecycle state as a condition on the stored item. A pending order holds a session or a
 * replacement, never both; without either it is reserved.
 */
const STATE_CONDITIONS: Record<OrderState, { expression: string; status: OrderStatus }> = {
  reserved: {
    expression: '#status = :pending AND attribute_not_exists(sessionId) AND attribute_not_exists(replacingBy)',
    status: 'pending',
  },
  open: {
    expression: '#status = :pending AND attribute_exists(sessionId) AND attribute_not_exists(replacingBy)',
    status: 'pending',
  },
  replacing: { expression: '#status = :pending AND attribute_exists(replacingBy)', status: 'pending' },
  paid: { expression: '#status = :paid', status: 'paid' },
  expired: { expression: '#status = :expired', status: 'expired' },
  canceled: { expression: '#status = :canceled', status: 'canceled' },
};

export interface Condition {
  expression: string;
  values: Record<string, unknown>;
}

/** Parentheses where an expression is joined to others (DynamoDB refuses redundant ones). */
const grouped = (expression: string) => (/ (AND|OR) /.test(expression) ? `(${expression})` : expression);

/** The condition that admits exactly the `from` states of a transition (an order must exist). */
export function fromStatesCondition(transition: OrderTransitionName): Condition {
  const from: readonly OrderState[] = ORDER_TRANSITIONS[transition].from;
  const states = from.map((state) => STATE_CONDITIONS[state]);
  return {
    expression:
      states.length === 1 ? states[0]!.expression : states.map((state) => grouped(state.expression)).join(' OR '),
    values: Object.fromEntries(states.map((state) => [`:${state.status}`, state.status])),
  };
}

/** What a transition changes on the order item, beyond `updatedAt`. */
export interface OrderChange {
  /** The new status, when it changes. */
  status?: OrderStatus;
  set?: Partial<
    Pick<StoredOrder, 'sessionId' | 'checkoutUrl' | 'code' | 'paidBy' | 'completedPersonId' | 'completedName'>
  > &
    SessionReplacement;
  /** Numbers added to (the count of checkout retries). */
  add?: Partial<Pick<Required<StoredOrder>, 'retries'>>;
  remove?: readonly OptionalOrderAttribute[];
  /** A condition the transition adds to its `from` states (the session an event is about, a retry's claim). */
  guard?: Condition;
}

/**
 * The conditional update of an order that carries out `transition`: applied only in the
 * transition's `from` states (and its guard); on a failed condition the item comes back as it
 * was (ALL_OLD), so the caller can tell its own earlier write from another's.
 */
export function transitionUpdate(
  order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId' | 'createdAt'>,
  transition: OrderTransitionName,
  change: OrderChange,
) {
  const from = fromStatesCondition(transition);
  // In or out of the index of pending orders, with the status.
  const index = change.status === 'pending' ? pendingOrderIndex(order) : {};
  const leavesPending = change.status !== undefined && change.status !== 'pending';
  const set = setClause(
    { ...(change.status ? { status: change.status } : {}), updatedAt: nowIso(), ...index, ...change.set },
    { name: '#set', value: ':set' },
  );
  const added = Object.entries(change.add ?? {});
  const removed: readonly string[] = [
    ...(change.remove ?? []),
    ...(leavesPending ? [GSI1.partitionKey, GSI1.sortKey] : []),
  ];
  return {
    TableName: tableName,
    Key: orderKey(order),
    UpdateExpression:
      set.expression +
      (added.length > 0 ? ` ADD ${added.map(([name], index) => `${name} :add${index}`).join(', ')}` : '') +
      (removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''),
    ConditionExpression: change.guard
      ? `${grouped(from.expression)} AND ${grouped(change.guard.expression)}`
      : from.expression,
    ExpressionAttributeNames: { '#status': 'status', ...set.names },
    ExpressionAttributeValues: {
      ...from.values,
      ...change.guard?.values,
      ...set.values,
      ...Object.fromEntries(added.map(([, value], index) => [`:add${index}`, value])),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}
