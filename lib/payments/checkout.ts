import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { now, nowIso } from '#lib/platform/clock';
import { createCheckoutSession, expireCheckoutSession } from '#lib/payments/adapters/stripe-payments';
import { addToGalleryCounters } from '#lib/galleries/store/gallery-counters';
import { type CheckoutTokenPurpose, addCheckoutToken, findOrderByToken } from '#lib/payments/store/checkout-tokens';
import {
  LiveReservationOfEmail,
  abandonSessionReplacement,
  attachCheckoutSession,
  removeReservation,
  reopenOrder,
  reserveOrder,
} from '#lib/payments/store/order-transitions';
import { getOrder, isRedacted } from '#lib/payments/store/orders';
import type {
  CheckinStatusInput,
  CheckoutStarted,
  OrderStatus,
  RetryCheckoutInput,
} from '#lib/payments/payment-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryPackage } from '#lib/galleries/rules/gallery-model';
import { ORDER_STATUS_COUNTER } from '#lib/payments/rules/order-lifecycle';
import { type Invitee, type Order, paidPersonId } from '#lib/payments/rules/order-model';
import type { PersonDraft } from '#lib/persons/rules/person-model';
import { pendingPaymentsCap, publicLimitsOf } from '#lib/galleries/rules/public-limits';
import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import { hashSecret, pooledRandomFraction, randomBase62 } from '#lib/platform/secret-values';
import { loggableError, logger } from '#lib/platform/logger';
import { checkoutReturnUrls, returnUrlOf } from '#lib/payments/checkout-urls';
import { CHECKOUT_SESSION_MINUTES } from '#lib/payments/payment-settings';
import { takeOverSession } from '#lib/payments/session-replacement';
import { takeStripeCheckin } from '#lib/payments/stripe-call-limit';

/** Random, opaque, single-purpose; only their SHA-256 is stored. */
function newToken(purpose: CheckoutTokenPurpose): string {
  return `${purpose === 'status' ? 'gst' : 'grt'}_${randomBase62(32)}`;
}

/**
 * Opens a Checkout Session for a pending order and attaches it to the order (with `claim`: the
 * retry replacing the order's session). Should either fail, `undo` gives the reservation's
 * state back (it never throws), and a session that could not be attached is expired again:
 * nobody was given it, and should the undo have failed too, its expiry event ends the
 * reservation instead.
 */
async function openSession(
  tenant: Tenant,
  order: Order,
  returnUrl: URL,
  tokens: { statusToken: string; retryToken: string },
  undo: () => Promise<void>,
  claim?: string,
) {
  const { successUrl, cancelUrl } = checkoutReturnUrls(returnUrl, {
    tenantSlug: tenant.slug,
    galleryToken: order.galleryToken,
    ...tokens,
  });
  let session;
  try {
    session = await createCheckoutSession({
      accountId: order.accountId,
      orderId: order.orderId,
      tenantId: order.tenantId,
      galleryToken: order.galleryToken,
      packageName: order.packageName,
      amount: order.amount,
      currency: order.currency,
      applicationFeeAmount: Math.round((order.amount * tenant.platformFeeBps) / 10_000),
      customerEmail: order.person.email ?? '',
      successUrl,
      cancelUrl,
      expiresAtSeconds: Math.floor(now() / 1000) + CHECKOUT_SESSION_MINUTES * 60,
    });
  } catch (error) {
    await undo();
    throw error;
  }
  try {
    await attachCheckoutSession(order, session.sessionId, session.url, claim);
  } catch (error) {
    await undo();
    await expireCheckoutSession(order.accountId, session.sessionId).catch((cleanup: Error) =>
      logger.error('unattached Checkout Session not expired; it ends at its expires_at', {
        sessionId: session.sessionId,
        error: loggableError(cleanup),
      }),
    );
    throw error;
  }
  return session;
}

