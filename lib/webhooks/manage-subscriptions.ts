import { ulid } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { now, nowIso } from '#lib/platform/clock';
import { resolveWebhookHost } from '#lib/webhooks/adapters/webhook-http';
import { listDeliveries, requestReplay } from '#lib/webhooks/store/webhook-deliveries';
import { putSubscription, replaceSigningSecrets } from '#lib/webhooks/store/webhook-subscriptions';
import { checkWebhookUrl } from '#lib/webhooks/rules/address-policy';
import type { EventType } from '#lib/events/rules/event-catalogue';
import { newSigningSecret } from '#lib/webhooks/rules/signature';
import {
  DEFAULT_ROTATION_GRACE_HOURS,
  type WebhookSubscription,
  sealSecret,
  signingSecrets,
} from '#lib/webhooks/rules/webhook-subscription';
import { sealingKeyMaterial, webhookAddressMode } from '#lib/webhooks/webhook-settings';

/**
 * Managing a tenant's webhook subscriptions (the admin CLI's `webhook` commands). A signing
 * secret exists in clear only in the answer to the call that made it; the table holds it sealed.
 */

/** A URL the service will not send to: the reason says why, for the operator. */
export class WebhookUrlRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WebhookUrlRefused';
  }
}

/**
 * Checks a URL as subscriptions require: https (http only for localhost on the local stack), no
 * credentials, and, outside the local stack, a host whose every address is public.
 */
export async function checkSubscriptionUrl(raw: string): Promise<URL> {
  const mode = webhookAddressMode();
  const verdict = checkWebhookUrl(raw, mode);
  if (!verdict.ok) throw new WebhookUrlRefused(verdict.reason);
  try {
    await resolveWebhookHost(verdict.url, mode);
  } catch (error) {
    throw new WebhookUrlRefused(
      (error as { reason?: string }).reason ?? `The host ${verdict.url.hostname} could not be resolved`,
    );
  }
  return verdict.url;
}

export async function createSubscription(input: {
  tenant: { tenantId: string; slug: string };
  url: string;
  eventTypes: (EventType | '*')[];
  description?: string;
}): Promise<{ subscription: WebhookSubscription; secret: string }> {
  const url = await checkSubscriptionUrl(input.url);
  const subscriptionId = `whk_${ulid(now(), pooledRandomFraction).toLowerCase()}`;
  const secret = newSigningSecret();
  const createdAt = nowIso();
  const subscription: WebhookSubscription = {
    subscriptionId,
    tenantId: input.tenant.tenantId,
    tenantSlug: input.tenant.slug,
    url: url.toString(),
    eventTypes: input.eventTypes,
    enabled: true,
    secrets: [{ sealed: sealSecret(secret, await sealingKeyMaterial(), subscriptionId), addedAt: createdAt }],
    description: input.description ?? null,
    createdAt,
  };
  await putSubscription(subscription);
  return { subscription, secret };
}

/**
 * A new signing secret; the current one keeps signing beside it for `graceHours`, so receivers
 * can switch without rejecting a delivery. Secrets whose grace ended are dropped.
 */
export async function rotateSigningSecret(
  subscription: WebhookSubscription,
  graceHours = DEFAULT_ROTATION_GRACE_HOURS,
): Promise<{ secret: string; previousValidUntil: string }> {
  const at = now();
  const previousValidUntil = new Date(at + graceHours * 3_600_000).toISOString();
  const kept = signingSecrets(subscription.secrets, at).map((secret) => ({
    ...secret,
    expiresAt: secret.expiresAt ?? previousValidUntil,
  }));
  const secret = newSigningSecret();
  const sealed = {
    sealed: sealSecret(secret, await sealingKeyMaterial(), subscription.subscriptionId),
    addedAt: new Date(at).toISOString(),
  };
  await replaceSigningSecrets(subscription.tenantId, subscription.subscriptionId, [...kept, sealed]);
  return { secret, previousValidUntil };
}

/** Sends one delivery again (any status but waiting); false when there is none, or it is waiting already. */
export function replayDelivery(subscription: WebhookSubscription, eventId: string): Promise<boolean> {
  return requestReplay(subscription.tenantId, subscription.subscriptionId, eventId, now());
}

/** Sends every failed delivery of the subscription again; how many were asked for. */
export async function replayFailedDeliveries(subscription: WebhookSubscription): Promise<number> {
  const failed = await listDeliveries(subscription.tenantId, subscription.subscriptionId, {
    status: 'failed',
    limit: 10_000,
  });
  let replayed = 0;
  for (const delivery of failed) {
    if (await requestReplay(subscription.tenantId, subscription.subscriptionId, delivery.eventId, now())) replayed += 1;
  }
  return replayed;
}
