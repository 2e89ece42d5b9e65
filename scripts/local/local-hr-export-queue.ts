import { useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { HR_EXPORT_MAX_RECEIVES } from '#lib/hr-exports/rules/hr-export-model';
import { LocalWorkQueue } from './local-retention-queues';

/** What the stack sets (infra/hr-export-queue.ts): receives before the dead-letter queue; a failed build is tried again a minute later. */
export const LOCAL_HR_EXPORT_QUEUE = { maxReceives: HR_EXPORT_MAX_RECEIVES, visibilityTimeoutMs: 60_000 } as const;

export interface HrExportPipeline {
  queue: LocalWorkQueue;
  /** Resolves once every queued export was built (or failed for good). */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * The HR export queue as the stack wires it, in this process: the create use case's messages go
 * to a local queue whose consumer is the builder's handler (functions/hr-exports/build-hr-export.ts).
 */
export async function startHrExportPipeline(
  options: { queue?: { maxReceives: number; visibilityTimeoutMs: number } } = {},
): Promise<HrExportPipeline> {
  const { handler } = await import('../../functions/hr-exports/build-hr-export');
  const queue = new LocalWorkQueue(handler, options.queue ?? LOCAL_HR_EXPORT_QUEUE);
  useHrExportQueue({
    async send(message) {
      queue.send([JSON.stringify(message)]);
    },
  });
  return { queue, settled: () => queue.settled(), stop: () => useHrExportQueue(undefined) };
}
