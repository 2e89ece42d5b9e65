import { optionalEnv, requireEnv } from '#lib/platform/config';

/**
 * The queue of webhook deliveries: one message per attempt to make, delayed until it is due.
 * In AWS an SQS queue (DelaySeconds up to 15 minutes; a longer wait is made of several hops,
 * see lib/webhooks/deliver-webhooks.ts) with the tenant as message group, so that SQS fair
 * queues keep one tenant's backlog from delaying the others' messages. The local stack installs
 * its own queue with the same contract (useDeliveryQueue).
 */

/** What a message names; the event's content stays in the table, out of the queue. */
export interface DeliveryMessage {
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  galleryToken: string;
  /** How often this attempt found its tenant's share in flight and went back to the queue (rules/delivery-capacity.ts). */
  deferrals?: number;
}

export interface QueuedDelivery {
  message: DeliveryMessage;
  /** 0 to QUEUE_MAX_DELAY_SECONDS. */
  delaySeconds: number;
}

export interface DeliveryQueue {
  send(deliveries: readonly QueuedDelivery[]): Promise<void>;
}

/** SQS's longest message delay. */
export const QUEUE_MAX_DELAY_SECONDS = 900;
const SQS_BATCH = 10;

let installed: DeliveryQueue | undefined;

/** Replaces the SQS queue (the local stack's queue, tests). */
export function useDeliveryQueue(queue: DeliveryQueue | undefined): void {
  installed = queue;
}

export function deliveryQueue(): DeliveryQueue {
  return installed ?? (installed = sqsDeliveryQueue(requireEnv('WEBHOOK_QUEUE_URL')));
}

function sqsDeliveryQueue(queueUrl: string): DeliveryQueue {
  // Loaded on first use: only the event functions send to the queue.
  const client = import('@aws-sdk/client-sqs').then(
    ({ SQSClient }) => new SQSClient({ endpoint: optionalEnv('SQS_ENDPOINT') }),
  );
  return {
    async send(deliveries) {
      const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
      const sqs = await client;
      for (let start = 0; start < deliveries.length; start += SQS_BATCH) {
        const batch = deliveries.slice(start, start + SQS_BATCH);
        const { Failed } = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map(({ message, delaySeconds }, index) => ({
              Id: String(index),
              MessageBody: JSON.stringify(message),
              DelaySeconds: Math.max(0, Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil(delaySeconds))),
              MessageGroupId: message.tenantId,
            })),
          }),
        );
        if (Failed && Failed.length > 0)
          throw new Error(`SQS refused ${Failed.length} of ${batch.length} delivery messages`);
      }
    },
  };
}

/** A message's body as the queue carries it; undefined when it is not one. */
export function parseDeliveryMessage(body: string): DeliveryMessage | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<DeliveryMessage>;
    const fields = [parsed.tenantId, parsed.subscriptionId, parsed.eventId, parsed.galleryToken];
    if (!fields.every((field) => typeof field === 'string' && field !== '')) return undefined;
    if (parsed.deferrals !== undefined && !(Number.isSafeInteger(parsed.deferrals) && parsed.deferrals >= 0))
      return undefined;
    return parsed as DeliveryMessage;
  } catch {
    return undefined;
  }
}
