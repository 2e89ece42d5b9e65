import { now } from '#lib/platform/clock';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';
import { parseRetentionMessage } from '#lib/privacy/adapters/retention-queues';
import { applyGalleryRetention, emptyRetentionTally } from '#lib/privacy/retention';

/** A queued message as the worker receives it. */
export interface QueuedRecord {
  messageId: string;
  body: string;
}

/**
 * The retention worker: applies each queued gallery's retention, one after another, and answers
 * the IDs of the messages whose gallery failed. The queue hands those back later (the next
 * attempt finishes what this one left: what is gone already costs a read), and after a few
 * attempts moves them to its dead-letter queue, which alarms; the other galleries never wait for them.
 */
export async function retainQueuedGalleries(
  records: readonly QueuedRecord[],
  nowMs: number = now(),
): Promise<string[]> {
  const failed: string[] = [];
  for (const record of records) {
    const message = parseRetentionMessage(record.body, 'gallery');
    if (!message) {
      // Never valid on a later attempt either: to the dead-letter queue, where an operator sees it.
      logger.error('malformed retention message', { counts: { bytes: record.body.length } });
      failed.push(record.messageId);
      continue;
    }
    const fields = { tenantId: message.tenantId, gallery: galleryRef(message.token) };
    try {
      const tally = emptyRetentionTally();
      await applyGalleryRetention({ tenantId: message.tenantId, token: message.token }, nowMs, tally);
      logger.info('gallery retention applied', { ...fields, counts: tally });
    } catch (error) {
      logger.error('gallery retention failed', { ...fields, error: loggableError(error) });
      failed.push(record.messageId);
    }
  }
  return failed;
}
