import { parseDeliveryMessage } from '#lib/webhooks/adapters/delivery-queue';
import { deliverWebhook } from '#lib/webhooks/deliver-webhooks';
import { loggableError, logger } from '#lib/platform/logger';
import { sqsBatch } from '#lib/http/triggered';

/**
 * Queued webhook deliveries, one attempt each, all of a batch at once: a slow endpoint holds
 * only its own message. A message whose attempt could not be recorded is reported failed and
 * comes back after the queue's visibility timeout; a malformed one is dropped.
 */
export const handler = sqsBatch(
  async (record) => {
    const message = parseDeliveryMessage(record.body);
    if (!message) {
      logger.error('malformed delivery message dropped', { counts: { bytes: record.body.length } });
      return;
    }
    try {
      const outcome = await deliverWebhook(message);
      logger.info('webhook delivery', { subscriptionId: message.subscriptionId, eventId: message.eventId, outcome });
    } catch (error) {
      logger.error('webhook delivery failed', {
        subscriptionId: message.subscriptionId,
        eventId: message.eventId,
        error: loggableError(error),
      });
      throw error;
    }
  },
  { inParallel: true },
);
