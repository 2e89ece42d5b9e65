import { changeRecordsOf } from '#lib/events/adapters/stream-records';
import { describeReferenceFace, personsToDescribe } from '#lib/faces/reference-faces';
import { loggableError, logger } from '#lib/platform/logger';
import { streamBatch } from '#lib/http/triggered';

/**
 * The table's stream (filtered by the stack to person items with a selfie and face consent)
 * to reference faces. A failure stops the batch at that person's record, so it and the records
 * after it come again; describing a person again stores the same.
 */
export const handler = streamBatch(() => async (record) => {
  for (const { scope, personId } of personsToDescribe(changeRecordsOf({ Records: [record] }))) {
    try {
      const outcome = await describeReferenceFace(scope, personId);
      logger.info('reference face described', { personId, outcome });
    } catch (error) {
      logger.error('reference face not described', { personId, error: loggableError(error) });
      throw error;
    }
  }
});
