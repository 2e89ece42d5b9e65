import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { batchResponse, changeRecordsOf } from '#lib/events/adapters/stream-records';
import { describeReferenceFace, personsToDescribe } from '#lib/faces/reference-faces';
import { loggableError, logger } from '#lib/platform/logger';

/**
 * The table's stream (filtered by the stack to person items with a selfie and face consent)
 * to reference faces. A failure reports that person's record, so it and the records after it
 * come again; describing a person again stores the same.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const { id, scope, personId } of personsToDescribe(changeRecordsOf(event))) {
    try {
      const outcome = await describeReferenceFace(scope, personId);
      logger.info('reference face described', { personId, outcome });
    } catch (error) {
      logger.error('reference face not described', { personId, error: loggableError(error) });
      return batchResponse(id);
    }
  }
  return batchResponse(undefined);
}
