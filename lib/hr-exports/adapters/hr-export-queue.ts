import { optionalEnv, requireEnv } from '#lib/platform/config';

/**
 * The queue of HR exports to build. In AWS an SQS queue with a dead-letter queue
 * (infra/hr-export-queue.ts), HR_EXPORT_QUEUE_URL; the local stack installs a queue of its own
 * with the same contract (useHrExportQueue), as it does for the retention run.
 */

export interface HrExportMessage {
  tenantId: string;
  token: string;
  exportId: string;
}

export interface HrExportQueue {
  send(message: HrExportMessage): Promise<void>;
}

let installed: HrExportQueue | undefined;

/** Replaces the SQS queue (the local stack's queue, tests); answers the one it replaced, to put back. */
export function useHrExportQueue(queue: HrExportQueue | undefined): HrExportQueue | undefined {
  const replaced = installed;
  installed = queue;
  return replaced;
}

export function hrExportQueue(): HrExportQueue {
  return installed ?? (installed = sqsHrExportQueue());
}

function sqsHrExportQueue(): HrExportQueue {
  const client = import('@aws-sdk/client-sqs').then(
    ({ SQSClient }) => new SQSClient({ endpoint: optionalEnv('SQS_ENDPOINT') }),
  );
  return {
    async send(message) {
      const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
      await (
        await client
      ).send(
        new SendMessageCommand({ QueueUrl: requireEnv('HR_EXPORT_QUEUE_URL'), MessageBody: JSON.stringify(message) }),
      );
    },
  };
}

/** A message's body as the queue carries it; undefined when it is not an HR export message. */
export function parseHrExportMessage(body: string): HrExportMessage | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const { tenantId, token, exportId } = parsed;
    return [tenantId, token, exportId].every((field) => typeof field === 'string' && field !== '')
      ? ({ tenantId, token, exportId } as HrExportMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
