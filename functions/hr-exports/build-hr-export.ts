import { buildQueuedHrExport } from '#lib/hr-exports/build-hr-export';
import { sqsBatch } from '#lib/http/triggered';

/** The HR export queue's worker: each message one export to build, one after another; a failed build comes back later, until its last attempt. */
export const handler = sqsBatch(
  (record) =>
    buildQueuedHrExport({
      messageId: record.messageId,
      body: record.body,
      receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
    }),
  { inParallel: false },
);
