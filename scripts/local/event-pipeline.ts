import { useDeliveryQueue } from '#lib/adapters/delivery-queue';
import { type RunningChangeStream, startChangeStream } from './change-stream';
import { LocalDeliveryQueue } from './local-delivery-queue';

export interface LocalEventPipeline {
  queue: LocalDeliveryQueue;
  stream: RunningChangeStream;
  /** Resolves once every change written so far is dispatched and every due delivery attempted. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the stack deploys for events, on this machine: DynamoDB Local's stream to the
 * dispatcher function, and a local queue to the delivery worker function; the same handlers
 * Lambda runs. Needs TABLE_NAME and DYNAMODB_ENDPOINT set (applyLocalEnvironment).
 */
export async function startEventPipeline(options: { pollMs?: number; perGroupConcurrency?: number } = {}): Promise<LocalEventPipeline> {
  const [{ handler: dispatch }, { handler: deliver }] = await Promise.all([
    import('../../functions/events/dispatch-events'),
    import('../../functions/events/deliver-webhooks'),
  ]);
  const queue = new LocalDeliveryQueue(deliver, { perGroupConcurrency: options.perGroupConcurrency, pollMs: options.pollMs });
  useDeliveryQueue(queue);
  queue.start();
  const stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME!, handler: dispatch, pollMs: options.pollMs });
  return {
    queue,
    stream,
    async settled() {
      await stream.caughtUp();
      await queue.settled();
    },
    async stop() {
      await stream.stop();
      await queue.stop();
      useDeliveryQueue(undefined);
    },
  };
}
