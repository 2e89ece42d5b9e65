import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now, nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { paymentKeys } from '#lib/payments/store/keys';
import { withStoreRetries } from '#lib/platform/table/retry';

/** Handled Stripe events are remembered beyond Stripe's three days of redeliveries. */
const STRIPE_EVENT_LIFETIME_SECONDS = 7 * 24 * 3600;

/**
 * Whether a Stripe event was handled already. Only an event whose handling completed is
 * remembered (handledAt): handling is idempotent by the orders' conditional transitions, so a
 * redelivery of an event whose handling failed, or overlapped another delivery, is handled again.
 */
export async function stripeEventHandled(eventId: string): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: paymentKeys.stripeEvent(eventId) }));
  return typeof Item?.handledAt === 'string';
}

/** Remembers a handled Stripe event; Stripe retries deliveries for up to three days. */
export async function rememberStripeEvent(eventId: string): Promise<void> {
  await withStoreRetries(() =>
    db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...paymentKeys.stripeEvent(eventId),
          handledAt: nowIso(),
          expiresAt: Math.floor(now() / 1000) + STRIPE_EVENT_LIFETIME_SECONDS,
        },
      }),
    ),
  );
}
