import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { batchResponse, changeRecordsOf } from '#lib/events/adapters/stream-records';
import { loggableError, logger } from '#lib/platform/logger';
import { dispatchChangeRecords } from '#lib/webhooks/dispatch-events';

/**
 * The table's stream (filtered by the stack to new events and replay requests) to queued
 * webhook deliveries. A failure reports the batch's first record, so the whole batch is tried
 * again from there; the dispatch is idempotent.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const records = changeRecordsOf(event);
  try {
    await dispatchChangeRecords(records);
    return batchResponse(undefined);
  } catch (error) {
    logger.error('event dispatch failed', { counts: { records: records.length }, error: loggableError(error) });
    return batchResponse(event.Records[0]?.dynamodb?.SequenceNumber);
  }
}
