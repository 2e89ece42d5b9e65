import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '#lib/clock';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import {
  ORDER_TRANSITIONS,
  type OrderState,
  type OrderTransitionName,
  type SessionReplacement,
} from '#lib/domain/order-lifecycle';
import type { Order, OrderStatus } from '#lib/domain/order-model';

/**
 * Orders as items: the stored order, its reads, and the conditional update every transition of
 * the lifecycle (lib/domain/order-lifecycle.ts) is written with. The transitions themselves
 * are in lib/db/order-transitions.ts.
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
  };

export function orderKey(order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId'>) {
  return keys.order(order.tenantId, order.galleryToken, order.orderId);
}

export async function getOrder(tenantId: string, galleryToken: string, orderId: string): Promise<StoredOrder | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.order(tenantId, galleryToken, orderId), ConsistentRead: true }));
  return Item as StoredOrder | undefined;
}

/**
 * Each lifecycle state as a condition on the stored item. A pending order holds a session or a
 * replacement, never both; without either it is reserved.
 */
const STATE_CONDITIONS: Record<OrderState, { expression: string; status: OrderStatus }> = {
  reserved: { expression: '#status = :pending AND attribute_not_exists(sessionId) AND attribute_not_exists(replacingBy)', status: 'pending' },
  open: { expression: '#status = :pending AND attribute_exists(sessionId) AND attribute_not_exists(replacingBy)', status: 'pending' },
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
    expression: states.length === 1 ? states[0]!.expression : states.map((state) => grouped(state.expression)).join(' OR '),
    values: Object.fromEntries(states.map((state) => [`:${state.status}`, state.status])),
  };
}

/** What a transition changes on the order item, beyond `updatedAt`. */
export interface OrderChange {
  /** The new status, when it changes. */
  status?: OrderStatus;
  set?: Record<string, unknown>;
  remove?: string[];
  /** A condition the transition adds to its `from` states (the session an event is about, a retry's claim). */
  guard?: Condition;
}

/**
 * The conditional update of an order that carries out `transition`: applied only in the
 * transition's `from` states (and its guard); on a failed condition the item comes back as it
 * was (ALL_OLD), so the caller can tell its own earlier write from another's.
 */
export function transitionUpdate(order: Pick<Order, 'tenantId' | 'galleryToken' | 'orderId'>, transition: OrderTransitionName, change: OrderChange) {
  const from = fromStatesCondition(transition);
  const set: Record<string, unknown> = { ...(change.status ? { status: change.status } : {}), updatedAt: nowIso(), ...change.set };
  const names = Object.keys(set);
  const removed = change.remove ?? [];
  return {
    TableName: tableName,
    Key: orderKey(order),
    UpdateExpression:
      `SET ${names.map((name, index) => `#set${index} = :set${index}`).join(', ')}` + (removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''),
    ConditionExpression: change.guard ? `${grouped(from.expression)} AND ${grouped(change.guard.expression)}` : from.expression,
    ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(names.map((name, index) => [`#set${index}`, name])) },
    ExpressionAttributeValues: {
      ...from.values,
      ...change.guard?.values,
      ...Object.fromEntries(names.map((name, index) => [`:set${index}`, set[name]])),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}
