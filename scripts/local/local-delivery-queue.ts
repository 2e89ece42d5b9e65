import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { now } from '#lib/platform/clock';
import type { DeliveryQueue, QueuedDelivery } from '#lib/webhooks/adapters/delivery-queue';
import { WEBHOOK_DELIVERY_BATCH_SIZE, WEBHOOK_DELIVERY_CONCURRENCY } from '../../infra/webhook-delivery';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

interface Held {
  id: string;
  body: string;
  group: string;
  dueAt: number;
  receiveCount: number;
}

/** How long a message the handler failed stays invisible before it is handed over again (the stack sets 6x the worker's timeout). */
const VISIBILITY_TIMEOUT_MS = 180_000;

/**
 * The local stand-in for the SQS delivery queue and its Lambda event source: messages wait
 * until their delay is over by the service's clock (so tests move time instead of sleeping),
 * then go to the same handler the worker function runs, as the stack's event source hands them
 * over: up to WEBHOOK_DELIVERY_BATCH_SIZE messages an invocation, at most
 * WEBHOOK_DELIVERY_CONCURRENCY invocations at once (infra/webhook-delivery.ts), unless told
 * otherwise. The message group is what AWS uses (the tenant); like SQS fair queues, the next
 * message handed over is one of the group with the fewest in flight, the longest waiting first. It caps no group: each tenant's share is kept by the worker's code, as in AWS
 * (lib/webhooks/rules/delivery-capacity.ts). Messages live in this process's memory; the
 * deployed queue is durable.
 */
export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly waiting: Held[] = [];
  private readonly inFlight = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly handler: QueueHandler,
    private readonly options: { concurrency?: number; batchSize?: number; pollMs?: number } = {},
  ) {}

  async send(deliveries: readonly QueuedDelivery[]): Promise<void> {
    const at = now();
    for (const { message, delaySeconds } of deliveries) {
      this.waiting.push({
        id: randomUUID(),
        body: JSON.stringify(message),
        group: message.tenantId,
        dueAt: at + delaySeconds * 1000,
        receiveCount: 0,
      });
    }
    this.pump();
  }

  /** Hands due messages to the handler in batches, fairly between groups, as far as the concurrency allows. */
  pump(): void {
    const limit = this.options.concurrency ?? WEBHOOK_DELIVERY_CONCURRENCY;
    const batchSize = this.options.batchSize ?? WEBHOOK_DELIVERY_BATCH_SIZE;
    while (this.running.size < limit) {
      const batch: Held[] = [];
      for (let next = this.nextFairMessage(); next && batch.length < batchSize; next = this.nextFairMessage()) {
        this.waiting.splice(this.waiting.indexOf(next), 1);
        this.inFlight.set(next.group, (this.inFlight.get(next.group) ?? 0) + 1);
        batch.push(next);
      }
      if (batch.length === 0) return;
      const run = this.invoke(batch).finally(() => {
        for (const held of batch) this.inFlight.set(held.group, (this.inFlight.get(held.group) ?? 1) - 1);
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  /** The due message of the group with the fewest in flight, the longest waiting of those. */
  private nextFairMessage(): Held | undefined {
    const at = now();
    const busy = (held: Held) => this.inFlight.get(held.group) ?? 0;
    let best: Held | undefined;
    for (const held of this.waiting) {
      if (held.dueAt > at) continue;
      if (!best || busy(held) < busy(best) || (busy(held) === busy(best) && held.dueAt < best.dueAt)) best = held;
    }
    return best;
  }

  /** One invocation with the batch; the messages it reports failed (all, when it throws) come back after the visibility timeout. */
  private async invoke(batch: readonly Held[]): Promise<void> {
    const records = batch.map((held) => {
      held.receiveCount += 1;
      return {
        messageId: held.id,
        body: held.body,
        attributes: { ApproximateReceiveCount: String(held.receiveCount) },
      } as unknown as SQSRecord;
    });
    let failed: Set<string>;
    try {
      const { batchItemFailures } = await this.handler({ Records: records });
      failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
    } catch {
      failed = new Set(batch.map((held) => held.id));
    }
    for (const held of batch)
      if (failed.has(held.id)) this.waiting.push({ ...held, dueAt: now() + VISIBILITY_TIMEOUT_MS });
  }

  /** Polls for due messages every `pollMs` (real time), for the local server. */
  start(): void {
    this.timer ??= setInterval(() => this.pump(), this.options.pollMs ?? 250);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.settled();
  }

  /** Resolves once no handler runs and no due message waits. */
  async settled(): Promise<void> {
    for (;;) {
      this.pump();
      if (this.running.size === 0) return;
      await Promise.all([...this.running]);
    }
  }

  /** When the next message not yet handed over is due. */
  nextDueAt(): number | undefined {
    return this.waiting.reduce<number | undefined>(
      (first, held) => (first === undefined || held.dueAt < first ? held.dueAt : first),
      undefined,
    );
  }
}
