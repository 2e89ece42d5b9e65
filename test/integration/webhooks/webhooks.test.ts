import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { verifyWebhookSignature } from '#lib/client/webhook-signature';
import { now } from '#lib/platform/clock';
import { getDelivery, listDeliveries } from '#lib/webhooks/store/webhook-deliveries';
import { getSubscription } from '#lib/webhooks/store/webhook-subscriptions';
import { DELIVERY_RETRY_PERIOD_MS } from '#lib/webhooks/rules/delivery-schedule';
import { PHOTOS_COALESCING_WINDOW_MS } from '#lib/events/rules/event-catalogue';
import { photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { admin } from '../../support/admin';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useEventPipeline } from '../../support/events';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';
import { type WebhookReceiver, startWebhookReceiver } from '../../support/webhook-receiver';

const api = useLocalApi({ stream: true });
const stripe = useStripeEmulator(api);
const events = useEventPipeline();

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A receiver subscribed (through the admin CLI) to `types` of the studio's tenant. */
async function subscribe(studio: CheckinStudio, types = 'all') {
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
    types,
    '--json',
  );
  expect(added.code).toBe(0);
  receiver.secret = added.json().signingSecret;
  return { receiver, subscriptionId: added.json().subscriptionId as string };
}

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const importPersons = (studio: CheckinStudio, persons: Record<string, unknown>[]) =>
  api.call(`/groupshoot/${studio.token}/persons`, { method: 'POST', headers: studio.serverHeaders, body: { persons } });
const paidCheckin = (studio: CheckinStudio, name: string) =>
  post(
    studio,
    studio.validBody({
      name,
      selectedPackageId: studio.paidPackage.id,
      termsAccepted: true,
      shootingDayId: studio.openDay.id,
    }),
  );
const sessionOf = (checkoutUrl: string) => stripe.emulator.sessions.get(checkoutUrl.split('/').pop()!)!;

const typesOf = (receiver: WebhookReceiver) => receiver.received.map((delivery) => delivery.event.type).sort();