/**
 * Ends the reservation an email address still has waiting for payment, so that the address's
 * new check-in replaces it: its session is expired at Stripe (order_already_paid if it was paid
 * meanwhile), then the order ends as expired and gives its spot back.
 */
async function supersedeReservation(tenant: Tenant, galleryToken: string, orderId: string): Promise<void> {
  const earlier = await getOrder(tenant.tenantId, galleryToken, orderId);
  // Ended meanwhile (a redacted order has ended too): its hold went with it.
  if (!earlier || isRedacted(earlier) || earlier.status !== 'pending') return;
  const claim = randomUUID();
  await takeOverSession(earlier, claim);
  if (await abandonSessionReplacement(earlier, claim, 'expired')) await countTransition(earlier, 'pending', 'expired');
  logger.info('reservation replaced by a new check-in of the same email address', { orderId });
}

/** Moves an order between the statistics' status counters (after the transition is stored). */
export function countTransition(
  order: Pick<Order, 'tenantId' | 'galleryToken'>,
  from: Order['status'] | undefined,
  to: Order['status'],
) {
  return addToGalleryCounters(
    { tenantId: order.tenantId, token: order.galleryToken },
    { ...(from ? { [ORDER_STATUS_COUNTER[from]]: -1 } : {}), [ORDER_STATUS_COUNTER[to]]: 1 },
  ).catch((error: Error) => logger.error('order counters not updated', { error: loggableError(error) }));
}

/**
 * A check-in with a paid package: the participant's data and day spot are held in a pending
 * order, a Checkout Session on the tenant's connected account is opened, and the hosted
 * checkout URL is answered with a status and a retry token. Should Stripe fail, the
 * reservation and its spot are released again (502 payment_provider_unavailable).
 */
export async function startPaidCheckin(input: {
  tenant: Tenant;
  galleryToken: string;
  draft: PersonDraft;
  pkg: GalleryPackage;
  accountId: string;
  returnUrl: URL;
  /** The cap of reservations waiting for payment on the chosen day (none without a capacity). */
  pendingPaymentsCap?: number;
  /** The imported person the check-in named (importedOnly galleries): paying completes it. */
  invitee?: Invitee;
}) {
  const { tenant, galleryToken, draft, pkg, accountId, returnUrl } = input;
  const tokens = { statusToken: newToken('status'), retryToken: newToken('retry') };
  const hashes = { status: hashSecret(tokens.statusToken), retry: hashSecret(tokens.retryToken) };
  const createdAt = nowIso();
  const order: Order = {
    orderId: `ord_${ulid(undefined, pooledRandomFraction).toLowerCase()}`,
    tenantId: tenant.tenantId,
    galleryToken,
    status: 'pending',
    person: draft,
    packageId: pkg.id,
    packageName: pkg.name,
    amount: pkg.price,
    currency: pkg.currency,
    accountId,
    ...(input.invitee ? { invitee: input.invitee } : {}),
    createdAt,
    updatedAt: createdAt,
  };
  const reserved = await reserveOrder(order, hashes, input.pendingPaymentsCap).catch(async (error: Error) => {
    if (!(error instanceof LiveReservationOfEmail)) throw error;
    // One live reservation per email address and gallery: a new check-in replaces the earlier one.
    await supersedeReservation(tenant, galleryToken, error.orderId);
    return reserveOrder(order, hashes, input.pendingPaymentsCap);
  });
  // Nobody holds this reservation's tokens yet: a failure undoes it whole. Should DynamoDB fail
  // that too, the expiry of the order's session (expired at once, or at expires_at) undoes it.
  const undo = () =>
    removeReservation(reserved, 'undoReservation').then(
      () => undefined,
      (error: Error) =>
        logger.error('reservation not released; the expiry of its session releases it', {
          orderId: order.orderId,
          error: loggableError(error),
        }),
    );
  const session = await openSession(tenant, order, returnUrl, tokens, undo);
  await countTransition(order, undefined, 'pending');
  return { orderId: order.orderId, checkoutUrl: session.url, ...tokens, packageName: order.packageName };
}

