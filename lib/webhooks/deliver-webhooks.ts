import { now } from '#lib/platform/clock';
import { type DeliveryMessage, QUEUE_MAX_DELAY_SECONDS, deliveryQueue } from '#lib/webhooks/adapters/delivery-queue';
import { postWebhook } from '#lib/webhooks/adapters/webhook-http';
import { getEvent } from '#lib/events/store/outbox';
import { closeDelivery, getDelivery, recordAttempt } from '#lib/webhooks/store/webhook-deliveries';
import { type AttemptSlot, releaseAttemptSlot, takeAttemptSlot } from '#lib/webhooks/store/attempt-slots';
import {
  disableFailingEndpoint,
  getSubscription,
  markEndpointFailing,
  markEndpointHealthy,
} from '#lib/webhooks/store/webhook-subscriptions';
import { DELIVERY_TIMEOUT_MS, endpointFailedTooLong, nextRetryAt } from '#lib/webhooks/rules/delivery-schedule';
import { SLOT_TRIES, SLOT_WAIT, deferralDelayMs } from '#lib/webhooks/rules/delivery-capacity';
import { waitBeforeRetry } from '#lib/platform/backoff';
import { envelopeOf } from '#lib/events/rules/event-catalogue';
import { signatureHeader } from '#lib/webhooks/rules/signature';
import { awaitsAttempt } from '#lib/webhooks/rules/webhook-delivery';
import { checkWebhookUrl } from '#lib/webhooks/rules/address-policy';
import { type WebhookSubscription, openSecret, signingSecrets } from '#lib/webhooks/rules/webhook-subscription';
import { sealingKeyMaterial, webhookAddressMode } from '#lib/webhooks/webhook-settings';
import { loggableError, logger } from '#lib/platform/logger';

/**
 * The delivery worker: one queued message, one attempt. A message that is early (a wait longer
 * than the queue's longest delay) goes back to the queue for the rest of it. A failed attempt
 * is retried by a new message at the next time of the schedule (delivery-schedule.ts) until the
 * retry period is over; an endpoint failing that long is disabled, and the log line that says so
 * raises an alarm. A message for a delivery that is done already (a duplicate) does nothing. A
 * subscription URL the address policy refuses now ends the delivery as failed, without an attempt.
 * An attempt holds one of its tenant's slots while it waits for the endpoint; with the tenant's
 * share in flight, it waits briefly while a slot is likely to free soon, else the message goes
 * back to the queue for a while (rules/delivery-capacity.ts).
 */

export type DeliveryOutcome =
  'delivered' | 'retry_scheduled' | 'failed' | 'gone' | 'not_due' | 'deferred' | 'nothing_to_do';

