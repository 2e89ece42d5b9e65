import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { EVENT_TYPES, type EventType, isEventType } from '#lib/events/rules/event-catalogue';

/**
 * A tenant's webhook subscription: where its events go, which types, and the secrets their
 * signatures are made with. Secrets are stored sealed (AES-256-GCM under a key derived from the
 * deployment's sealing key and bound to the subscription), never in clear: the table alone
 * gives nobody a secret to forge signatures with.
 */
export interface WebhookSubscription {
  subscriptionId: string;
  tenantId: string;
  /** The tenant's slug, as envelopes name the tenant. */
  tenantSlug: string;
  url: string;
  /** The types it receives; `*` for all. */
  eventTypes: (EventType | '*')[];
  enabled: boolean;
  secrets: SealedSecret[];
  description: string | null;
  createdAt: string;
  /** Since when (ms) every attempt has failed; absent while the endpoint answers. */
  failingSince?: number;
  disabledAt?: string;
  disabledReason?: 'failing' | 'by_admin';
}

export interface SealedSecret {
  sealed: string;
  addedAt: string;
  /** A rotated-out secret signs until then (ISO), so receivers can switch without a gap. */
  expiresAt?: string;
}

/** How long a rotated-out secret keeps signing, unless the rotation says otherwise. */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;

export function subscribesTo(
  subscription: Pick<WebhookSubscription, 'eventTypes' | 'enabled'>,
  type: EventType,
): boolean {
  return subscription.enabled && (subscription.eventTypes.includes('*') || subscription.eventTypes.includes(type));
}

/** `all`, or a comma-separated list of event types; throws with the known types on anything else. */
export function parseEventTypes(list: string): (EventType | '*')[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('all') || names.includes('*')) return ['*'];
  const unknown = names.filter((name) => !isEventType(name));
  if (unknown.length > 0)
    throw new Error(`Unknown event type ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')} (or all)`);
  return [...new Set(names)] as EventType[];
}

/** The secrets that sign at `at`: the current one and any rotated-out one still in its grace period. */
export function signingSecrets(secrets: readonly SealedSecret[], at: number): SealedSecret[] {
  return secrets.filter((secret) => secret.expiresAt === undefined || Date.parse(secret.expiresAt) > at);
}

const SEAL_VERSION = 'v1';

function sealingKey(keyMaterial: string, subscriptionId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', keyMaterial, 'groupshoot-webhook-secrets', subscriptionId, 32));
}

/** A signing secret sealed for storage in the subscription `subscriptionId`. */
export function sealSecret(secret: string, keyMaterial: string, subscriptionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(keyMaterial, subscriptionId), iv);
  cipher.setAAD(Buffer.from(subscriptionId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    SEAL_VERSION,
    iv.toString('base64url'),
    sealed.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The secret sealSecret sealed; throws when the key or the subscription is not the one it was sealed with. */
export function openSecret(sealed: string, keyMaterial: string, subscriptionId: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !body || !tag) throw new Error('Not a sealed webhook secret');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    sealingKey(keyMaterial, subscriptionId),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(subscriptionId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
