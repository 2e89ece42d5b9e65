import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DeliveryMessage } from '#lib/webhooks/adapters/delivery-queue';
import { resetClock, setClock } from '#lib/platform/clock';
import { LocalDeliveryQueue } from '../../../scripts/local/local-delivery-queue';
import { WEBHOOK_DELIVERY_BATCH_SIZE, WEBHOOK_DELIVERY_CONCURRENCY } from '../../../infra/webhook-delivery';

/** The stack hides a message its worker failed 6x the worker's 30 s timeout. */
const VISIBILITY_TIMEOUT_MS = 180_000;

const message = (index: number, tenantId = 'ten_a'): DeliveryMessage => ({
  tenantId,
  subscriptionId: 'whk_1',
  galleryToken: 'gal_1',
  eventId: `evt_${index}`,
});

/** A worker whose invocations all wait until the test lets them end, noting each batch it got. */
function heldWorker() {
  const batches: SQSEvent['Records'][] = [];
  let letEnd!: () => void;
  const ended = new Promise<void>((resolve) => (letEnd = resolve));
  const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    batches.push(event.Records);
    await ended;
    return { batchItemFailures: [] };
  };
  return { batches, handler, letEnd };
}

describe("the local delivery queue: the stack's event source on this machine", () => {
  it('runs as many worker invocations at once as the stack, each with a batch of the stack’s size', async () => {
    // Prepare: more due messages than the stack has in flight at once.
    const worker = heldWorker();
    const queue = new LocalDeliveryQueue(worker.handler);
    const inFlightAtMost = WEBHOOK_DELIVERY_CONCURRENCY * WEBHOOK_DELIVERY_BATCH_SIZE;
    // Act
    await queue.send(
      Array.from({ length: inFlightAtMost + 5 }, (_, index) => ({ message: message(index), delaySeconds: 0 })),
    );
    const running = worker.batches.map((batch) => batch.length);
    worker.letEnd();
    await queue.settled();
    // Assess: the stack's concurrency and batch size, then the rest once invocations ended.
    expect(running).toEqual(Array.from({ length: WEBHOOK_DELIVERY_CONCURRENCY }, () => WEBHOOK_DELIVERY_BATCH_SIZE));
    const handedOver = worker.batches.flatMap((batch) => batch.map((record) => JSON.parse(record.body).eventId));
    expect(new Set(handedOver).size).toBe(inFlightAtMost + 5);
  });

  it('fills a batch fairly between tenants, and hands back only the messages the worker reported failed', async () => {
    // Prepare: one invocation at a time, 4 messages each; the worker fails tenant B's first message once.
    let at = Date.parse('2026-11-29T12:00:00Z');
    setClock(() => at);
    const batches: string[][] = [];
    const queue = new LocalDeliveryQueue(
      async (event) => {
        batches.push(
          event.Records.map(
            (record) => `${JSON.parse(record.body).eventId}#${record.attributes.ApproximateReceiveCount}`,
          ),
        );
        const failed = event.Records.filter(
          (record) => record.body.includes('evt_4') && record.attributes.ApproximateReceiveCount === '1',
        );
        return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
      },
      { concurrency: 1, batchSize: 4 },
    );
    // Act: tenant A's three messages, then B's two, all due together.
    await queue.send([1, 2, 3].map((index) => ({ message: message(index), delaySeconds: 60 })));
    await queue.send([4, 5].map((index) => ({ message: message(index, 'ten_b'), delaySeconds: 60 })));
    at += 60_000;
    await queue.settled();
    const failedComesBackAt = queue.nextDueAt();
    at += VISIBILITY_TIMEOUT_MS;
    await queue.settled();
    resetClock();
    // Assess: B's two in the first batch although they came last; only the failed one again, after the visibility timeout.
    expect(batches).toEqual([['evt_1#1', 'evt_4#1', 'evt_2#1', 'evt_5#1'], ['evt_3#1'], ['evt_4#2']]);
    expect(failedComesBackAt).toBe(at);
  });
});
