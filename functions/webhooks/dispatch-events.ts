import { changeRecordsOf } from '#lib/events/adapters/stream-records';
import { loggableError, logger } from '#lib/platform/logger';
import { dispatchChangeRecords } from '#lib/webhooks/dispatch-events';
import { streamBatchAsOne } from '#lib/http/triggered';

/**
 * The table's stream (filtered by the stack to new events and replay requests) to queued
 * webhook deliveries. The batch is one unit (each tenant's subscriptions read once, the
 * deliveries queued in one call): a failure sends the whole batch again; the dispatch is idempotent.
 */
export const handler = streamBatchAsOne(async (streamRecords) => {
  const records = changeRecordsOf({ Records: streamRecords });
  try {
    await dispatchChangeRecords(records);
  } catch (error) {
    logger.error('event dispatch failed', { counts: { records: records.length }, error: loggableError(error) });
    throw error;
  }
});
