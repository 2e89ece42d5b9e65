import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { now } from '#lib/platform/clock';
import { listDeliveries } from '#lib/webhooks/store/webhook-deliveries';
import { TENANT_ATTEMPTS_IN_FLIGHT } from '#lib/webhooks/rules/delivery-capacity';
import { DELIVERY_TIMEOUT_MS } from '#lib/webhooks/rules/delivery-schedule';
import { admin } from '../../support/admin';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useEventPipeline } from '../../support/events';
import { useLocalApi } from '../../support/local-api';
import { type WebhookReceiver, startWebhookReceiver } from '../../support/webhook-receiver';

const api = useLocalApi({ stream: true });
const events = useEventPipeline();

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A receiver subscribed to the studio tenant's person.created events. */
async function subscribe(studio: CheckinStudio) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
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
  expect(added.code).toBe(0);
  receiver.secret = added.json().signingSecret;
  return { receiver, subscriptionId: added.json().subscriptionId as string };
}

const importPersons = (studio: CheckinStudio, count: number) =>
  api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: { persons: Array.from({ length: count }, (_, index) => ({ name: `Person ${index}` })) },
  });

/** Waits (real time, polling) until `done` holds or `withinMs` has passed; says whether it held. */
async function waitUntil(done: () => boolean, withinMs: number): Promise<boolean> {
  const started = Date.now();
  while (!done() && Date.now() - started < withinMs) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
}

describe('webhook delivery: a fair share of the capacity between tenants', () => {
  it("delivers another tenant's events on time while one tenant's endpoints all hang", async () => {
    // Prepare: tenant A with five endpoints that never answer until the test lets them, and 12
    // events for each (60 attempts, more than the tenant's slots, and more than one endpoint's
    // share, so only the tenant's bound holds); tenant B with one endpoint that answers at once.
    const hanging = await createPayingStudio();
    const hangingEndpoints = await Promise.all(Array.from({ length: 5 }, () => subscribe(hanging)));
    let letHangingAnswer!: () => void;
    const hangingMayAnswer = new Promise<void>((resolve) => (letHangingAnswer = resolve));
    for (const { receiver } of hangingEndpoints) receiver.answer = () => hangingMayAnswer.then(() => 200);
    const inFlightAtA = () => hangingEndpoints.reduce((sum, { receiver }) => sum + receiver.received.length, 0);
    const other = await createPayingStudio();
    const onTime = await subscribe(other);
    expect((await importPersons(hanging, 12)).status).toBe(200);
    // A's whole share in flight well before its first attempt times out (from its start, not the import's answer:
    // on a busy machine the stream and the first invocations take seconds).
    expect(await waitUntil(() => inFlightAtA() > 0, DELIVERY_TIMEOUT_MS)).toBe(true);
    expect(await waitUntil(() => inFlightAtA() >= TENANT_ATTEMPTS_IN_FLIGHT, DELIVERY_TIMEOUT_MS / 2)).toBe(true);

    // Act: B's events come while A holds its whole share.
    const startedAt = Date.now();
    expect((await importPersons(other, 5)).status).toBe(200);
    const allOnTime = await waitUntil(() => onTime.receiver.received.length === 5, DELIVERY_TIMEOUT_MS);
    const latencyMs = Date.now() - startedAt;
    const heldByAMeanwhile = inFlightAtA();
    letHangingAnswer();

    // Assess: B had all five, each at its first attempt, before any of A's attempts timed out
    // (so B waited for none of them); A never had more than its share in flight.
    expect(allOnTime).toBe(true);
    expect(latencyMs).toBeLessThan(DELIVERY_TIMEOUT_MS);
    expect(heldByAMeanwhile).toBe(TENANT_ATTEMPTS_IN_FLIGHT);

    // Assess: A's deliveries all arrive once its endpoints answer (deferred ones come back from
    // the queue later), B's each took one attempt, and every slot is given back.
    await events.retryFor(30 * 60_000);
    const deliveriesOfB = await listDeliveries(other.tenant.tenantId, onTime.subscriptionId);
    expect(deliveriesOfB.map((delivery) => [delivery.status, delivery.attempts])).toEqual(
      Array.from({ length: 5 }, () => ['delivered', 1]),
    );
    for (const { receiver } of hangingEndpoints) expect(receiver.eventIds().size).toBe(12);
    const slots = await queryPartition(keys.webhookAttemptSlotsOfTenant(hanging.tenant.tenantId));
    expect(slots.filter((slot) => Number(slot.heldUntil) > now())).toEqual([]);
  });
});
