import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { now } from '#lib/platform/clock';
import { ExtraConditionFailed, drawCodes, writePersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { type CheckoutTokenPurpose, checkoutTokenItem } from '#lib/payments/store/checkout-tokens';
import { db, tableName } from '#lib/platform/table/client';
import {
  CONTENDED_RETRIES,
  type TransactItem,
  conditionFailedAt,
  conditionalWrite,
  itemAt,
  transact,
} from '#lib/platform/table/conditional-writes';
import { type SpotTaking, giveBackSpot, settlePendingPayment, withSpotTaken } from '#lib/galleries/store/day-bookings';
import { eventPut } from '#lib/events/store/outbox';
import { paymentKeys } from '#lib/payments/store/keys';
import { orderPointerDeletes, orderPointerPuts } from '#lib/payments/store/order-pointers';
import {
  type OrderChange,
  type StoredOrder,
  fromOrderItem,
  fromStatesCondition,
  getOrder,
  orderKey,
  toOrderItem,
  transitionUpdate,
} from '#lib/payments/store/orders';
import type { StoredItem } from '#lib/platform/table/item-schema';
import { DomainError } from '#lib/platform/domain-error';
import { emailKey } from '#lib/platform/email-address';
import { checkinCompleted, orderEnded, orderPaid } from '#lib/events/rules/event-catalogue';
import {
  ORDER_TRANSITIONS,
  type OrderTransitionName,
  REPLACEMENT_ABANDONED_MS,
  orderState,
  pendingPaymentEffect,
} from '#lib/payments/rules/order-lifecycle';
import { type Invitee, type Order, reservationSpotDay } from '#lib/payments/rules/order-model';
import { getPerson } from '#lib/persons/store/persons';
import { importedCompletionItems } from '#lib/persons/store/imported-completion';
import { completedPerson } from '#lib/persons/rules/imported-completion';
import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import { withStoreRetries } from '#lib/platform/table/retry';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * The transitions of the order lifecycle (lib/payments/rules/order-lifecycle.ts), each one conditional
 * write or transaction admitted only in the transition's `from` states. The day's spot moves
 * in the same transaction as the order (take, give back), as the transition table says.
 */

const scopeOf = (order: Pick<Order, 'tenantId' | 'galleryToken'>) => ({
  tenantId: order.tenantId,
  token: order.galleryToken,
});
const scopeOfEvents = (order: Pick<Order, 'tenantId' | 'galleryToken'>) => ({
  tenantId: order.tenantId,
  galleryToken: order.galleryToken,
});
const changedMeanwhile = () => new DomainError('reservation_changed', 'The reservation changed meanwhile; retry.');

/**
 * The day items a transition writes with the order, if the order has a day: its spot given
 * back, and its count of pending payments moved, as the transition table says. A transition
 * that takes a spot takes it with withOrderSpot.
 */
function spotItems(order: Order, transition: OrderTransitionName): TransactItem[] {
  const day = reservationSpotDay(order);
  if (!day) return [];
  const hold = { pending: pendingPaymentEffect(transition) !== 0 };
  switch (ORDER_TRANSITIONS[transition].spot) {
    case 'take':
      throw new Error(`${transition} takes a spot: write it with withOrderSpot`);
    case 'give_back':
      return [giveBackSpot(scopeOf(order), day, hold)];
    default:
      return pendingPaymentEffect(transition) === -1 ? [settlePendingPayment(scopeOf(order), day)] : [];
  }
}

/**
 * The one reservation an email address may have waiting for payment in a gallery: taken with a
 * transition into pending (refused while another order of the address holds it), given back
 * with every transition out of it.
 */
function emailHoldItems(order: Order, transition: OrderTransitionName): TransactItem[] {
  if (!order.person.email) return [];
  const Key = paymentKeys.liveReservationOfEmail(order.tenantId, order.galleryToken, emailKey(order.person.email));
  const ours = {
    ConditionExpression: 'attribute_not_exists(pk) OR orderId = :orderId',
    ExpressionAttributeValues: { ':orderId': order.orderId },
  };
  switch (pendingPaymentEffect(transition)) {
    case 1:
      return [
        {
          Put: {
            TableName: tableName,
            Item: { ...Key, orderId: order.orderId },
            ...ours,
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ];
    case -1:
      return [{ Delete: { TableName: tableName, Key, ...ours } }];
    default:
      return [];
  }
}

/** The items a transition writes beside the order: its day's spot and pending payments, and its email's hold. */
function companionItems(order: Order, transition: OrderTransitionName): TransactItem[] {
  return [...spotItems(order, transition), ...emailHoldItems(order, transition)];
}

/**
 * Runs a transition that takes a spot of the order's day (reserve, reopen) with the spot's
 * items, from one of the day's counters with room (withSpotTaken), or with none when the order
 * has no day. `pendingPaymentsCap`: the day's cap of reservations waiting for payment.
 */
function withOrderSpot<T>(
  order: Order,
  transition: OrderTransitionName,
  pendingPaymentsCap: number | undefined,
  write: (taking: SpotTaking | undefined) => Promise<T>,
): Promise<T> {
  const day = reservationSpotDay(order);
  if (!day) return write(undefined);
  const hold = { pending: pendingPaymentEffect(transition) !== 0, pendingPaymentsCap };
  return withSpotTaken(scopeOf(order), day, undefined, hold, (taking) => write(taking));
}

/** The refusal of the spot's items, when one of them (from `first` in the transaction) failed its condition. */
function spotRefusalIn(error: unknown, taking: SpotTaking | undefined, first: number): DomainError | undefined {
  if (!taking) return undefined;
  for (let index = 0; index < taking.items.length; index += 1) {
    if (conditionFailedAt(error, first + index)) return taking.refusal(index, itemAt(error, first + index));
  }
  return undefined;
}

/** Another order of the same email address is waiting for payment in the gallery. */
export class LiveReservationOfEmail extends Error {
  constructor(readonly orderId: string) {
    super(`Order ${orderId} of this email address is waiting for payment`);
    this.name = 'LiveReservationOfEmail';
  }
}

/** One conditional update of the order; `ours` recognises this very update when a lost answer made the SDK resend it. */
async function updateOrder(
  order: Order,
  transition: OrderTransitionName,
  change: OrderChange,
  ours: (item: StoredItem | undefined) => boolean,
) {
  return conditionalWrite(() => db.send(new UpdateCommand(transitionUpdate(order, transition, change))), ours);
}

/**
 * The order, its spot moved, in one transaction; false when the order was not in a `from` state
 * (and guard). An order that ends unpaid reports it (order.expired, order.canceled) in the same transaction.
 */
async function transactTransition(
  order: Order,
  transition: OrderTransitionName,
  change: OrderChange,
): Promise<boolean> {
  const ended =
    change.status === 'expired' || change.status === 'canceled' ? [eventPut(orderEnded(order, change.status))] : [];
  try {
    await transact([
      { Update: transitionUpdate(order, transition, change) },
      ...companionItems(order, transition),
      ...ended,
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}

/**
 * reserve: stores a pending reservation with its two token hashes and takes its day's spot, in
 * one transaction: shooting_day_full when the day is at capacity, pending_payments_limit when
 * `pendingPaymentsCap` reservations of the day wait for payment. No session is attached yet.
 */
export async function reserveOrder(
  order: Order,
  tokenHashes: Record<CheckoutTokenPurpose, string>,
  pendingPaymentsCap?: number,
): Promise<StoredOrder> {
  const issuedAt = Date.parse(order.createdAt);
  const tokenItems: TransactItem[] = (Object.entries(tokenHashes) as [CheckoutTokenPurpose, string][]).map(
    ([purpose, hash]) => ({
      Put: {
        TableName: tableName,
        Item: checkoutTokenItem(order, purpose, hash, issuedAt),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
  );
  const stored: StoredOrder = { ...order, tokenHashes: Object.values(tokenHashes) };
  return withOrderSpot(order, 'reserve', pendingPaymentsCap, (taking) =>
    reserveWithSpot(order, stored, tokenItems, taking),
  );
}

async function reserveWithSpot(
  order: Order,
  stored: StoredOrder,
  tokenItems: TransactItem[],
  taking: SpotTaking | undefined,
): Promise<StoredOrder> {
  const spots = taking?.items ?? [];
  const spotIndex = 1 + tokenItems.length;
  const holdIndex = spotIndex + spots.length;
  try {
    await transact(
      [
        {
          Put: {
            TableName: tableName,
            Item: toOrderItem(stored),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...tokenItems,
        ...spots,
        ...emailHoldItems(order, 'reserve'),
        ...orderPointerPuts(scopeOf(order), order.orderId, order.person),
      ],
      taking ? taking.retry : undefined,
    );
    return stored;
  } catch (error) {
    const refusal = spotRefusalIn(error, taking, spotIndex);
    if (refusal) throw refusal;
    if (conditionFailedAt(error, holdIndex))
      throw new LiveReservationOfEmail(String(itemAt(error, holdIndex)?.orderId));
    throw error;
  }
}

/**
 * undoReservation (the failed check-in's own undo: reserved or open) or releaseUnattached (the
 * expiry of a session of a check-in that failed half-way: reserved only): removes the order and
 * its tokens and gives its spot back. False when there was nothing to remove.
 */
export async function removeReservation(
  order: StoredOrder,
  transition: 'undoReservation' | 'releaseUnattached',
): Promise<boolean> {
  const from = fromStatesCondition(transition);
  try {
    await transact([
      {
        Delete: {
          TableName: tableName,
          Key: orderKey(order),
          ConditionExpression: from.expression,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: from.values,
        },
      },
      ...(order.tokenHashes ?? []).map((hash) => ({
        Delete: { TableName: tableName, Key: paymentKeys.checkoutToken(hash) },
      })),
      ...companionItems(order, transition),
      ...orderPointerDeletes(scopeOf(order), order.orderId, order.person),
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}

/**
 * attachSession (a fresh reservation) or, with `claim`, attachReplacement (the retry that claimed
 * the order): the new Checkout Session becomes the order's. reservation_changed otherwise.
 */
export async function attachCheckoutSession(
  order: Order,
  sessionId: string,
  checkoutUrl: string,
  claim?: string,
): Promise<void> {
  const attached = await updateOrder(
    order,
    claim ? 'attachReplacement' : 'attachSession',
    {
      set: { sessionId, checkoutUrl },
      ...(claim
        ? {
            remove: ['replacingBy', 'replacedSessionId'],
            guard: { expression: 'replacingBy = :claim', values: { ':claim': claim } },
          }
        : {}),
    },
    (item) => item?.status === 'pending' && item.sessionId === sessionId,
  );
  if (!attached) throw changedMeanwhile();
}

/**
 * claimReplacement: a retry (`claim`) takes a pending order over for replacing its session. An
 * open order's session becomes the replaced one, so its expiry (which Stripe sends for a manual
 * expiry too) ends nothing; an order an earlier, failed retry left replacing is taken over as
 * it is. False when the order is no longer as it was read.
 */
export async function claimSessionReplacement(order: StoredOrder, claim: string): Promise<boolean> {
  const open = orderState(order) === 'open';
  const seen = open ? order.sessionId : order.replacingBy;
  if (seen === undefined) return false; // read neither open nor replacing: nothing to claim
  return updateOrder(
    order,
    'claimReplacement',
    {
      set: { replacingBy: claim, ...(open ? { replacedSessionId: seen } : {}) },
      add: { retries: 1 },
      ...(open ? { remove: ['sessionId'] } : {}),
      guard: { expression: open ? 'sessionId = :seen' : 'replacingBy = :seen', values: { ':seen': seen } },
    },
    (item) => item?.status === 'pending' && item.replacingBy === claim,
  );
}

/**
 * restoreSession: gives a pending order back the session this retry unhooked from it (Stripe
 * could not expire it), so that session's expiry still frees the spot. False when the order changed meanwhile.
 */
export async function restoreReplacedSession(
  order: Order,
  sessionId: string,
  checkoutUrl: string | undefined,
  claim: string,
): Promise<boolean> {
  return updateOrder(
    order,
    'restoreSession',
    {
      set: { sessionId, ...(checkoutUrl ? { checkoutUrl } : {}) },
      remove: ['replacingBy', 'replacedSessionId'],
      guard: { expression: 'replacingBy = :claim', values: { ':claim': claim } },
    },
    (item) => item?.status === 'pending' && item.sessionId === sessionId,
  );
}

/**
 * pay: turns a paid reservation into its person (or completes its invitee, see payOrderCompletingInvitee). Person, code and the order's status are
 * written in one transaction conditioned on the order still being pending; the spot was held
 * since the reservation. 'already' when another delivery of the same payment got there first;
 * the mark `paidBy` tells this call's own transaction (its answer lost) from another delivery's.
 * The same transaction records checkin.completed and order.paid (person.created comes with the person).
 */
export async function payOrder(order: Order): Promise<PaidOrder | 'already'> {
  if (order.invitee) {
    const completed = await payOrderCompletingInvitee(order, order.invitee);
    if (completed !== 'taken') return completed;
  }
  const attempt = randomUUID();
  const paidByThisCall = (
    stored: Pick<StoredOrder, 'status' | 'paidBy' | 'code'> | undefined,
  ): PaidOrder | 'already' =>
    stored?.status === 'paid' && stored.paidBy === attempt && stored.code !== undefined
      ? { person: { ...order.person, code: stored.code } }
      : 'already';
  try {
    const written = await writePersonsWithCodes(scopeOf(order), drawCodes([order.person], new Set()), {
      extraItems: ([person]) => [
        { Update: transitionUpdate(order, 'pay', { status: 'paid', set: { code: person!.code, paidBy: attempt } }) },
        ...companionItems(order, 'pay'),
        eventPut(checkinCompleted(scopeOfEvents(order), person!, order.orderId)),
        eventPut(orderPaid(order, person!.personId)),
      ],
      retry: CONTENDED_RETRIES,
      attempt,
    });
    if (written.outcome === 'written') return { person: written.persons[0]! };
    // The person ID is the order's, and only this transition writes it: the person exists, so the order is paid.
    return paidByThisCall(await getOrder(order.tenantId, order.galleryToken, order.orderId));
  } catch (error) {
    if (error instanceof ExtraConditionFailed && error.extraIndex === 0)
      return paidByThisCall(error.item && fromOrderItem(error.item));
    throw error;
  }
}

/** What pay made of an order: its person, and where it completed an invitee, the invitee as it was before. */
export interface PaidOrder {
  person: Person;
  invitee?: Person;
}

/**
 * pay for an order whose check-in named an invitee (importedOnly galleries): the invitee is
 * completed with what the check-in gave, in one transaction with the order, on the condition that
 * nobody checked it in meanwhile (nor holds a free check-in's claim on it). Where the reservation
 * holds a spot of its own, the spot the import booked goes back. 'taken': the invitee checked in
 * meanwhile or was erased, so the payment creates a person, as in an open gallery.
 */
async function payOrderCompletingInvitee(order: Order, invitee: Invitee): Promise<PaidOrder | 'already' | 'taken'> {
  const scope = scopeOf(order);
  const [imported, configuration] = await Promise.all([
    getPerson(scope, invitee.personId, { consistent: true }),
    findGalleryConfiguration(order.tenantId, order.galleryToken),
  ]);
  if (!imported || imported.source !== 'import' || imported.checkedInAt !== undefined) return 'taken';
  const completed = completedPerson(imported, order.person);
  const bookedDay = imported.shootingDayId;
  const leftDay =
    reservationSpotDay(order) !== null && bookedDay && configuration?.shootingDays.some((day) => day.id === bookedDay)
      ? [giveBackSpot(scope, bookedDay)]
      : [];
  const attempt = randomUUID();
  const items: TransactItem[] = [
    {
      Update: transitionUpdate(order, 'pay', {
        status: 'paid',
        set: {
          code: imported.code,
          paidBy: attempt,
          completedPersonId: imported.personId,
          completedName: completed.name,
        },
      }),
    },
    ...importedCompletionItems(scope, completed, {
      expression:
        '#source = :import AND attribute_not_exists(checkedInAt) AND (attribute_not_exists(checkinClaimUntil) OR checkinClaimUntil < :now)',
      values: { ':import': 'import', ':now': now() },
      names: { '#source': 'source' },
    }),
    ...companionItems(order, 'pay'),
    ...leftDay,
    eventPut(checkinCompleted(scopeOfEvents(order), completed, order.orderId)),
    eventPut(orderPaid(order, imported.personId)),
  ];
  try {
    // The attempt as the request token: a resend after a lost answer is applied once, and answered as the first send.
    await withStoreRetries(
      () => db.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: attempt })),
      CONTENDED_RETRIES,
    );
    return { person: completed, invitee: imported };
  } catch (error) {
    if (conditionFailedAt(error, 0)) return 'already'; // another delivery of the payment got there first
    if (conditionFailedAt(error, 1)) return 'taken';
    throw error;
  }
}

/**
 * expire or cancel: ends a pending reservation whose session expired (or whose payment failed)
 * and gives its spot back. Only for the order's current session, so an older session's expiry
 * after a retry changes nothing; or for an order a retry is replacing, unless it is the replaced
 * session's expiry while that retry may still be running. False when there was nothing to end.
 */
export async function endPendingOrder(
  order: Order,
  sessionId: string,
  transition: 'expire' | 'cancel',
): Promise<boolean> {
  return transactTransition(order, transition, {
    status: transition === 'expire' ? 'expired' : 'canceled',
    remove: ['replacingBy'],
    guard: {
      expression:
        'sessionId = :session OR (attribute_exists(replacingBy) AND ' +
        '(attribute_not_exists(replacedSessionId) OR replacedSessionId <> :session OR updatedAt < :abandoned))',
      values: { ':session': sessionId, ':abandoned': new Date(now() - REPLACEMENT_ABANDONED_MS).toISOString() },
    },
  });
}

/**
 * abandonReplacement: ends a pending order whose retry (`claim`) failed before a new session
 * was attached: no session can complete or expire it now. `status`: what it was before the retry.
 */
export async function abandonSessionReplacement(
  order: Order,
  claim: string,
  status: 'expired' | 'canceled',
): Promise<boolean> {
  return transactTransition(order, 'abandonReplacement', {
    status,
    remove: ['replacingBy'],
    guard: { expression: 'replacingBy = :claim', values: { ':claim': claim } },
  });
}

/**
 * reopen: takes the spot of an expired or canceled reservation again, making it pending and
 * claimed by this retry (`claim`) for its new session: shooting_day_full when taken,
 * pending_payments_limit when the day is at its cap of pending payments.
 */
export function reopenOrder(order: StoredOrder, claim: string, pendingPaymentsCap?: number): Promise<void> {
  return withOrderSpot(order, 'reopen', pendingPaymentsCap, (taking) => reopenWithSpot(order, claim, taking));
}

async function reopenWithSpot(order: StoredOrder, claim: string, taking: SpotTaking | undefined): Promise<void> {
  const replaces = order.sessionId;
  const spots = taking?.items ?? [];
  try {
    await transact(
      [
        {
          Update: transitionUpdate(order, 'reopen', {
            status: 'pending',
            set: { replacingBy: claim, ...(replaces ? { replacedSessionId: replaces } : {}) },
            add: { retries: 1 },
            remove: ['sessionId'],
            guard: { expression: '#status = :previous', values: { ':previous': order.status } },
          }),
        },
        ...spots,
        ...emailHoldItems(order, 'reopen'),
      ],
      taking ? taking.retry : undefined,
    );
  } catch (error) {
    const refusal = spotRefusalIn(error, taking, 1);
    if (refusal) throw refusal;
    if (conditionFailedAt(error, 1 + spots.length)) throw new DomainError('reservation_exists');
    if (conditionFailedAt(error, 0)) {
      const stored = itemAt(error, 0);
      // This very transaction, applied already (its answer lost).
      if (stored?.status === 'pending' && stored.replacingBy === claim) return;
      throw changedMeanwhile();
    }
    throw error;
  }
}
