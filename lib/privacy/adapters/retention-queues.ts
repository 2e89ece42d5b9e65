import { optionalEnv, requireEnv } from '#lib/platform/config';

/**
 * The two queues of the retention run. In AWS, SQS queues with a dead-letter queue
 * (infra/retention-fan-out.ts): RETENTION_QUEUE_URL holds one message per gallery, for the
 * worker; RETENTION_PLAN_QUEUE_URL holds the planner's continuation, where a planner run cut
 * off by its time limit left off. The local stack installs its own queues with the same
 * contract (useRetentionQueues), as it does for webhook deliveries.
 */

/** One gallery whose retention is to be applied. */
export interface GalleryRetentionMessage {
  kind: 'gallery';
  tenantId: string;
  token: string;
}

/** Where the planner goes on: an opaque cursor of lib/privacy/plan-retention.ts. */
export interface PlanContinuationMessage {
  kind: 'plan';
  cursor: string;
}

export type RetentionMessage = GalleryRetentionMessage | PlanContinuationMessage;

export interface RetentionQueues {
  send(messages: readonly RetentionMessage[]): Promise<void>;
}

const SQS_BATCH = 10;

let installed: RetentionQueues | undefined;

/** Replaces the SQS queues (the local stack's queues, tests). */
export function useRetentionQueues(queues: RetentionQueues | undefined): void {
  installed = queues;
}

export function retentionQueues(): RetentionQueues {
  return installed ?? (installed = sqsRetentionQueues());
}

function sqsRetentionQueues(): RetentionQueues {
  const client = import('@aws-sdk/client-sqs').then(
    ({ SQSClient }) => new SQSClient({ endpoint: optionalEnv('SQS_ENDPOINT') }),
  );
  const queueUrl = (kind: RetentionMessage['kind']) =>
    requireEnv(kind === 'gallery' ? 'RETENTION_QUEUE_URL' : 'RETENTION_PLAN_QUEUE_URL');
  return {
    async send(messages) {
      const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
      const sqs = await client;
      for (const kind of ['gallery', 'plan'] as const) {
        const ofKind = messages.filter((message) => message.kind === kind);
        for (let start = 0; start < ofKind.length; start += SQS_BATCH) {
          const batch = ofKind.slice(start, start + SQS_BATCH);
          const entries = batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) }));
          const { Failed } = await sqs.send(
            new SendMessageBatchCommand({ QueueUrl: queueUrl(kind), Entries: entries }),
          );
          if (Failed && Failed.length > 0)
            throw new Error(`SQS refused ${Failed.length} of ${batch.length} retention messages`);
        }
      }
    },
  };
}

/** A message's body as a queue carries it; undefined when it is not one of the given kind. */
export function parseRetentionMessage<K extends RetentionMessage['kind']>(
  body: string,
  kind: K,
): Extract<RetentionMessage, { kind: K }> | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const fields = kind === 'gallery' ? [parsed.tenantId, parsed.token] : [parsed.cursor];
    return parsed.kind === kind && fields.every((field) => typeof field === 'string' && field !== '')
      ? (parsed as unknown as Extract<RetentionMessage, { kind: K }>)
      : undefined;
  } catch {
    return undefined;
  }
}