describe('events: every type from the action that causes it, signed and verified by the client helper', () => {
  it('reports imports, check-ins, payments, expiries, cancellations, photos and the portrait picked', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const { receiver } = await subscribe(studio);
    // Act
    const imported = await importPersons(studio, [
      { name: 'Grace Hopper', email: 'grace@example.com', employeeId: 'E-1', shootingDayId: studio.openDay.id },
      { name: 'Alan Turing', employeeId: 'E-2' },
    ]);
    const free = await post(
      studio,
      studio.validBody({
        name: 'Free Participant',
        shootingDayId: studio.openDay.id,
        selectedPackageId: studio.freePackage.id,
      }),
    );
    const paid = await paidCheckin(studio, 'Paying Participant');
    await stripe.emulator.pay(sessionOf(paid.body.checkoutUrl).id);
    const expired = await paidCheckin(studio, 'Late Participant');
    await stripe.emulator.expire(sessionOf(expired.body.checkoutUrl).id);
    const canceled = await paidCheckin(studio, 'Failing Participant');
    const failedSession = sessionOf(canceled.body.checkoutUrl);
    Object.assign(failedSession, { status: 'complete', payment_status: 'unpaid' });
    await stripe.emulator.deliver('checkout.session.async_payment_failed', failedSession.account, failedSession);
    const grace = imported.body.persons[0].personId;
    for (const file of ['a.jpg', 'b.jpg']) {
      const key = photoObjectKey({
        tenantId: studio.tenant.tenantId,
        token: studio.token,
        personId: grace,
        fileName: file,
      });
      await uploadObject(key, makeJpeg(16, 12));
      await ingestPhoto(objectCreatedEvent(key));
    }
    const picked = photoIdOf(
      photoObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, personId: grace, fileName: 'b.jpg' }),
    );
    expect(
      (
        await admin(
          'photo',
          'pick',
          '--tenant',
          studio.slug,
          '--gallery',
          studio.token,
          '--person',
          grace,
          '--photo',
          picked,
        )
      ).code,
    ).toBe(0);
    await events.settled();
    const beforeWindowClosed = typesOf(receiver).filter((type) => type === 'photos.assigned').length;
    await events.retryFor(PHOTOS_COALESCING_WINDOW_MS + 1000);
    // Assess
    expect(receiver.refused).toEqual([]);
    expect(typesOf(receiver)).toEqual(
      [
        'person.created',
        'person.created', // import
        'person.created',
        'checkin.completed', // free check-in
        'person.created',
        'checkin.completed',
        'order.paid', // paid check-in
        'order.expired',
        'order.canceled',
        'photos.assigned',
        'photo.picked',
      ].sort(),
    );
    const byType = (type: string) =>
      receiver.received.filter((delivery) => delivery.event.type === type).map((delivery) => delivery.event);
    expect(byType('person.created')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          apiVersion: 'v1',
          tenantSlug: studio.slug,
          galleryToken: studio.token,
          data: {
            personId: grace,
            source: 'import',
            employeeId: 'E-1',
            email: 'grace@example.com',
            shootingDayId: studio.openDay.id,
          },
        }),
        expect.objectContaining({ data: expect.objectContaining({ personId: free.body.personId, source: 'checkin' }) }),
      ]),
    );
    const paidPerson = (
      await api.call(`/group-shoot`, {
        method: 'POST',
        headers: studio.publicHeaders,
        body: { action: 'checkinStatus', statusToken: paid.body.statusToken },
      })
    ).body.personId;
    expect(byType('order.paid')).toEqual([
      expect.objectContaining({
        data: {
          orderId: paid.body.orderId,
          personId: paidPerson,
          packageId: studio.paidPackage.id,
          amount: 2900,
          currency: 'eur',
          shootingDayId: studio.openDay.id,
        },
      }),
    ]);
    expect(byType('checkin.completed')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          data: {
            personId: paidPerson,
            shootingDayId: studio.openDay.id,
            packageId: studio.paidPackage.id,
            orderId: paid.body.orderId,
          },
        }),
        expect.objectContaining({
          data: {
            personId: free.body.personId,
            shootingDayId: studio.openDay.id,
            packageId: studio.freePackage.id,
            orderId: null,
          },
        }),
      ]),
    );
    expect(byType('order.expired')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ orderId: expired.body.orderId, amount: 2900 }) }),
    ]);
    expect(byType('order.canceled')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ orderId: canceled.body.orderId }) }),
    ]);
    // Two photos, one event, sent once its window closed.
    expect(beforeWindowClosed).toBe(0);
    expect(byType('photos.assigned')).toEqual([expect.objectContaining({ data: { personId: grace, photosAdded: 2 } })]);
    expect(byType('photo.picked')).toEqual([
      expect.objectContaining({
        galleryToken: studio.token,
        data: { personId: grace, photoId: picked, pickedBy: 'photographer' },
      }),
    ]);
    // Nothing but IDs and matching keys: no names, codes or consents.
    const bodies = receiver.received.map((delivery) => delivery.body).join('\n');
    for (const secret of ['Grace Hopper', 'Paying Participant', imported.body.persons[0].code, 'consent'])
      expect(bodies).not.toContain(secret);
    const first = receiver.received[0]!;
    expect(first.headers['groupshoot-event-id']).toBe(first.event.id);
    expect(first.headers['groupshoot-event-type']).toBe(first.event.type);
    expect(first.headers['content-type']).toBe('application/json');
  });

  it('sends a subscription only the types it asked for', async () => {
    const studio = await createPayingStudio();
    const { receiver } = await subscribe(studio, 'checkin.completed');
    await importPersons(studio, [{ name: 'Imported Only' }]);
    await post(studio, studio.validBody({ name: 'Checked In' }));
    await events.settled();
    expect(typesOf(receiver)).toEqual(['checkin.completed']);
  });
});

describe('events: a rolled-back change emits nothing', () => {
  it('a check-in refused because its day is full reports nothing', async () => {
    // Prepare: the small day holds two.
    const studio = await createPayingStudio();
    const { receiver } = await subscribe(studio);
    const checkIn = (name: string) => post(studio, studio.validBody({ name, shootingDayId: studio.smallDay.id }));
    const admitted = [await checkIn('First In'), await checkIn('Second In')];
    // Act
    const refused = await checkIn('Third Too Late');
    await events.settled();
    // Assess
    expect(refused.body.error).toBe('shooting_day_full');
    const stored = await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored).toHaveLength(4);
    expect(new Set(stored.map((item) => item.personId))).toEqual(
      new Set(admitted.map((answer) => answer.body.personId)),
    );
    expect(typesOf(receiver)).toEqual(['checkin.completed', 'checkin.completed', 'person.created', 'person.created']);
  });
});

