import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { now } from '#lib/platform/clock';
import { type RetentionMessage, useRetentionQueues } from '#lib/privacy/adapters/retention-queues';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

interface Held {
  id: string;
  body: string;
  dueAt: number;
  receiveCount: number;
}

/** What the stack sets (infra/retention-fan-out.ts): receives before the dead-letter queue, and how long a failed message stays hidden. */
export const LOCAL_RETENTION_QUEUE = { maxReceives: 3, visibilityTimeoutMs: 90 * 60_000 } as const;

/**
 * The local stand-in for one SQS queue of the retention run and its Lambda event source, like
 * the webhook delivery queue's (local-delivery-queue.ts): each message goes to the same handler
 * the function runs, one per invocation; a failed one comes back once its visibility timeout is
 * over by the service's clock (tests move time instead of sleeping), and after `maxReceives`
 * it moves to `deadLetters`. Messages live in this process's memory.
 */
export class LocalWorkQueue {
  readonly deadLetters: string[] = [];
  /** Messages handed to the handler, retries included. */
  receives = 0;
  private readonly waiting: Held[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly handler: QueueHandler,
    private readonly options: { maxReceives: number; visibilityTimeoutMs: number } = LOCAL_RETENTION_QUEUE,
  ) {}

  send(bodies: readonly string[]): void {
    for (const body of bodies) this.waiting.push({ id: randomUUID(), body, dueAt: now(), receiveCount: 0 });
    this.pump();
  }

  /** Hands every due message to the handler. */
  pump(): void {
    const at = now();
    for (const held of this.waiting.filter((candidate) => candidate.dueAt <= at)) {
      this.waiting.splice(this.waiting.indexOf(held), 1);
      const run = this.invoke(held).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async invoke(held: Held): Promise<void> {
    held.receiveCount += 1;
    this.receives += 1;
    const record = {
      messageId: held.id,
      body: held.body,
      attributes: { ApproximateReceiveCount: String(held.receiveCount) },
    } as unknown as SQSRecord;
    const failed = await this.handler({ Records: [record] }).then(
      (response) => (response?.batchItemFailures.length ?? 0) > 0,
      () => true,
    );
    if (!failed) return;
    if (held.receiveCount >= this.options.maxReceives) this.deadLetters.push(held.body);
    else this.waiting.push({ ...held, dueAt: now() + this.options.visibilityTimeoutMs });
  }

  /** Resolves once no handler runs and no due message waits. */
  async settled(): Promise<void> {
    for (;;) {
      this.pump();
      if (this.running.size === 0) return;
      await Promise.all([...this.running]);
    }
  }
}

export interface RetentionPipeline {
  plans: LocalWorkQueue;
  galleries: LocalWorkQueue;
  /** What the daily schedule does: starts the planner, then waits until every queued message was handled. */
  run(): Promise<void>;
  settled(): Promise<void>;
  stop(): void;
}

/**
 * The retention run as the stack wires it: the planner's handler (started by `run`, and by the
 * plan queue for its continuations) and the worker's on the gallery queue, both installed as
 * the retention queues of this process. `timeLeft` is the planner's remaining time, as Lambda's
 * context reports it.
 */
export async function startRetentionPipeline(
  options: { timeLeft?: () => number; queue?: typeof LOCAL_RETENTION_QUEUE } = {},
): Promise<RetentionPipeline> {
  const { handler: plan } = await import('../../functions/privacy/plan-retention');
  const { handler: work } = await import('../../functions/privacy/apply-gallery-retention');
  const context = { getRemainingTimeInMillis: options.timeLeft ?? (() => 15 * 60_000) };
  const plans = new LocalWorkQueue((event) => plan(event, context), options.queue);
  const galleries = new LocalWorkQueue(work, options.queue);
  useRetentionQueues({
    async send(messages: readonly RetentionMessage[]) {
      plans.send(messages.filter((message) => message.kind === 'plan').map((message) => JSON.stringify(message)));
      galleries.send(
        messages.filter((message) => message.kind === 'gallery').map((message) => JSON.stringify(message)),
      );
    },
  });
  const settled = async () => {
    await plans.settled();
    await galleries.settled();
    await plans.settled();
  };
  return {
    plans,
    galleries,
    async run() {
      await plan({}, context);
      await settled();
    },
    settled,
    stop: () => useRetentionQueues(undefined),
  };
}
