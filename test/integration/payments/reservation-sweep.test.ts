import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now, nowIso, resetClock, setClock } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { reserveOrder } from '#lib/payments/store/order-transitions';
import { getOrder } from '#lib/payments/store/orders';
import { queryPartition } from '#lib/platform/table/queries';
import type { Order } from '#lib/payments/rules/order-model';
import { sweepReservations } from '#lib/payments/reservation-sweep';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { pendingOrder } from '../../support/orders';
import { useStripeEmulator } from '../../support/stripe';
import { daySpots } from '../../support/day-spots';

/**
 * The reservation sweep: spots held by reservations that nothing else will end come back within
 * minutes. Time moves on the replaceable clock; Stripe's state is the emulator's, with the
 * events that would have ended the orders lost.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const paidBody = (studio: CheckinStudio) =>
  studio.validBody({
    selectedPackageId: studio.paidPackage.id,
    termsAccepted: true,
    shootingDayId: studio.smallDay.id,
  });
const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;
const booked = async (studio: CheckinStudio) =>
  (await daySpots({ tenantId: studio.tenant.tenantId, token: studio.token }, studio.smallDay.id)).booked;
const stats = async (studio: CheckinStudio) =>
  (await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders })).body;
const minutes = (count: number) => count * 60_000;

let clockMs = 0;
const advance = (ms: number) => {
  clockMs += ms;
};
beforeEach(() => {
  clockMs = Date.now();
  setClock(() => clockMs);
});
afterEach(() => resetClock());

/** A reservation as a check-in that died right after storing it leaves it: spot taken, no session. */
async function orphanedReservation(studio: CheckinStudio): Promise<Order> {
  const order = pendingOrder(
    { tenantId: studio.tenant.tenantId, galleryToken: studio.token, dayId: studio.smallDay.id },
    { packageId: studio.paidPackage.id, accountId: `acct_${studio.slug.replace(/-/g, '')}` },
  );
  await reserveOrder(order, { status: `s-${order.orderId}`, retry: `r-${order.orderId}` });
  return order;
}

describe('reservation sweep', () => {
  it('releases a reservation that never got its Checkout Session, once its check-in is surely over', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const order = await orphanedReservation(studio);
    expect(await booked(studio)).toBe(1);
    // Act
    advance(minutes(1));
    const early = await sweepReservations();
    advance(minutes(2));
    const late = await sweepReservations();
    // Assess
    expect(early.released).toBe(0);
    expect(late.released).toBe(1);
    expect(await getOrder(order.tenantId, order.galleryToken, order.orderId)).toBeUndefined();
    expect(await booked(studio)).toBe(0);
  });

  it("ends an order whose session expired at Stripe without the event reaching the webhook, after the session's lifetime", async () => {
    // Prepare
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    session.status = 'expired'; // as Stripe does at expires_at; the expiry event is lost
    // Act
    advance(minutes(20));
    const early = await sweepReservations();
    advance(minutes(20));
    const late = await sweepReservations();
    // Assess
    expect([early.ended, late.ended]).toEqual([0, 1]);
    expect((await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken })).body.status).toBe(
      'expired',
    );
    expect(await booked(studio)).toBe(0);
    expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
  });

  it('turns an order whose session was paid, with the event lost, into its person', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    Object.assign(stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!, {
      status: 'complete',
      payment_status: 'paid',
    });
    advance(minutes(40));
    expect((await sweepReservations()).paid).toBe(1);
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    expect([status.body.status, status.body.code]).toEqual(['paid', expect.stringMatching(/^[A-Z2-9]{4}$/)]);
    expect(await booked(studio)).toBe(1);
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(1);
  });

  it('expires the session a dead retry was replacing, then ends the order and gives its spot back', async () => {
    // Prepare: a retry claimed the order and died before expiring the old session.
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    const oldSession = sessionIdOf(reserved.body.checkoutUrl);
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.order(studio.tenant.tenantId, studio.token, reserved.body.orderId),
        UpdateExpression: 'SET replacedSessionId = :old, replacingBy = :claim, updatedAt = :now REMOVE sessionId',
        ExpressionAttributeValues: { ':old': oldSession, ':claim': 'dead-retry', ':now': nowIso() },
      }),
    );
    // Act
    advance(minutes(3));
    const swept = await sweepReservations();
    await stripe.emulator.deliveriesSettled();
    // Assess
    expect(swept.ended).toBe(1);
    expect(stripe.emulator.sessions.get(oldSession)!.status).toBe('expired');
    expect((await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken })).body.status).toBe(
      'expired',
    );
    expect(await booked(studio)).toBe(0);
    expect((await stats(studio)).orders).toEqual({ pending: 0, paid: 0, expired: 1, canceled: 0 });
  });

  it('leaves a healthy open reservation alone, and a second sweep changes nothing', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    const orphan = await orphanedReservation(studio);
    advance(minutes(5));
    const first = await sweepReservations();
    const second = await sweepReservations();
    expect([first.released, second.released]).toEqual([1, 0]);
    expect(await getOrder(orphan.tenantId, orphan.galleryToken, orphan.orderId)).toBeUndefined();
    expect((await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken })).body.status).toBe(
      'pending',
    );
    expect(await booked(studio)).toBe(1);
    expect(now()).toBe(clockMs);
  });
});