describe('events: at least once, through outages', () => {
  it('retries while the receiver is down, delivers everything once it is back, with the same ID on duplicates', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const { receiver, subscriptionId } = await subscribe(studio, 'person.created');
    receiver.answer = () => 503;
    // Act: three persons while the endpoint is down for ten hours.
    const imported = await importPersons(studio, [{ name: 'Down One' }, { name: 'Down Two' }, { name: 'Down Three' }]);
    await events.retryFor(10 * 3_600_000);
    const whileDown = await listDeliveries(studio.tenant.tenantId, subscriptionId);
    // The endpoint comes back, but loses its first answer (it processed the event, the service saw a 500).
    let lostAnswers = 1;
    receiver.answer = () => (lostAnswers-- > 0 ? 500 : 200);
    const attemptsWhileDown = receiver.received.length;
    await events.retryFor(30 * 3_600_000);
    // Assess
    expect(whileDown.map((delivery) => delivery.status)).toEqual(['pending', 'pending', 'pending']);
    for (const delivery of whileDown) expect(delivery.attempts).toBeGreaterThanOrEqual(6);
    const expected = imported.body.persons.map((person: { personId: string }) => person.personId).sort();
    const delivered = receiver.received.slice(attemptsWhileDown);
    const firstDeliveries = new Map(delivered.map((delivery) => [delivery.event.id, delivery]));
    expect(
      [...firstDeliveries.values()].map((delivery) => (delivery.event.data as { personId: string }).personId).sort(),
    ).toEqual(expected);
    // Every attempt of one event carries the same ID and the same body.
    for (const delivery of receiver.received)
      expect(delivery.body).toBe(receiver.received.find((other) => other.event.id === delivery.event.id)!.body);
    expect(delivered.length).toBe(4); // three events, one of them twice
    const after = await listDeliveries(studio.tenant.tenantId, subscriptionId);
    expect(after.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const subscription = await getSubscription(studio.tenant.tenantId, subscriptionId);
    expect(subscription?.enabled).toBe(true);
    expect(subscription?.failingSince).toBeUndefined();
  }, 120_000);

  it('gives up after three days, disables the endpoint, and replays the failed deliveries on request', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const { receiver, subscriptionId } = await subscribe(studio, 'person.created');
    receiver.answer = () => 500;
    const imported = await importPersons(studio, [{ name: 'Never Heard' }]);
    const eventId = (await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token)))[0]!
      .eventId as string;
    // Act: the last retry inside the period may come just before its end, and the one after it
    // (the one that gives up) up to 12 h + 25 % jitter later.
    await events.retryFor(DELIVERY_RETRY_PERIOD_MS + 16 * 3_600_000);
    const failed = await getDelivery(studio.tenant.tenantId, subscriptionId, eventId);
    const disabled = await getSubscription(studio.tenant.tenantId, subscriptionId);
    receiver.answer = () => 200;
    const enabled = await admin('webhook', 'enable', '--tenant', studio.slug, '--id', subscriptionId);
    const replay = await admin('webhook', 'replay', '--tenant', studio.slug, '--id', subscriptionId, '--failed');
    await events.settled();
    const attempts = await admin(
      'webhook',
      'attempts',
      '--tenant',
      studio.slug,
      '--id',
      subscriptionId,
      '--event',
      eventId,
      '--json',
    );
    // Assess
    expect(imported.body.imported).toBe(1);
    expect(failed?.status).toBe('failed');
    expect(failed!.attempts).toBeGreaterThanOrEqual(12);
    const firstAt = Date.parse(failed!.attemptLog[0]!.at);
    const lastAt = Date.parse(failed!.attemptLog.at(-1)!.at);
    expect(lastAt - firstAt).toBeGreaterThanOrEqual(DELIVERY_RETRY_PERIOD_MS);
    expect(failed!.attemptLog.every((attempt) => attempt.failure === 'http_status' && attempt.statusCode === 500)).toBe(
      true,
    );
    expect(disabled).toEqual(expect.objectContaining({ enabled: false, disabledReason: 'failing' }));
    expect(enabled.code).toBe(0);
    expect(replay.out).toContain('Replay of 1 failed delivery requested');
    expect(attempts.json().status).toBe('delivered');
    expect(attempts.json().attemptLog.at(-1)).toEqual(expect.objectContaining({ statusCode: 200 }));
    expect(receiver.received.at(-1)!.headers['groupshoot-delivery-attempt']).toBe(String(failed!.attempts + 1));
  }, 120_000);
});

