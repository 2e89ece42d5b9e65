import { now, resetClock, setClock } from '#lib/platform/clock';
import { useDeliveryQueue } from '#lib/webhooks/adapters/delivery-queue';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as dispatch } from '../../../functions/webhooks/dispatch-events';
import { handler as deliver } from '../../../functions/webhooks/deliver-webhooks';
import { type RunningChangeStream, startChangeStream } from '../../../scripts/local/change-stream';
import { LocalDeliveryQueue } from '../../../scripts/local/local-delivery-queue';
import { admin } from '../../support/admin';
import { createTestTenant } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { startWebhookReceiver } from '../../support/webhook-receiver';

useTestTable({ stream: true });

let deaths = 0;
/** The dispatcher, dying twice half-way through a batch: after queueing the first half, before answering. */
async function dyingDispatcher(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  if (deaths < 2 && event.Records.length >= 4) {
    deaths += 1;
    await dispatch({ Records: event.Records.slice(0, Math.floor(event.Records.length / 2)) });
    throw new Error('dispatcher died');
  }
  return dispatch(event);
}

let stream: RunningChangeStream | undefined;
let queue: LocalDeliveryQueue | undefined;
let offset = 0;
beforeAll(async () => {
  process.env.LOCAL_STACK = 'true';
  setClock(() => Date.now() + offset);
  queue = new LocalDeliveryQueue(deliver, { pollMs: 20 });
  useDeliveryQueue(queue);
  queue.start();
  stream = await startChangeStream({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    handler: dyingDispatcher,
    pollMs: 20,
  });
});
afterAll(async () => {
  await stream?.stop();
  await queue?.stop();
  useDeliveryQueue(undefined);
  resetClock();
});

/**
 * Settles the queue, moving the service's clock to each delivery that was put off (a busy
 * machine can leave a delivery without a free slot for a second, or time one out), for up to
 * an hour of service time: every event must arrive, however late.
 */
async function deliverEverything(): Promise<void> {
  const until = now() + 3_600_000;
  await queue!.settled();
  for (let next = queue!.nextDueAt(); next !== undefined && next <= until; next = queue!.nextDueAt()) {
    if (next > now()) offset += next - now();
    await queue!.settled();
  }
}

describe('events: the dispatcher dies mid-batch', () => {
  it('loses nothing: the batch comes again, and repeated events keep their ID', async () => {
    // Prepare
    const studio = await createTestTenant();
    const receiver = await startWebhookReceiver();
    const added = await admin(
      'webhook',
      'add',
      '--tenant',
      studio.slug,
      '--url',
      receiver.url,
      '--events',
      'person.created',
      '--json',
    );
    receiver.secret = added.json().signingSecret;
    // Act: 40 persons in one go (their events reach the stream together).
    const drafts = Array.from({ length: 40 }, (_, index) =>
      importedPersonDraft(
        { name: `Person ${index}`, email: null, employeeId: null, shootingDayId: null },
        new Date().toISOString(),
      ),
    );
    const { written } = await insertPersonsWithCodes({ tenantId: studio.tenant.tenantId, token: studio.token }, drafts);
    await stream!.caughtUp();
    await deliverEverything();
    // Assess
    expect(deaths).toBe(2);
    expect(receiver.refused).toEqual([]);
    const personIds = new Set(
      receiver.received.map((delivery) => (delivery.event.data as { personId: string }).personId),
    );
    expect([...personIds].sort()).toEqual(written.map((person) => person.personId).sort());
    const idsPerPerson = new Map<string, Set<string>>();
    for (const { event } of receiver.received) {
      const personId = (event.data as { personId: string }).personId;
      idsPerPerson.set(personId, (idsPerPerson.get(personId) ?? new Set()).add(event.id));
    }
    expect([...idsPerPerson.values()].every((ids) => ids.size === 1)).toBe(true);
    await receiver.close();
  });
});
