import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import {
  abandonSessionReplacement,
  attachCheckoutSession,
  claimSessionReplacement,
  endPendingOrder,
  payOrder,
  removeReservation,
  reopenOrder,
  reserveOrder,
  restoreReplacedSession,
} from '#lib/payments/store/order-transitions';
import { type StoredOrder, getOrder, orderKey } from '#lib/payments/store/orders';
import { DomainError } from '#lib/platform/domain-error';
import {
  ORDER_STATES,
  ORDER_TRANSITIONS,
  type OrderState,
  type OrderTransitionName,
  orderState,
  pendingPaymentEffect,
  transitionApplies,
} from '#lib/payments/rules/order-lifecycle';
import type { Order } from '#lib/payments/rules/order-model';
import { createTestTenant } from '../../support/factories';
import { pendingOrder } from '../../support/orders';
import { useTestTable } from '../../support/test-table';
import { daySpots } from '../../support/day-spots';
import { readSpotCounters } from '#lib/galleries/store/day-bookings';

/**
 * The order lifecycle on the real store: every transition of lib/payments/rules/order-lifecycle.ts is
 * tried from every state (and from no order at all). It is applied exactly where the table
 * says, leads to a state the table names and moves the day's spot as the table says; anywhere
 * else it is refused and changes nothing. A second walk reads the order in a state the
 * transition applies to and moves the stored order on before the write: DynamoDB's condition,
 * not a check of the caller's copy, refuses it.
 */
useTestTable();

const BOOKED_BEFORE = 5;
const TRANSITIONS = Object.keys(ORDER_TRANSITIONS) as OrderTransitionName[];
type Start = OrderState | 'absent';

let scope: { tenantId: string; galleryToken: string; dayId: string };

beforeAll(async () => {
  const studio = await createTestTenant();
  scope = { tenantId: studio.tenant.tenantId, galleryToken: studio.token, dayId: studio.days.later.id };
});

const newOrder = () => pendingOrder(scope);

/** The stored attributes of each state: an open order's session is cs_1, a replacing one replaces cs_0 for claim-1. */
const STATE_ATTRIBUTES: Record<OrderState, Partial<StoredOrder>> = {
  reserved: {},
  open: { sessionId: 'cs_1', checkoutUrl: 'https://checkout.example/cs_1' },
  replacing: { replacingBy: 'claim-1', replacedSessionId: 'cs_0' },
  paid: { status: 'paid', sessionId: 'cs_1', code: 'ABCD', paidBy: 'another-delivery' },
  expired: { status: 'expired', sessionId: 'cs_1' },
  canceled: { status: 'canceled', sessionId: 'cs_1' },
};

const inState = (order: Order, state: OrderState): StoredOrder => ({
  ...order,
  tokenHashes: [],
  ...STATE_ATTRIBUTES[state],
});

/** The order as stored, without its keys. */
async function storedOrder(order: Order): Promise<StoredOrder | undefined> {
  const item = await getOrder(order.tenantId, order.galleryToken, order.orderId);
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, ...stored } = item as StoredOrder & { pk: string; sk: string };
  return stored;
}

async function store(order: StoredOrder): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName, Item: { ...orderKey(order), ...order } }));
}

/** `booked` spots taken, all by reservations waiting for payment: on the day's item, its shards emptied. */
async function setBooked(booked: number): Promise<void> {
  const counters = (await readSpotCounters({ tenantId: scope.tenantId, token: scope.galleryToken }, scope.dayId)) ?? [];
  await Promise.all(
    counters.map((counter) =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key:
            counter.id === 'day'
              ? keys.shootingDay(scope.tenantId, scope.galleryToken, scope.dayId)
              : keys.daySpotShard(scope.tenantId, scope.galleryToken, scope.dayId, counter.id),
          UpdateExpression:
            counter.id === 'day' ? 'SET booked = :booked, pendingPayments = :booked' : 'SET booked = :none',
          ExpressionAttributeValues: counter.id === 'day' ? { ':booked': booked } : { ':none': 0 },
        }),
      ),
    ),
  );
}

/** The day's spots taken and, of those, the ones held by reservations waiting for payment. */
async function booked(): Promise<{ booked: number; pendingPayments: number }> {
  const spots = await daySpots({ tenantId: scope.tenantId, token: scope.galleryToken }, scope.dayId);
  return { booked: spots.booked as number, pendingPayments: spots.pendingPayments as number };
}
const unchanged = { booked: BOOKED_BEFORE, pendingPayments: BOOKED_BEFORE };

