import { STUCK_DELIVERY_MS, createDelivery, getDelivery, requestReplay } from '#lib/webhooks/store/webhook-deliveries';
import type { DeliveryStatus, WebhookDelivery } from '#lib/webhooks/rules/webhook-delivery';
import { useTestTable } from '../../support/test-table';

useTestTable();

const NOW = Date.parse('2026-11-24T12:00:00Z');
let sequence = 0;

async function delivery(status: DeliveryStatus, nextAttemptAt: number): Promise<WebhookDelivery> {
  sequence += 1;
  const created: WebhookDelivery = {
    tenantId: 'ten_log',
    subscriptionId: 'whk_log',
    eventId: `evt_${String(sequence).padStart(26, '0')}`,
    eventType: 'person.created',
    galleryToken: 'g-log',
    status,
    createdAt: new Date(NOW - 86_400_000).toISOString(),
    attempts: 3,
    roundFailures: 3,
    roundStartedAt: NOW - 86_400_000,
    nextAttemptAt,
    attemptLog: [],
  };
  expect(await createDelivery(created)).toBe(true);
  return created;
}

describe('the delivery log: replays', () => {
  it.each<[string, DeliveryStatus, number, boolean]>([
    ['a failed delivery', 'failed', NOW - 60_000, true],
    ['a delivered one (a receiver that lost data)', 'delivered', NOW - 60_000, true],
    ['a gone one', 'gone', NOW - 60_000, true],
    ['a pending one waiting for its next attempt', 'pending', NOW + 600_000, false],
    ['a pending one just due', 'pending', NOW - 60_000, false],
    ['a pending one that lost its queue message (over an hour overdue)', 'pending', NOW - STUCK_DELIVERY_MS - 1, true],
    ['one whose replay is waiting already', 'replay_requested', NOW - STUCK_DELIVERY_MS - 1, false],
  ])('%s (status %s)', async (_case, status, nextAttemptAt, replayable) => {
    // Prepare
    const created = await delivery(status, nextAttemptAt);
    // Act
    const replayed = await requestReplay(created.tenantId, created.subscriptionId, created.eventId, NOW);
    // Assess
    expect(replayed).toBe(replayable);
    const stored = await getDelivery(created.tenantId, created.subscriptionId, created.eventId);
    if (replayable)
      expect(stored).toEqual(
        expect.objectContaining({ status: 'replay_requested', nextAttemptAt: NOW, roundFailures: 0, attempts: 3 }),
      );
    else expect(stored).toEqual(expect.objectContaining({ status, nextAttemptAt }));
    if (replayable) expect(stored?.roundStartedAt).toBeUndefined();
  });

  it('creates a delivery once: the dispatcher retrying a batch finds it', async () => {
    const created = await delivery('pending', NOW);
    expect(await createDelivery({ ...created, status: 'failed' })).toBe(false);
    expect((await getDelivery(created.tenantId, created.subscriptionId, created.eventId))?.status).toBe('pending');
  });
});
