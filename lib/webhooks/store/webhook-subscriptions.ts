import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { webhookKeys } from '#lib/webhooks/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import type { SealedSecret, WebhookSubscription } from '#lib/webhooks/rules/webhook-subscription';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';
import { EVENT_TYPES } from '#lib/events/rules/event-catalogue';

/** A tenant's webhook subscriptions: one item collection per tenant (webhookKeys.webhookSubscription). */

/** A subscription's item, in its tenant's collection. */
function toSubscriptionItem(subscription: WebhookSubscription): StoredItem {
  return { ...webhookKeys.webhookSubscription(subscription.tenantId, subscription.subscriptionId), ...subscription };
}

const subscriptionItemSchema = v.object({
  subscriptionId: v.string(),
  tenantId: v.string(),
  tenantSlug: v.string(),
  url: v.string(),
  eventTypes: v.array(v.picklist([...EVENT_TYPES, '*'])),
  enabled: v.boolean(),
  secrets: v.array(v.object({ sealed: v.string(), addedAt: v.string(), expiresAt: v.optional(v.string()) })),
  description: v.nullable(v.string()),
  createdAt: v.string(),
  failingSince: v.optional(v.number()),
  disabledAt: v.optional(v.string()),
  disabledReason: v.optional(v.picklist(['failing', 'by_admin'])),
});

/** The subscription an item holds; a CorruptItemError when it holds none. */
export function fromSubscriptionItem(item: StoredItem): WebhookSubscription {
  return parseItem('webhook subscription', subscriptionItemSchema, item);
}

export async function putSubscription(subscription: WebhookSubscription): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: toSubscriptionItem(subscription),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getSubscription(
  tenantId: string,
  subscriptionId: string,
): Promise<WebhookSubscription | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: webhookKeys.webhookSubscription(tenantId, subscriptionId) }),
  );
  return Item ? fromSubscriptionItem(Item) : undefined;
}

export async function listSubscriptions(tenantId: string): Promise<WebhookSubscription[]> {
  return (await queryPartition(webhookKeys.webhookSubscriptionsOfTenant(tenantId))).map(fromSubscriptionItem);
}

/**
 * One conditional update of a subscription: true when it applied, false when its condition
 * failed (no such subscription, or not in the state the update expects).
 */
function updateSubscription(
  tenantId: string,
  subscriptionId: string,
  update: {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeValues?: Record<string, unknown>;
  },
): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: webhookKeys.webhookSubscription(tenantId, subscriptionId),
          ...update,
        }),
      ),
    () => false,
  );
}

export async function deleteSubscription(tenantId: string, subscriptionId: string): Promise<boolean> {
  const { Attributes } = await db.send(
    new DeleteCommand({
      TableName: tableName,
      Key: webhookKeys.webhookSubscription(tenantId, subscriptionId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

const existing = 'attribute_exists(pk)';

/** Enables (forgetting any failure streak) or disables a subscription; false when there is none. */
export function setSubscriptionEnabled(
  tenantId: string,
  subscriptionId: string,
  enabled: boolean,
  at: string,
  reason: 'failing' | 'by_admin' = 'by_admin',
): Promise<boolean> {
  return updateSubscription(
    tenantId,
    subscriptionId,
    enabled
      ? {
          UpdateExpression: 'SET enabled = :true REMOVE failingSince, disabledAt, disabledReason',
          ConditionExpression: existing,
          ExpressionAttributeValues: { ':true': true },
        }
      : {
          UpdateExpression: 'SET enabled = :false, disabledAt = :at, disabledReason = :reason',
          ConditionExpression: existing,
          ExpressionAttributeValues: { ':false': false, ':at': at, ':reason': reason },
        },
  );
}

/**
 * Disables an endpoint that has failed for too long; true only for the call that disabled it
 * (so the alarm's log line is written once).
 */
export function disableFailingEndpoint(tenantId: string, subscriptionId: string, at: string): Promise<boolean> {
  return updateSubscription(tenantId, subscriptionId, {
    UpdateExpression: 'SET enabled = :false, disabledAt = :at, disabledReason = :failing',
    ConditionExpression: `${existing} AND enabled = :true`,
    ExpressionAttributeValues: { ':false': false, ':true': true, ':at': at, ':failing': 'failing' },
  });
}

/** Notes the start of a failure streak (kept when one is running). */
export async function markEndpointFailing(tenantId: string, subscriptionId: string, at: number): Promise<void> {
  await updateSubscription(tenantId, subscriptionId, {
    UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :at)',
    ConditionExpression: existing,
    ExpressionAttributeValues: { ':at': at },
  });
}

/** Ends a failure streak: the endpoint answered. */
export async function markEndpointHealthy(tenantId: string, subscriptionId: string): Promise<void> {
  await updateSubscription(tenantId, subscriptionId, {
    UpdateExpression: 'REMOVE failingSince',
    ConditionExpression: 'attribute_exists(failingSince)',
  });
}

/** Replaces the signing secrets (a rotation); false when there is no such subscription. */
export function replaceSigningSecrets(
  tenantId: string,
  subscriptionId: string,
  secrets: SealedSecret[],
): Promise<boolean> {
  return updateSubscription(tenantId, subscriptionId, {
    UpdateExpression: 'SET secrets = :secrets',
    ConditionExpression: existing,
    ExpressionAttributeValues: { ':secrets': secrets },
  });
}
