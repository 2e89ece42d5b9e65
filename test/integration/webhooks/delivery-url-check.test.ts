import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { logger } from '#lib/platform/logger';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { deliverWebhook } from '#lib/webhooks/deliver-webhooks';
import { createSubscription } from '#lib/webhooks/manage-subscriptions';
import { createDelivery, getDelivery } from '#lib/webhooks/store/webhook-deliveries';
import { createTestTenant } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { type WebhookReceiver, startWebhookReceiver } from '../../support/webhook-receiver';

/**
 * The delivery worker checks the stored subscription URL again before each attempt
 * (lib/webhooks/deliver-webhooks.ts): a URL changed in the table since it was registered, or one
 * a rule tightened since refuses, ends the delivery as failed (url_refused) without a request.
 */

useTestTable();

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(() => {
  process.env.LOCAL_STACK = 'true';
  jest.restoreAllMocks();
});

/** A tenant subscribed (on the local stack) to the receiver, one person.created event, and its pending delivery. */
async function pendingDelivery() {
  process.env.LOCAL_STACK = 'true';
  const studio = await createTestTenant();
  const { subscription, secret } = await createSubscription({
    tenant: studio.tenant,
    url: receiver.url,
    eventTypes: ['person.created'],
  });
  receiver.secret = secret;
  const draft = importedPersonDraft(
    { name: 'Stored Url', email: null, employeeId: null, shootingDayId: null },
    new Date().toISOString(),
  );
  await insertPersonsWithCodes({ tenantId: studio.tenant.tenantId, token: studio.token }, [draft]);
  const event = (await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token)))[0]!;
  const message = {
    tenantId: studio.tenant.tenantId,
    subscriptionId: subscription.subscriptionId,
    eventId: event.eventId as string,
    galleryToken: studio.token,
  };
  await createDelivery({
    ...message,
    eventType: 'person.created',
    status: 'pending',
    createdAt: new Date().toISOString(),
    attempts: 0,
    roundFailures: 0,
    nextAttemptAt: 0,
    attemptLog: [],
  });
  return message;
}

/** Changes the stored URL behind the address policy's back, as a hand edit of the table would. */
async function storeUrl(tenantId: string, subscriptionId: string, url: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.webhookSubscription(tenantId, subscriptionId),
      UpdateExpression: 'SET #url = :url',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ':url': url },
    }),
  );
}

describe('deliverWebhook: the stored URL is checked again', () => {
  it('delivers to the URL as it was registered', async () => {
    // Prepare
    const message = await pendingDelivery();
    const before = receiver.received.length;

    // Act
    const outcome = await deliverWebhook(message);

    // Assess
    expect(outcome).toBe('delivered');
    expect(receiver.received.length).toBe(before + 1);
  });

  describe.each([
    ['an http URL to another host, on the local stack', 'local', 'http://hooks.example.com/groupshoot'],
    ['a URL with credentials, on the local stack', 'local', 'https://user:pass@hooks.example.com/groupshoot'],
    ['the registered http://127.0.0.1 URL, in AWS (strict)', 'strict', undefined],
    [
      'an https URL to an IPv4-compatible loopback address, in AWS (strict)',
      'strict',
      'https://[::127.0.0.1]/groupshoot',
    ],
  ])('%s', (_case, mode, storedUrl) => {
    it('fails the delivery for good with url_refused, sends nothing, and logs no URL', async () => {
      // Prepare
      const message = await pendingDelivery();
      if (storedUrl) await storeUrl(message.tenantId, message.subscriptionId, storedUrl);
      if (mode === 'strict') delete process.env.LOCAL_STACK;
      const requestsBefore = receiver.requests;
      const warned = jest.spyOn(logger, 'warn');

      // Act
      const outcome = await deliverWebhook(message);

      // Assess
      expect(outcome).toBe('failed');
      expect(receiver.requests).toBe(requestsBefore);
      const delivery = await getDelivery(message.tenantId, message.subscriptionId, message.eventId);
      expect(delivery?.status).toBe('failed');
      expect(delivery?.attemptLog).toEqual([
        { attempt: 1, at: expect.any(String), durationMs: 0, failure: 'url_refused' },
      ]);
      expect(warned).toHaveBeenCalledWith(expect.stringContaining('address policy'), {
        tenantId: message.tenantId,
        subscriptionId: message.subscriptionId,
        eventId: message.eventId,
        outcome: 'url_refused',
      });
      expect(JSON.stringify(warned.mock.calls)).not.toMatch(/https?:\/\//);
    });
  });
});
