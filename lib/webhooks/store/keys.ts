/**
 * Webhook subscriptions, their delivery logs and the tenant's attempt slots.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** The sort-key prefix of delivery items (a stream record's kind). */
export const DELIVERY_ITEM_PREFIX = 'DELIVERY#';

export const webhookKeys = {
  /** A tenant's webhook subscriptions: one item collection. */
  webhookSubscriptionsOfTenant: (tenantId: string) => `T#${tenantId}#WEBHOOKS`,
  webhookSubscription: (tenantId: string, subscriptionId: string) => ({
    pk: `T#${tenantId}#WEBHOOKS`,
    sk: `SUBSCRIPTION#${subscriptionId}`,
  }),
  /** The delivery log of one subscription: an item per event, newest last (event IDs are ULIDs). */
  deliveriesOfSubscription: (tenantId: string, subscriptionId: string) =>
    `T#${tenantId}#WEBHOOK#${subscriptionId}#DELIVERIES`,
  webhookDelivery: (tenantId: string, subscriptionId: string, eventId: string) => ({
    pk: `T#${tenantId}#WEBHOOK#${subscriptionId}#DELIVERIES`,
    sk: `${DELIVERY_ITEM_PREFIX}${eventId}`,
  }),
  /** A tenant's webhook attempt slots, one item per attempt in flight (lib/webhooks/store/attempt-slots.ts). */
  webhookAttemptSlotsOfTenant: (tenantId: string) => `T#${tenantId}#WEBHOOK_SLOTS`,
  webhookAttemptSlot: (tenantId: string, slot: number) => ({ pk: `T#${tenantId}#WEBHOOK_SLOTS`, sk: `SLOT#${slot}` }),
} as const;
