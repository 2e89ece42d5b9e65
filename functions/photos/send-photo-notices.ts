import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type NoticeRecord, sendPhotoNotices } from '#lib/photos/photo-notices';

type Image = Parameters<typeof unmarshall>[0];

/**
 * The table's stream (filtered by the stack to photos.assigned event items, new or counted up)
 * to photo-ready emails. The first record that failed is reported, so it and the records after
 * it come again; the ones before it are done.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const records: NoticeRecord[] = event.Records.map((record, index) => ({
    id: record.dynamodb?.SequenceNumber ?? String(index),
    eventName: record.eventName!,
    newImage: record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Image) : undefined,
  }));
  const { failedRecordId } = await sendPhotoNotices(records);
  return { batchItemFailures: failedRecordId === undefined ? [] : [{ itemIdentifier: failedRecordId }] };
}
