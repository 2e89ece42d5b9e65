import type { Order, OrderStatus } from '#lib/payments/rules/order-model';

/**
 * The lifecycle of a payment reservation (an order), as a state machine. The API shows an
 * order's `status`; the lifecycle tells three pending states apart:
 * - reserved: stored with its token hashes, the day's spot taken, no Checkout Session yet;
 * - open: a Checkout Session is attached;
 * - replacing: a retry is replacing the session (claimed by that retry);
 * - paid: the person and its code exist; final;
 * - expired / canceled: the session expired unpaid / the asynchronous payment failed; the
 *   spot was given back, and a retry may reopen the order.
 * docs/payments.md draws the diagram. lib/payments/store/order-transitions.ts carries each transition out
 * as one conditional write whose condition admits exactly the transition's `from` states.
 */
export type OrderState = 'reserved' | 'open' | 'replacing' | 'paid' | 'expired' | 'canceled';

export const ORDER_STATES = [
  'reserved',
  'open',
  'replacing',
  'paid',
  'expired',
  'canceled',
] as const satisfies readonly OrderState[];

/** What a transition does to the day's spot: takes it, gives it back, or leaves it as it is. */
export type SpotEffect = 'take' | 'give_back' | 'keep';

export interface OrderTransition {
  /** The states it applies in; empty: it creates the order. */
  readonly from: readonly OrderState[];
  /** The state it leads to; 'deleted': the order and its tokens are removed. */
  readonly to: readonly (OrderState | 'deleted')[];
  readonly spot: SpotEffect;
  /** What causes it. */
  readonly trigger: string;
}

export const ORDER_TRANSITIONS = {
  reserve: { from: [], to: ['reserved'], spot: 'take', trigger: 'submitCheckin with a package that requires payment' },
  attachSession: { from: ['reserved'], to: ['open'], spot: 'keep', trigger: 'the first Checkout Session was created' },
  undoReservation: {
    from: ['reserved', 'open'],
    to: ['deleted'],
    spot: 'give_back',
    trigger: 'the check-in failed after reserving, before anybody was given its tokens',
  },
  releaseUnattached: {
    from: ['reserved'],
    to: ['deleted'],
    spot: 'give_back',
    trigger: 'a session of a check-in that failed half-way, and could not undo itself, expired',
  },
  claimReplacement: {
    from: ['open', 'replacing'],
    to: ['replacing'],
    spot: 'keep',
    trigger: 'retryCheckout of a pending order',
  },
  attachReplacement: {
    from: ['replacing'],
    to: ['open'],
    spot: 'keep',
    trigger: "the retry's new Checkout Session was created",
  },
  restoreSession: {
    from: ['replacing'],
    to: ['open'],
    spot: 'keep',
    trigger: 'the retry could not expire the session it replaces',
  },
  abandonReplacement: {
    from: ['replacing'],
    to: ['expired', 'canceled'],
    spot: 'give_back',
    trigger: 'the retry failed before a new session was attached',
  },
  pay: {
    from: ['reserved', 'open', 'replacing'],
    to: ['paid'],
    spot: 'keep',
    trigger: 'checkout.session.completed (paid) or checkout.session.async_payment_succeeded',
  },
  expire: { from: ['open', 'replacing'], to: ['expired'], spot: 'give_back', trigger: 'checkout.session.expired' },
  cancel: {
    from: ['open', 'replacing'],
    to: ['canceled'],
    spot: 'give_back',
    trigger: 'checkout.session.async_payment_failed',
  },
  reopen: {
    from: ['expired', 'canceled'],
    to: ['replacing'],
    spot: 'take',
    trigger: 'retryCheckout of an expired or canceled order',
  },
} as const satisfies Record<string, OrderTransition>;

export type OrderTransitionName = keyof typeof ORDER_TRANSITIONS;

/** Whether an order in this state holds a spot as a reservation waiting for payment. */
export function holdsPendingPayment(state: OrderState | 'deleted' | undefined): boolean {
  return state === 'reserved' || state === 'open' || state === 'replacing';
}

/**
 * What a transition does to the day's count of pending payments: +1 where an order starts
 * waiting for payment, -1 where it stops (paid, ended or removed), 0 between pending states.
 */
export function pendingPaymentEffect(name: OrderTransitionName): -1 | 0 | 1 {
  const transition: OrderTransition = ORDER_TRANSITIONS[name];
  const before = holdsPendingPayment(transition.from[0]);
  const after = holdsPendingPayment(transition.to[0]);
  return before === after ? 0 : after ? 1 : -1;
}

/** Whether the transition applies to an order in this state (undefined: no order yet). */
export function transitionApplies(name: OrderTransitionName, state: OrderState | undefined): boolean {
  const from: readonly OrderState[] = ORDER_TRANSITIONS[name].from;
  return state === undefined ? from.length === 0 : from.includes(state);
}

/** The status the API shows for a state. */
export function statusOfState(state: OrderState): OrderStatus {
  return state === 'reserved' || state === 'open' || state === 'replacing' ? 'pending' : state;
}

/** Where a retry stands while it replaces an order's session (the `replacing` state). */
export interface SessionReplacement {
  /** The retry's claim: only that retry may end the replacement. */
  replacingBy?: string;
  /** The session being replaced, if the order had one: its expiry must not end the order meanwhile. */
  replacedSessionId?: string;
}

/** The lifecycle state of a stored order. */
export function orderState(order: Pick<Order, 'status' | 'sessionId'> & SessionReplacement): OrderState {
  if (order.status !== 'pending') return order.status;
  if (order.replacingBy !== undefined) return 'replacing';
  return order.sessionId !== undefined ? 'open' : 'reserved';
}

/** Status and retry tokens stay usable for 30 days. */
export const CHECKOUT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;

/**
 * A retry that has been replacing an order's session for this long has ended (functions time
 * out after 29 s): it failed half-way, and the expiry of any of the order's sessions may end
 * the order, the replaced one included.
 */
export const REPLACEMENT_ABANDONED_MS = 2 * 60 * 1000;

/** Counter of the gallery statistics for each status. */
export const ORDER_STATUS_COUNTER = {
  pending: 'ordersPending',
  paid: 'ordersPaid',
  expired: 'ordersExpired',
  canceled: 'ordersCanceled',
} as const satisfies Record<OrderStatus, string>;
