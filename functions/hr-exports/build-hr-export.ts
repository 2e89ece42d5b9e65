import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { buildQueuedHrExports } from '#lib/hr-exports/build-hr-export';

/** The HR export queue's worker: each message one export to build; a failed build comes back later, until its last attempt. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const records = event.Records.map((record) => ({
    messageId: record.messageId,
    body: record.body,
    receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
  }));
  const failed = await buildQueuedHrExports(records);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