/** Refusals the transitions answer with; anything else thrown fails the test. */
function refusal(error: unknown): false {
  const refused =
    (error instanceof DomainError && error.reason === 'reservation_changed') ||
    (error as Error).name === 'TransactionCanceledException';
  if (!refused) throw error;
  return false;
}

/** Carries a transition out on an order as the caller read it; true when it was applied. */
const RUN: Record<OrderTransitionName, (read: StoredOrder) => Promise<boolean>> = {
  reserve: (read) =>
    reserveOrder(read, { status: `status-${read.orderId}`, retry: `retry-${read.orderId}` }).then(() => true, refusal),
  attachSession: (read) =>
    attachCheckoutSession(read, 'cs_new', 'https://checkout.example/cs_new').then(() => true, refusal),
  undoReservation: (read) => removeReservation(read, 'undoReservation'),
  releaseUnattached: (read) => removeReservation(read, 'releaseUnattached'),
  claimReplacement: (read) => claimSessionReplacement(read, 'claim-2'),
  attachReplacement: (read) =>
    attachCheckoutSession(read, 'cs_new', 'https://checkout.example/cs_new', read.replacingBy ?? 'claim-1').then(
      () => true,
      refusal,
    ),
  restoreSession: (read) =>
    restoreReplacedSession(read, read.replacedSessionId ?? 'cs_0', undefined, read.replacingBy ?? 'claim-1'),
  abandonReplacement: (read) => abandonSessionReplacement(read, read.replacingBy ?? 'claim-1', 'expired'),
  pay: async (read) => (await payOrder(read)) !== 'already',
  expire: (read) => endPendingOrder(read, 'cs_1', 'expire'),
  cancel: (read) => endPendingOrder(read, 'cs_1', 'cancel'),
  reopen: (read) => reopenOrder(read, 'claim-2').then(() => true, refusal),
};

const SPOT_DELTA = { take: 1, give_back: -1, keep: 0 } as const;

const WALK: [OrderTransitionName, Start][] = TRANSITIONS.flatMap((transition) =>
  (['absent', ...ORDER_STATES] as Start[]).map((start): [OrderTransitionName, Start] => [transition, start]),
);

describe('order lifecycle: every transition from every state', () => {
  it('walks all transitions of the table', () => {
    expect(TRANSITIONS).toHaveLength(12);
    expect(WALK).toHaveLength(12 * 7);
  });

  it.each(WALK)('%s from %s', async (transition, start) => {
    // Prepare
    const order = newOrder();
    const read = start === 'absent' ? { ...order, tokenHashes: [] } : inState(order, start);
    if (start !== 'absent') await store(read);
    await setBooked(BOOKED_BEFORE);
    const legal = transitionApplies(transition, start === 'absent' ? undefined : start);
    // Act
    const applied = await RUN[transition](read);
    // Assess
    const after = await storedOrder(order);
    expect(applied).toBe(legal);
    if (legal) {
      const to: readonly string[] = ORDER_TRANSITIONS[transition].to;
      expect(to).toContain(after ? orderState(after) : 'deleted');
      expect(await booked()).toEqual({
        booked: BOOKED_BEFORE + SPOT_DELTA[ORDER_TRANSITIONS[transition].spot],
        pendingPayments: BOOKED_BEFORE + pendingPaymentEffect(transition),
      });
    } else {
      expect(after).toEqual(start === 'absent' ? undefined : read);
      expect(await booked()).toEqual(unchanged);
    }
  });
});

const STALE: [OrderTransitionName, OrderState, OrderState][] = TRANSITIONS.filter(
  (transition) => transition !== 'reserve',
).flatMap((transition) => {
  const readIn: OrderState = ORDER_TRANSITIONS[transition].from[0];
  return ORDER_STATES.filter((state) => !transitionApplies(transition, state)).map(
    (storedIn): [OrderTransitionName, OrderState, OrderState] => [transition, readIn, storedIn],
  );
});

describe('order lifecycle: the store refuses a transition whose order moved on since it was read', () => {
  it.each(STALE)('%s read %s, stored %s', async (transition, readIn, storedIn) => {
    // Prepare
    const order = newOrder();
    const read = inState(order, readIn);
    const stored = inState(order, storedIn);
    await store(stored);
    await setBooked(BOOKED_BEFORE);
    // Act
    const applied = await RUN[transition](read);
    // Assess
    expect(applied).toBe(false);
    expect(await storedOrder(order)).toEqual(stored);
    expect(await booked()).toEqual(unchanged);
  });
});
