import { ulid } from 'ulid';
import { now, nowIso } from '#lib/clock';
import { ApiError } from '#lib/errors';
import { createCheckoutSession, expireCheckoutSession } from '#lib/adapters/stripe-payments';
import { addToGalleryCounters } from '#lib/db/gallery-counters';
import {
  type CheckoutTokenPurpose,
  addCheckoutToken,
  SESSION_BEING_REPLACED,
  attachCheckoutSession,
  detachCheckoutSession,
  endPendingOrder,
  findOrderByToken,
  releaseReservation,
  reopenOrder,
  reserveOrder,
} from '#lib/db/orders';
import type { PersonDraft } from '#lib/db/persons';
import type { Tenant } from '#lib/db/tenants';
import type { GalleryPackage } from '#lib/domain/gallery-model';
import { ORDER_STATUS_COUNTER, type Order } from '#lib/domain/order-model';
import { hashSecret, randomBase62 } from '#lib/domain/secrets';
import { logger } from '#lib/http/logger';
import { checkoutReturnUrls, returnUrlOf } from '#lib/payments/checkout-urls';
import { CHECKOUT_SESSION_MINUTES, defaultReturnUrl } from '#lib/payments/payment-settings';

/** Random, opaque, single-purpose; only their SHA-256 is stored. */
function newToken(purpose: CheckoutTokenPurpose): string {
  return `${purpose === 'status' ? 'gst' : 'grt'}_${randomBase62(32)}`;
}

/** Opens a Checkout Session for a pending order and attaches it to the order. */
async function openSession(tenant: Tenant, order: Order, returnUrl: URL, tokens: { statusToken: string; retryToken: string }) {
  const { successUrl, cancelUrl } = checkoutReturnUrls(returnUrl, { tenantSlug: tenant.slug, galleryToken: order.galleryToken, ...tokens });
  const session = await createCheckoutSession({
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
  await attachCheckoutSession(order, session.sessionId, session.url);
  return session;
}

/** Moves an order between the statistics' status counters (after the transition is stored). */
export function countTransition(order: Pick<Order, 'tenantId' | 'galleryToken'>, from: Order['status'] | undefined, to: Order['status']) {
  return addToGalleryCounters(
    { tenantId: order.tenantId, token: order.galleryToken },
    { ...(from ? { [ORDER_STATUS_COUNTER[from]]: -1 } : {}), [ORDER_STATUS_COUNTER[to]]: 1 },
  ).catch((error: Error) => logger.error('order counters not updated', error));
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
}) {
  const { tenant, galleryToken, draft, pkg, accountId, returnUrl } = input;
  const tokens = { statusToken: newToken('status'), retryToken: newToken('retry') };
  const hashes = { status: hashSecret(tokens.statusToken), retry: hashSecret(tokens.retryToken) };
  const createdAt = nowIso();
  const order: Order = {
    orderId: `ord_${ulid().toLowerCase()}`,
    tenantId: tenant.tenantId,
    galleryToken,
    status: 'pending',
    person: draft,
    packageId: pkg.id,
    packageName: pkg.name,
    amount: pkg.price,
    currency: pkg.currency,
    accountId,
    createdAt,
    updatedAt: createdAt,
  };
  await reserveOrder(order, hashes);
  let session;
  try {
    session = await openSession(tenant, order, returnUrl, tokens);
  } catch (error) {
    await releaseReservation(order, hashes);
    throw error;
  }
  await countTransition(order, undefined, 'pending');
  return { orderId: order.orderId, checkoutUrl: session.url, ...tokens, packageName: order.packageName };
}

function tokenOf(body: Record<string, unknown>, member: string): string {
  const value = body[member];
  if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
    throw new ApiError('invalid_field', `${member} is required.`, { details: { field: member } });
  }
  return value.trim();
}

/** `checkinStatus`: where a reservation stands; once paid, the person's ID, code and name. */
export async function checkinStatus(tenant: Tenant, body: Record<string, unknown>) {
  const order = await findOrderByToken(hashSecret(tokenOf(body, 'statusToken')), 'status', tenant.tenantId);
  if (!order) throw new ApiError('invalid_checkout_token');
  return {
    orderId: order.orderId,
    status: order.status,
    packageName: order.packageName,
    ...(order.status === 'paid' ? { personId: order.person.personId, code: order.code, name: order.person.name } : {}),
  };
}

/**
 * `retryCheckout`: a fresh Checkout Session for the same reservation. A pending order's open
 * session is expired first, so it can never be paid twice; an expired or canceled order takes
 * its spot again, or gets shooting_day_full. Answers like a paid check-in, with a new status token.
 */
export async function retryCheckout(tenant: Tenant, body: Record<string, unknown>) {
  const retryToken = tokenOf(body, 'retryToken');
  const order = await findOrderByToken(hashSecret(retryToken), 'retry', tenant.tenantId);
  if (!order) throw new ApiError('invalid_checkout_token');
  if (order.status === 'paid') throw new ApiError('order_already_paid');
  const returnUrl = returnUrlOf(body.returnUrl, defaultReturnUrl());
  const previousStatus = order.status;
  if (previousStatus === 'pending' && order.sessionId && order.sessionId !== SESSION_BEING_REPLACED) {
    if (!(await detachCheckoutSession(order, order.sessionId))) throw new ApiError('storage_unavailable', 'The reservation changed meanwhile; retry.');
    const oldSession = order.sessionId;
    // Stripe unreachable: the old session stays the order's, so its expiry still frees the spot.
    const outcome = await expireCheckoutSession(order.accountId, oldSession).catch(async (error: unknown) => {
      await attachCheckoutSession(order, oldSession, order.checkoutUrl ?? '');
      throw error;
    });
    // A session paid meanwhile still completes the order through its webhook.
    if (outcome === 'complete') throw new ApiError('order_already_paid');
  }
  if (previousStatus !== 'pending') await reopenOrder(order);
  const reopened: Order = { ...order, status: 'pending', sessionId: previousStatus === 'pending' ? SESSION_BEING_REPLACED : order.sessionId };
  const statusToken = newToken('status');
  await addCheckoutToken(reopened, 'status', hashSecret(statusToken));
  let session;
  try {
    session = await openSession(tenant, reopened, returnUrl, { statusToken, retryToken });
  } catch (error) {
    // No session can complete or expire the order now: end it and give the spot back.
    const ended = await endPendingOrder(reopened, reopened.sessionId ?? '', previousStatus === 'pending' ? 'expired' : previousStatus).catch(
      () => false,
    );
    if (ended && previousStatus === 'pending') await countTransition(order, 'pending', 'expired');
    throw error;
  }
  if (previousStatus !== 'pending') await countTransition(order, previousStatus, 'pending');
  return { orderId: order.orderId, checkoutUrl: session.url, statusToken, retryToken, packageName: order.packageName };
}