describe('events: signing secrets', () => {
  it('signs with the old and the new secret during a rotation grace period, then with the new one only', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const { receiver, subscriptionId } = await subscribe(studio, 'person.created');
    const oldSecret = receiver.secret;
    const verifies = (delivery: (typeof receiver.received)[number] | undefined, secret: string) => {
      try {
        verifyWebhookSignature(delivery!.body, delivery!.headers['groupshoot-signature'] as string, secret, { now });
        return true;
      } catch {
        return false;
      }
    };
    // Act
    const rotated = await admin(
      'webhook',
      'rotate-secret',
      '--tenant',
      studio.slug,
      '--id',
      subscriptionId,
      '--grace-hours',
      '2',
      '--json',
    );
    const newSecret = rotated.json().signingSecret as string;
    receiver.secret = newSecret;
    await importPersons(studio, [{ name: 'During Grace' }]);
    await events.settled();
    const during = receiver.received[0];
    const duringVerifies = [verifies(during, oldSecret), verifies(during, newSecret)];
    events.advance(2 * 3_600_000 + 1000);
    await importPersons(studio, [{ name: 'After Grace' }]);
    await events.settled();
    const after = receiver.received[1];
    // Assess
    expect(rotated.code).toBe(0);
    expect(newSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(receiver.received).toHaveLength(2);
    expect(duringVerifies).toEqual([true, true]);
    expect([verifies(after, oldSecret), verifies(after, newSecret)]).toEqual([false, true]);
    expect(String(after?.headers['groupshoot-signature']).match(/v1=/g)).toHaveLength(1);
  });
});

describe('events: isolation', () => {
  it("never sends one tenant's events to another tenant's endpoint", async () => {
    const [first, second] = await Promise.all([createPayingStudio(), createPayingStudio()]);
    const [toFirst, toSecond] = [await subscribe(first), await subscribe(second)];
    await importPersons(first, [{ name: 'Only First' }]);
    await importPersons(second, [{ name: 'Only Second' }, { name: 'Second Too' }]);
    await events.settled();
    expect(toFirst.receiver.received.map((delivery) => delivery.event.tenantSlug)).toEqual([first.slug]);
    expect(toSecond.receiver.received.map((delivery) => delivery.event.tenantSlug)).toEqual([second.slug, second.slug]);
    expect(toFirst.receiver.received.every((delivery) => delivery.event.galleryToken === first.token)).toBe(true);
  });

  it('a slow endpoint does not hold up the deliveries to another', async () => {
    // Prepare: one endpoint does not answer until the test lets it.
    const studio = await createPayingStudio();
    const slow = await subscribe(studio, 'person.created');
    const fast = await subscribe(studio, 'person.created');
    let letSlowAnswer!: () => void;
    const slowMayAnswer = new Promise<void>((resolve) => (letSlowAnswer = resolve));
    slow.receiver.answer = () => slowMayAnswer.then(() => 200);
    // Act: the fast endpoint must get all six while the slow one still holds its first.
    const started = Date.now();
    await importPersons(
      studio,
      Array.from({ length: 6 }, (_, index) => ({ name: `Person ${index}` })),
    );
    const fastHasAllWhileSlowHolds = () => fast.receiver.received.length >= 6 && slow.receiver.received.length > 0;
    while (!fastHasAllWhileSlowHolds() && Date.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const [fastThen, slowHeldThen] = [fast.receiver.received.length, slow.receiver.received.length];
    letSlowAnswer();
    // The slow endpoint's attempts beyond its share of its tenant's slots went back to the queue for a while.
    await events.retryFor(10 * 60_000);
    // Assess: the fast endpoint had all six while the slow one held attempts it had not answered.
    expect(fastThen).toBe(6);
    expect(slowHeldThen).toBeGreaterThan(0);
    expect(slow.receiver.received).toHaveLength(6);
  });
});