/** The gallery's limits that apply to a reservation, and the cap of pending payments on its day. */
async function reservationLimits(tenant: Tenant, order: Order) {
  const configuration = await findGalleryConfiguration(tenant.tenantId, order.galleryToken);
  const limits = publicLimitsOf(configuration?.gallery.publicLimits);
  const day = configuration?.shootingDays.find((candidate) => candidate.id === order.person.shootingDayId);
  return { limits, pendingPaymentsCap: pendingPaymentsCap(limits, day?.maxPersons) };
}

/** What the payment actions answer: a Checkout Session to go to, or the order's status. */
export type PaymentAnswer = ResultMembers<typeof CheckoutStarted | typeof OrderStatus>;

/** `checkinStatus`: where a reservation stands; once paid, the person's ID, code and name. */
export async function checkinStatus(tenant: Tenant, request: CheckinStatusInput): Promise<PaymentAnswer> {
  const order = await findOrderByToken(hashSecret(request.statusToken), 'status', tenant.tenantId);
  if (!order) throw new DomainError('unknown_checkout_token');
  return {
    orderId: order.orderId,
    status: order.status,
    packageName: order.packageName,
    ...(order.status === 'paid'
      ? { personId: paidPersonId(order), code: order.code, name: order.completedName ?? order.person.name }
      : {}),
  };
}

/**
 * `retryCheckout`: a fresh Checkout Session for the same reservation. A pending order is
 * claimed by the retry (its session `replacing`, the replaced one remembered) and its open
 * session expired first, so it can never be paid twice; an expired or canceled order takes its
 * spot again, or gets shooting_day_full. Every write is recognised as the retry's own when a
 * lost answer makes the SDK resend it. Answers like a paid check-in, with a new status token.
 */
export async function retryCheckout(tenant: Tenant, request: RetryCheckoutInput): Promise<PaymentAnswer> {
  const { retryToken } = request;
  const order = await findOrderByToken(hashSecret(retryToken), 'retry', tenant.tenantId);
  if (!order) throw new DomainError('unknown_checkout_token');
  if (order.status === 'paid') throw new DomainError('order_already_paid');
  const { limits, pendingPaymentsCap } = await reservationLimits(tenant, order);
  if ((order.retries ?? 0) >= limits.retriesPerOrder) {
    throw new DomainError(
      'retry_limit_reached',
      `A reservation can be retried ${limits.retriesPerOrder} times; check in again instead.`,
    );
  }
  const returnUrl = returnUrlOf(request.returnUrl, tenant);
  await takeStripeCheckin();
  const previousStatus = order.status;
  // This retry's claim on the order: its session is being replaced by this request.
  const claim = randomUUID();
  if (previousStatus === 'pending') {
    await takeOverSession(order, claim);
  } else {
    await reopenOrder(order, claim, pendingPaymentsCap);
    await countTransition(order, previousStatus, 'pending');
  }
  const reopened: Order = { ...order, status: 'pending', sessionId: undefined };
  // No session can complete or expire the order until the new one is attached: should that
  // fail, the order ends (expired, or as it was) and gives its spot back.
  const endStatus = previousStatus === 'pending' ? 'expired' : previousStatus;
  const undo = async () => {
    const ended = await abandonSessionReplacement(reopened, claim, endStatus).catch((error: Error) => {
      logger.error('retried reservation not ended; the expiry of its sessions ends it', {
        orderId: order.orderId,
        error: loggableError(error),
      });
      return false;
    });
    if (ended) await countTransition(order, 'pending', endStatus);
  };
  const statusToken = newToken('status');
  try {
    await addCheckoutToken(reopened, 'status', hashSecret(statusToken));
  } catch (error) {
    await undo();
    throw error;
  }
  const session = await openSession(tenant, reopened, returnUrl, { statusToken, retryToken }, undo, claim);
  return { orderId: order.orderId, checkoutUrl: session.url, statusToken, retryToken, packageName: order.packageName };
}
