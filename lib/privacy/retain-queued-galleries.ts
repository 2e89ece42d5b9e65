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
 * The retention worker's step: applies one queued gallery's retention, and throws when it fails,
 * so that the queue hands the message back later (the next attempt finishes what this one left:
 * what is gone already costs a read), and after a few attempts moves it to its dead-letter
 * queue, which alarms; the other galleries never wait for it.
 */
export async function retainQueuedGallery(record: QueuedRecord, nowMs: number = now()): Promise<void> {
  const message = parseRetentionMessage(record.body, 'gallery');
  if (!message) {
    // Never valid on a later attempt either: to the dead-letter queue, where an operator sees it.
    logger.error('malformed retention message', { counts: { bytes: record.body.length } });
    throw new MalformedMessageError();
  }
  const fields = { tenantId: message.tenantId, gallery: galleryRef(message.token) };
  try {
    const tally = emptyRetentionTally();
    await applyGalleryRetention({ tenantId: message.tenantId, token: message.token }, nowMs, tally);
    logger.info('gallery retention applied', { ...fields, counts: tally });
  } catch (error) {
    logger.error('gallery retention failed', { ...fields, error: loggableError(error) });
    throw error;
  }
}

/** A message that is no retention message; it fails every attempt. */
class MalformedMessageError extends Error {
  constructor() {
    super('Malformed retention message');
    this.name = 'MalformedMessageError';
  }
}
