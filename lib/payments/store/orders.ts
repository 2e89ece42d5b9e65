import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '#lib/platform/table/keys';
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

export function orderKey(order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId'>) {
  return keys.order(order.tenantId, order.galleryToken, order.orderId);
}

/**
 * An order waiting for payment is in the sparse GSI1 partition of pending orders, by creation;
 * every transition out of pending takes it out, reopen puts it back.
 */
export function pendingOrderIndex(order: Pick<Order, 'createdAt' | 'orderId'>) {
  return { [GSI1.partitionKey]: keys.pendingOrders(), [GSI1.sortKey]: `${order.createdAt}#${order.orderId}` };
}

/** Orders of every tenant that have been waiting for payment since before `createdBefore` (as the index saw them). */
export async function listPendingOrdersCreatedBefore(createdBefore: string): Promise<StoredOrder[]> {
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
    ExpressionAttributeValues: { ':pk': keys.pendingOrders(), ':before': createdBefore },
  });
  return items as StoredOrder[];
}

export async function getOrder(
  tenantId: string,
  galleryToken: string,
  orderId: string,
): Promise<StoredOrder | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.order(tenantId, galleryToken, orderId), ConsistentRead: true }),
  );
  return Item as StoredOrder | undefined;
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
  set?: Record<string, unknown>;
  /** Numbers added to (counters such as `retries`). */
  add?: Record<string, number>;
  remove?: string[];
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
  const set: Record<string, unknown> = {
    ...(change.status ? { status: change.status } : {}),
    updatedAt: nowIso(),
    ...index,
    ...change.set,
  };
  const names = Object.keys(set);
  const added = Object.entries(change.add ?? {});
  const removed = [...(change.remove ?? []), ...(leavesPending ? [GSI1.partitionKey, GSI1.sortKey] : [])];
  return {
    TableName: tableName,
    Key: orderKey(order),
    UpdateExpression:
      `SET ${names.map((name, index) => `#set${index} = :set${index}`).join(', ')}` +
      (added.length > 0 ? ` ADD ${added.map(([name], index) => `${name} :add${index}`).join(', ')}` : '') +
      (removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''),
    ConditionExpression: change.guard
      ? `${grouped(from.expression)} AND ${grouped(change.guard.expression)}`
      : from.expression,
    ExpressionAttributeNames: {
      '#status': 'status',
      ...Object.fromEntries(names.map((name, index) => [`#set${index}`, name])),
    },
    ExpressionAttributeValues: {
      ...from.values,
      ...change.guard?.values,
      ...Object.fromEntries(names.map((name, index) => [`:set${index}`, set[name]])),
      ...Object.fromEntries(added.map(([, value], index) => [`:add${index}`, value])),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}
