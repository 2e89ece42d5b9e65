import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { batchResponse, changeRecordsOf } from '#lib/events/adapters/stream-records';
import { sendPhotoNotices } from '#lib/photos/send-photo-notices';

/**
 * The table's stream (filtered by the stack to photos.assigned event items, new or counted up)
 * to photo-ready emails. The first record that failed is reported, so it and the records after
 * it come again; the ones before it are done.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const { failedRecordId } = await sendPhotoNotices(changeRecordsOf(event));
  return batchResponse(failedRecordId);
}
