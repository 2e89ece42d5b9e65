import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { getDelivery } from '#lib/webhooks/store/webhook-deliveries';
import { admin } from '../../support/admin';
import { useEventPipeline } from '../../support/events';
import { createTestTenant } from '../../support/factories';
import { useLocalApi } from '../../support/local-api';
import { startWebhookReceiver } from '../../support/webhook-receiver';

const api = useLocalApi({ stream: true });
const events = useEventPipeline();

/** Runs `work` as a deployed function would: not on the local stack. */
async function deployed<T>(work: () => Promise<T>): Promise<T> {
  const saved = process.env.LOCAL_STACK;
  delete process.env.LOCAL_STACK;
  try {
    return await work();
  } finally {
    process.env.LOCAL_STACK = saved;
  }
}

describe('webhook URLs: no server-side request forgery', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['the instance metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['a private network', 'https://10.1.2.3/hook'],
    ['a private network (192.168)', 'https://192.168.0.10/hook'],
    ['shared address space', 'https://100.64.0.1/hook'],
    ['the unspecified address', 'https://0.0.0.0/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv6 unique local', 'https://[fd00::1]/hook'],
    ['localhost by name', 'https://localhost/hook'],
    ['a name that does not resolve', 'https://webhooks.invalid/hook'],
    ['plain http', 'http://example.com/hook'],
    ['credentials in the URL', 'https://user:pass@example.com/hook'],
  ])('refuses %s at subscription time (%s)', async (_what, url) => {
    const studio = await createTestTenant();
    const added = await deployed(() => admin('webhook', 'add', '--tenant', studio.slug, '--url', url));
    expect(added.code).toBe(2);
    expect(added.err.join('\n')).toContain('--url refused');
    expect(await queryPartition(keys.webhookSubscriptionsOfTenant(studio.tenant.tenantId))).toEqual([]);
  });

  it('on the local stack takes http://127.0.0.1 (and still refuses the metadata service)', async () => {
    const studio = await createTestTenant();
    const local = await admin('webhook', 'add', '--tenant', studio.slug, '--url', 'http://127.0.0.1:4000/hook');
    const metadata = await admin('webhook', 'add', '--tenant', studio.slug, '--url', 'http://169.254.169.254/');
    expect(local.code).toBe(0);
    expect(metadata.code).toBe(2);
  });

  it('checks the URL again at delivery time: http://127.0.0.1, registered on the local stack, gets nothing from a deployed worker', async () => {
    // Prepare: subscribed on the local stack, delivered as a deployed worker would.
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
    const subscriptionId = added.json().subscriptionId;
    // Act
    const imported = await deployed(async () => {
      const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
        method: 'POST',
        headers: studio.serverHeaders,
        body: { persons: [{ name: 'Target' }] },
      });
      await events.settled();
      return answer;
    });
    // Assess
    expect(imported.body.imported).toBe(1);
    expect(receiver.requests).toBe(0);
    const [event] = await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token));
    const delivery = await getDelivery(studio.tenant.tenantId, subscriptionId, String(event!.eventId));
    // Refused by the stored URL's check (plain http, a loopback address) before any connection,
    // for good; a name that resolves to a refused address at connection time is address_refused
    // and retried (webhook-http.test.ts).
    expect(delivery?.attemptLog).toEqual([expect.objectContaining({ attempt: 1, failure: 'url_refused' })]);
    expect(delivery?.status).toBe('failed');
    await receiver.close();
  });
});
