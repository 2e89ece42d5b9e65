import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { retainQueuedGalleries } from '#lib/privacy/retain-queued-galleries';

/** The retention queue's worker: each message one gallery's retention; a failed gallery comes back later, alone. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = await retainQueuedGalleries(event.Records);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
