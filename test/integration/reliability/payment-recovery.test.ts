import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useStripeEmulator } from '../../support/stripe';
import { daySpots } from '../../support/day-spots';
import { expireCheckoutSession } from '#lib/payments/adapters/stripe-payments';

/**
 * How a paid check-in recovers from failures half-way (issue 9, faults): abandoned retries,
 * sessions that could not be attached, orders that could not be ended, concurrent retries and
 * deliveries. Each starts from the state a failure leaves (written directly or injected) and
 * checks that sessions, spots and counters come out right.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const paidBody = (studio: CheckinStudio, overrides: Record<string, unknown> = {}) =>
  studio.validBody({
    selectedPackageId: studio.paidPackage.id,
    termsAccepted: true,
    shootingDayId: studio.smallDay.id,
    ...overrides,
  });
const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;
const orderOf = async (studio: CheckinStudio, orderId: string) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.order(studio.tenant.tenantId, studio.token, orderId),
        ConsistentRead: true,
      }),
    )
  ).Item;
const booked = async (studio: CheckinStudio) =>
  (await daySpots({ tenantId: studio.tenant.tenantId, token: studio.token }, studio.smallDay.id)).booked;
const stats = async (studio: CheckinStudio) =>
  (await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders })).body;
const openSessionsOf = (orderId: string) =>
  [...stripe.emulator.sessions.values()]
    .filter((s) => s.metadata?.orderId === orderId && s.status === 'open')
    .map((s) => s.id);
const settle = () => stripe.emulator.deliveriesSettled();

afterEach(() => jest.restoreAllMocks());

/** The update that attaches a Checkout Session to an order (it sets the order's checkoutUrl). */
const attachesSession = (command: any) =>
  command.constructor.name === 'UpdateCommand' &&
  Object.values(command.input.ExpressionAttributeNames ?? {}).includes('checkoutUrl');

/** DynamoDB stays throttled, after the SDK's retries, for the calls `matches` picks. */
function throttleSendsWhere(matches: (command: any, input: string) => boolean): void {
  const send = db.send.bind(db);
  jest.spyOn(db, 'send').mockImplementation(((command: any, ...rest: any[]) => {
    if (matches(command, JSON.stringify(command.input))) {
      return Promise.reject(
        Object.assign(new Error('injected'), {
          name: 'ProvisionedThroughputExceededException',
          $metadata: { attempts: 4 },
        }),
      );
    }
    return (send as any)(command, ...rest);
  }) as any);
}

it('a retry takes over an order an earlier retry left being replaced, expiring the replaced session', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  const s1 = sessionIdOf(reserved.body.checkoutUrl);
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.order(studio.tenant.tenantId, studio.token, reserved.body.orderId),
      UpdateExpression: 'SET replacedSessionId = :s, replacingBy = :x REMOVE sessionId',
      ExpressionAttributeValues: { ':s': s1, ':x': 'earlier' },
    }),
  );
  const retried = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
  await settle();
  expect(retried.status).toBe(200);
  expect(openSessionsOf(reserved.body.orderId)).toEqual([sessionIdOf(retried.body.checkoutUrl)]);
  expect((await orderOf(studio, reserved.body.orderId))?.sessionId).toBe(sessionIdOf(retried.body.checkoutUrl));
  expect(await booked(studio)).toBe(1);
});

it('the expiry of the replaced session ends an order whose retry is long over', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  const s1 = sessionIdOf(reserved.body.checkoutUrl);
  const old = new Date(Date.now() - 10 * 60_000).toISOString();
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.order(studio.tenant.tenantId, studio.token, reserved.body.orderId),
      UpdateExpression: 'SET replacedSessionId = :s, replacingBy = :x, updatedAt = :u REMOVE sessionId',
      ExpressionAttributeValues: { ':s': s1, ':x': 'earlier', ':u': old },
    }),
  );
  await stripe.emulator.expire(s1);
  expect((await orderOf(studio, reserved.body.orderId))?.status).toBe('expired');
  expect(await booked(studio)).toBe(0);
  expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
});

it('a check-in whose session cannot be attached, nor its reservation released, is undone by the expiry of its session', async () => {
  const studio = await createPayingStudio();
  await post(studio, paidBody(studio, { shootingDayId: studio.openDay.id })); // readiness cached
  throttleSendsWhere(
    (command, input) =>
      attachesSession(command) || (command.constructor.name === 'TransactWriteCommand' && input.includes('"Delete"')),
  );
  const failed = await post(studio, paidBody(studio, { name: 'Second participant' }));
  jest.restoreAllMocks();
  expect([failed.status, failed.body.error]).toEqual([503, 'storage_unavailable']);
  await settle();
  const orders = await queryPartition(keys.order(studio.tenant.tenantId, studio.token, 'x').pk);
  expect(orders).toHaveLength(1); // the first check-in only
  expect(await booked(studio)).toBe(0);
  expect(openSessionsOf(String(orders[0]!.orderId))).toHaveLength(1);
  expect((await stats(studio)).orders).toEqual({ pending: 1, paid: 0, expired: 0, canceled: 0 });
});

