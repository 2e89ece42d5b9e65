import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type ChangeRecord, dispatchChangeRecords } from '#lib/events/dispatch-events';
import { loggableError, logger } from '#lib/logger';

type Image = Parameters<typeof unmarshall>[0];

/**
 * The table's stream (filtered by the stack to new events and replay requests) to queued
 * webhook deliveries. A failure reports the batch's first record, so the whole batch is tried
 * again from there; the dispatch is idempotent.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const records: ChangeRecord[] = event.Records.map((record) => ({
    eventName: record.eventName!,
    newImage: record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Image) : undefined,
  }));
  try {
    await dispatchChangeRecords(records);
    return { batchItemFailures: [] };
  } catch (error) {
    logger.error('event dispatch failed', { counts: { records: records.length }, error: loggableError(error) });
    const first = event.Records[0]?.dynamodb?.SequenceNumber;
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
}