export async function deliverWebhook(message: DeliveryMessage): Promise<DeliveryOutcome> {
  const delivery = await getDelivery(message.tenantId, message.subscriptionId, message.eventId);
  if (!delivery || !awaitsAttempt(delivery.status)) return 'nothing_to_do';
  const startedAt = now();
  if (delivery.nextAttemptAt > startedAt + 1000) {
    await requeue(message, delivery.nextAttemptAt - startedAt);
    return 'not_due';
  }
  const [subscription, event] = await Promise.all([
    getSubscription(message.tenantId, message.subscriptionId),
    getEvent(message.tenantId, message.galleryToken, message.eventId),
  ]);
  if (!event || !subscription) {
    await closeDelivery(delivery, 'gone');
    return 'gone';
  }
  const attemptNumber = delivery.attempts + 1;
  if (!subscription.enabled) {
    await closeDelivery(delivery, 'failed', {
      attempt: attemptNumber,
      at: new Date(startedAt).toISOString(),
      durationMs: 0,
      failure: 'endpoint_disabled',
    });
    return 'failed';
  }
  // The URL was checked when it was registered; checked again here, an item changed in the table
  // since, or a rule tightened since, cannot make us post to http:// or to a refused address.
  const mode = webhookAddressMode();
  if (!checkWebhookUrl(subscription.url, mode).ok) {
    // The reason sentence is not logged: LOG_FIELDS has no place for it, and the URL it concerns is the tenant's.
    logger.warn('webhook delivery refused: the subscription URL breaks the address policy', {
      tenantId: subscription.tenantId,
      subscriptionId: subscription.subscriptionId,
      eventId: delivery.eventId,
      outcome: 'url_refused',
    });
    await closeDelivery(delivery, 'failed', {
      attempt: attemptNumber,
      at: new Date(startedAt).toISOString(),
      durationMs: 0,
      failure: 'url_refused',
    });
    return 'failed';
  }

  const body = JSON.stringify(envelopeOf(event, subscription.tenantSlug));
  const signature = signatureHeader(
    body,
    await openSigningSecrets(subscription, startedAt),
    Math.floor(startedAt / 1000),
  );
  const slot = await waitForAttemptSlot(subscription);
  if (!slot) {
    const deferrals = message.deferrals ?? 0;
    await requeue({ ...message, deferrals: deferrals + 1 }, deferralDelayMs(deferrals));
    return 'deferred';
  }
  const result = await postWebhook({
    url: subscription.url,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'groupshoot-webhooks/1',
      'Groupshoot-Event-Id': event.eventId,
      'Groupshoot-Event-Type': event.type,
      'Groupshoot-Delivery-Attempt': String(attemptNumber),
      'Groupshoot-Signature': signature,
    },
    mode,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  }).finally(() => giveBackAttemptSlot(slot));
  const finishedAt = now();
  const attempt = {
    attempt: attemptNumber,
    at: new Date(startedAt).toISOString(),
    durationMs: result.durationMs,
    ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
    ...(result.failure ? { failure: result.failure } : {}),
  };
  const roundStartedAt = delivery.roundStartedAt ?? startedAt;

  if (result.delivered) {
    await recordAttempt(delivery, {
      status: 'delivered',
      attempt,
      nextAttemptAt: finishedAt,
      roundStartedAt,
      failed: false,
    });
    if (subscription.failingSince !== undefined)
      await markEndpointHealthy(subscription.tenantId, subscription.subscriptionId);
    return 'delivered';
  }

  const retryAt = nextRetryAt(roundStartedAt, delivery.roundFailures + 1, finishedAt);
  await recordAttempt(delivery, {
    status: retryAt === undefined ? 'failed' : 'pending',
    attempt,
    nextAttemptAt: retryAt ?? finishedAt,
    roundStartedAt,
    failed: true,
  });
  await noteEndpointFailure(subscription, finishedAt);
  if (retryAt === undefined) return 'failed';
  const { deferrals: _deferrals, ...retry } = message;
  await requeue(retry, retryAt - finishedAt);
  return 'retry_scheduled';
}

async function openSigningSecrets(subscription: WebhookSubscription, at: number): Promise<string[]> {
  const key = await sealingKeyMaterial();
  return signingSecrets(subscription.secrets, at).map((secret) =>
    openSecret(secret.sealed, key, subscription.subscriptionId),
  );
}

/** Starts or continues the endpoint's failure streak, and disables it once the streak is too long. */
async function noteEndpointFailure(subscription: WebhookSubscription, at: number): Promise<void> {
  if (subscription.failingSince === undefined) {
    await markEndpointFailing(subscription.tenantId, subscription.subscriptionId, at);
    return;
  }
  if (!endpointFailedTooLong(subscription.failingSince, at)) return;
  if (await disableFailingEndpoint(subscription.tenantId, subscription.subscriptionId, new Date(at).toISOString())) {
    // The stack's alarm watches for exactly this message.
    logger.error('webhook endpoint disabled', {
      tenantId: subscription.tenantId,
      subscriptionId: subscription.subscriptionId,
    });
  }
}

/**
 * A slot of the subscription's tenant, tried again after short random waits for as long as one
 * in the way is likely to free soon, up to 1.3 s (rules/delivery-capacity.ts); undefined
 * when none came free.
 */
async function waitForAttemptSlot(subscription: WebhookSubscription): Promise<AttemptSlot | undefined> {
  for (let tries = 1; ; tries += 1) {
    const answer = await takeAttemptSlot(subscription.tenantId, subscription.subscriptionId, now());
    if (answer.slot) return answer.slot;
    if (!answer.freesSoon || tries >= SLOT_TRIES) return undefined;
    await waitBeforeRetry(tries - 1, SLOT_WAIT);
  }
}

/** Gives the slot back; a failure to do so must not lose the attempt's record, and the slot frees itself in time. */
async function giveBackAttemptSlot(slot: AttemptSlot): Promise<void> {
  try {
    await releaseAttemptSlot(slot);
  } catch (error) {
    logger.warn('webhook attempt slot not given back; it frees itself', {
      tenantId: slot.tenantId,
      error: loggableError(error),
    });
  }
}

async function requeue(message: DeliveryMessage, waitMs: number): Promise<void> {
  await deliveryQueue().send([
    { message, delaySeconds: Math.min(QUEUE_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(waitMs / 1000))) },
  ]);
}