it('a check-in whose session cannot be attached is undone at once, its session expired', async () => {
  const studio = await createPayingStudio();
  const send = db.send.bind(db);
  jest.spyOn(db, 'send').mockImplementation(((command: any, ...rest: any[]) => {
    if (attachesSession(command)) {
      return Promise.reject(
        Object.assign(new Error('injected'), {
          name: 'ProvisionedThroughputExceededException',
          $metadata: { attempts: 4 },
        }),
      );
    }
    return (send as any)(command, ...rest);
  }) as any);
  const failed = await post(studio, paidBody(studio));
  jest.restoreAllMocks();
  await settle();
  expect(failed.status).toBe(503);
  expect(await queryPartition(keys.order(studio.tenant.tenantId, studio.token, 'x').pk)).toHaveLength(0);
  expect(
    [...stripe.emulator.sessions.values()]
      .filter((s) => s.metadata?.galleryToken === studio.token)
      .map((s) => s.status),
  ).toEqual(['expired']);
  expect(await booked(studio)).toBe(0);
});

it('a retry whose new session cannot be attached nor the order ended: the expiry of that session ends the order', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  throttleSendsWhere(
    (command, input) =>
      attachesSession(command) ||
      (command.constructor.name === 'TransactWriteCommand' && input.includes('replacingBy = :claim')),
  );
  const failed = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
  jest.restoreAllMocks();
  await settle();
  expect(failed.status).toBe(503);
  expect((await orderOf(studio, reserved.body.orderId))?.status).toBe('expired');
  expect(openSessionsOf(reserved.body.orderId)).toEqual([]);
  expect(await booked(studio)).toBe(0);
  expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
  const again = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
  expect(again.status).toBe(200);
  expect(openSessionsOf(reserved.body.orderId)).toEqual([sessionIdOf(again.body.checkoutUrl)]);
  expect(await booked(studio)).toBe(1);
});

it('two concurrent retries leave one payable session, the order attached to it', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  const answers = await Promise.all(
    [1, 2, 3].map(() => post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken })),
  );
  await settle();
  const ok = answers.filter((a) => a.status === 200);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  const order = await orderOf(studio, reserved.body.orderId);
  const handedOpen = ok
    .map((a) => sessionIdOf(a.body.checkoutUrl))
    .filter((id) => stripe.emulator.sessions.get(id)?.status === 'open');
  expect(handedOpen).toEqual([order?.sessionId]);
  expect(openSessionsOf(reserved.body.orderId)).toEqual([order?.sessionId]);
});

it('a session two requests expire at once: the one Stripe refuses, since the other expired it, reads that as an outcome', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  const sessionId = sessionIdOf(reserved.body.checkoutUrl);
  const { account } = stripe.emulator.sessions.get(sessionId)!;
  // Both read the session open; their expiries are held back until both reads are answered.
  stripe.emulator.delayCalls(2000, { operation: 'checkout.sessions.expire', count: 2 });
  const outcomes = await Promise.all([
    expireCheckoutSession(account, sessionId),
    expireCheckoutSession(account, sessionId),
  ]);
  stripe.emulator.delayCalls(0);
  expect(outcomes.sort()).toEqual(['expired', 'not_open']);
  await stripe.emulator.deliveriesSettled();
});

it('concurrent deliveries of one payment (same and other event IDs) create one person and count once', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
  Object.assign(session, { status: 'complete', payment_status: 'paid' });
  const { account, ...object } = session;
  const deliveries = await Promise.all([
    stripe.emulator.deliver('checkout.session.completed', account, object, 'evt_same'),
    stripe.emulator.deliver('checkout.session.completed', account, object, 'evt_same'),
    stripe.emulator.deliver('checkout.session.async_payment_succeeded', account, object),
    stripe.emulator.deliver('checkout.session.completed', account, object),
  ]);
  expect(deliveries).toEqual([200, 200, 200, 200]);
  expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(1);
  const s = await stats(studio);
  expect(s.orders).toEqual({ pending: 0, paid: 1, expired: 0, canceled: 0 });
  expect(s.persons.bySource.checkin).toBe(1);
  const redelivered = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: { action: 'checkinStatus', statusToken: reserved.body.statusToken },
  });
  expect(redelivered.body.status).toBe('paid');
});

it('a retry of an expired reservation that fails half-way with DynamoDB failing its undo: counters stay exact', async () => {
  const studio = await createPayingStudio();
  const reserved = await post(studio, paidBody(studio));
  await stripe.emulator.expire(sessionIdOf(reserved.body.checkoutUrl));
  expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
  throttleSendsWhere(
    (command, input) =>
      attachesSession(command) ||
      (command.constructor.name === 'TransactWriteCommand' &&
        input.includes('replacingBy = :claim') &&
        !input.includes(':previous')),
  );
  const failed = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
  jest.restoreAllMocks();
  await settle();
  expect(failed.status).toBe(503);
  expect((await orderOf(studio, reserved.body.orderId))?.status).toBe('expired');
  expect(await booked(studio)).toBe(0);
  expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
});
