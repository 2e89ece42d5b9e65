import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseDeliveryMessage } from '#lib/webhooks/adapters/delivery-queue';
import { deliverWebhook } from '#lib/webhooks/deliver-webhooks';
import { loggableError, logger } from '#lib/platform/logger';

/**
 * Queued webhook deliveries, one attempt each, all of a batch at once: a slow endpoint holds
 * only its own message. A message whose attempt could not be recorded is reported failed and
 * comes back after the queue's visibility timeout.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const outcomes = await Promise.all(
    event.Records.map(async (record) => {
      const message = parseDeliveryMessage(record.body);
      if (!message) {
        logger.error('malformed delivery message dropped', { counts: { bytes: record.body.length } });
        return undefined;
      }
      try {
        const outcome = await deliverWebhook(message);
        logger.info('webhook delivery', { subscriptionId: message.subscriptionId, eventId: message.eventId, outcome });
        return undefined;
      } catch (error) {
        logger.error('webhook delivery failed', {
          subscriptionId: message.subscriptionId,
          eventId: message.eventId,
          error: loggableError(error),
        });
        return record.messageId;
      }
    }),
  );
  return {
    batchItemFailures: outcomes
      .filter((id): id is string => id !== undefined)
      .map((itemIdentifier) => ({ itemIdentifier })),
  };
}
