import { addShootingDay } from '#lib/galleries/store/galleries';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { MIN_PENDING_PAYMENTS_PER_DAY } from '#lib/galleries/rules/public-limits';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useStripeEmulator } from '../../support/stripe';
import { daySpots } from '../../support/day-spots';

/**
 * No free capacity squatting: what one email address, one reservation and one day may hold,
 * each refused with a documented 409 and nothing written.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const persons = (studio: CheckinStudio) => queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
const dayItem = (studio: CheckinStudio, dayId: string) =>
  daySpots({ tenantId: studio.tenant.tenantId, token: studio.token }, dayId);
const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

describe('free check-ins per email address', () => {
  it('refuses the check-in past the limit with 409 email_checkin_limit, whatever the case and spaces of the address, and stores nothing', async () => {
    // Prepare
    const studio = await createCheckinStudio({ publicLimits: { checkinsPerEmail: 2 } });
    const checkIn = (name: string, email: string) =>
      post(studio, studio.validBody({ name, email, shootingDayId: studio.openDay.id }));
    // Act
    const first = await checkIn('Parent', 'family@example.com');
    const second = await checkIn('First child', 'Family@Example.com');
    const third = await checkIn('Second child', '  FAMILY@example.com ');
    const other = await checkIn('Neighbour', 'neighbour@example.com');
    // Assess
    expect([first.status, second.status, other.status]).toEqual([200, 200, 200]);
    expect([third.status, third.body.error, third.body.message]).toEqual([
      409,
      'email_checkin_limit',
      'This email address has checked in 2 times to this gallery already.',
    ]);
    expect((await persons(studio)).map((person) => person.name).sort()).toEqual(['First child', 'Neighbour', 'Parent']);
    expect((await dayItem(studio, studio.openDay.id)).booked).toBe(3);
  });

  it('counts per gallery', async () => {
    const limits = { publicLimits: { checkinsPerEmail: 1 } };
    const [studio, other] = await Promise.all([createCheckinStudio(limits), createCheckinStudio(limits)]);
    expect((await post(studio, studio.validBody())).status).toBe(200);
    expect((await post(other, other.validBody())).status).toBe(200);
    expect((await post(studio, studio.validBody({ name: 'Again', email: 'ada@example.com' }))).body.error).toBe(
      'email_checkin_limit',
    );
  });
});

describe('checkout retries per reservation', () => {
  it('refuses the retry past the limit with 409 retry_limit_reached and leaves the reservation as it was', async () => {
    // Prepare
    const studio = await createPayingStudio({ publicLimits: { retriesPerOrder: 1 } });
    const reserved = await post(
      studio,
      studio.validBody({
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
        shootingDayId: studio.smallDay.id,
      }),
    );
    // Act
    const retried = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
    const again = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
    // Assess
    expect(retried.status).toBe(200);
    expect([again.status, again.body.error, again.body.message]).toEqual([
      409,
      'retry_limit_reached',
      'A reservation can be retried 1 times; check in again instead.',
    ]);
    const status = await post(studio, { action: 'checkinStatus', statusToken: retried.body.statusToken });
    expect(status.body.status).toBe('pending');
    await stripe.emulator.pay(sessionIdOf(retried.body.checkoutUrl));
    expect((await post(studio, { action: 'checkinStatus', statusToken: retried.body.statusToken })).body.status).toBe(
      'paid',
    );
  });
});

describe('reservations waiting for payment per shooting day', () => {
  it(`keeps a day of capacity 20 at ${MIN_PENDING_PAYMENTS_PER_DAY} unpaid reservations (409 pending_payments_limit), while free check-ins and paid ones go on`, async () => {
    // Prepare
    const studio = await createPayingStudio();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-07-01',
      label: 'Big',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: 20,
    });
    const reserve = (index: number) =>
      post(
        studio,
        studio.validBody({
          name: `Payer ${index}`,
          selectedPackageId: studio.paidPackage.id,
          termsAccepted: true,
          shootingDayId: day.id,
        }),
      );
    // Act
    const held = [];
    for (let index = 0; index < MIN_PENDING_PAYMENTS_PER_DAY; index += 1) held.push(await reserve(index));
    const refused = await reserve(99);
    const free = await post(studio, studio.validBody({ name: 'Walk-in', shootingDayId: day.id }));
    await stripe.emulator.pay(sessionIdOf(held[0]!.body.checkoutUrl));
    const afterPayment = await reserve(100);
    // Assess
    expect(held.map((answer) => answer.status)).toEqual(Array(MIN_PENDING_PAYMENTS_PER_DAY).fill(200));
    expect([refused.status, refused.body.error]).toEqual([409, 'pending_payments_limit']);
    expect(free.status).toBe(200);
    expect(afterPayment.status).toBe(200);
    expect(await dayItem(studio, day.id)).toEqual(
      expect.objectContaining({
        booked: MIN_PENDING_PAYMENTS_PER_DAY + 2,
        pendingPayments: MIN_PENDING_PAYMENTS_PER_DAY,
      }),
    );
  });

  it('gives a day the share of its capacity the gallery sets', async () => {
    const studio = await createPayingStudio({ publicLimits: { pendingPaymentsShare: 0.5 } });
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-07-02',
      label: 'Large',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: 14,
    });
    const answers = [];
    for (let index = 0; index < 8; index += 1) {
      answers.push(
        await post(
          studio,
          studio.validBody({
            name: `Payer ${index}`,
            selectedPackageId: studio.paidPackage.id,
            termsAccepted: true,
            shootingDayId: day.id,
          }),
        ),
      );
    }
    expect(answers.map((answer) => answer.body.error ?? answer.status)).toEqual([
      200,
      200,
      200,
      200,
      200,
      200,
      200,
      'pending_payments_limit',
    ]);
  });
});

describe('one reservation waiting for payment per email address and gallery', () => {
  const paidCheckin = (studio: CheckinStudio, overrides: Record<string, unknown> = {}) =>
    post(
      studio,
      studio.validBody({
        selectedPackageId: studio.paidPackage.id,
        termsAccepted: true,
        shootingDayId: studio.smallDay.id,
        ...overrides,
      }),
    );
  const statusOf = async (studio: CheckinStudio, statusToken: string) =>
    (await post(studio, { action: 'checkinStatus', statusToken })).body.status;

  it('replaces the earlier reservation of the address: its session expired at Stripe, its spot given to the new one', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const first = await paidCheckin(studio);
    // Act
    const second = await paidCheckin(studio, { shootingDayId: studio.openDay.id });
    await stripe.emulator.deliveriesSettled();
    // Assess
    expect(second.status).toBe(200);
    expect(stripe.emulator.sessions.get(sessionIdOf(first.body.checkoutUrl))!.status).toBe('expired');
    expect([await statusOf(studio, first.body.statusToken), await statusOf(studio, second.body.statusToken)]).toEqual([
      'expired',
      'pending',
    ]);
    expect([
      (await dayItem(studio, studio.smallDay.id)).booked,
      (await dayItem(studio, studio.openDay.id)).booked,
    ]).toEqual([0, 1]);
    const stats = (await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders })).body;
    expect(stats.orders).toEqual({ pending: 1, paid: 0, expired: 1, canceled: 0 });
  });

  it('keeps the addresses of other participants apart', async () => {
    const studio = await createPayingStudio();
    const answers = [await paidCheckin(studio, { name: 'One' }), await paidCheckin(studio, { name: 'Two' })];
    expect(await Promise.all(answers.map((answer) => statusOf(studio, answer.body.statusToken)))).toEqual([
      'pending',
      'pending',
    ]);
  });

  it('refuses to reopen the replaced reservation while the new one waits for payment (409 reservation_exists)', async () => {
    const studio = await createPayingStudio();
    const first = await paidCheckin(studio);
    await paidCheckin(studio);
    const retried = await post(studio, { action: 'retryCheckout', retryToken: first.body.retryToken });
    expect([retried.status, retried.body.error]).toEqual([409, 'reservation_exists']);
    expect((await dayItem(studio, studio.smallDay.id)).booked).toBe(1);
  });

  it('answers 409 order_already_paid when the earlier reservation was paid meanwhile, and takes nothing', async () => {
    const studio = await createPayingStudio();
    const first = await paidCheckin(studio);
    Object.assign(stripe.emulator.sessions.get(sessionIdOf(first.body.checkoutUrl))!, {
      status: 'complete',
      payment_status: 'paid',
    });
    const second = await paidCheckin(studio);
    expect([second.status, second.body.error]).toEqual([409, 'order_already_paid']);
    expect((await dayItem(studio, studio.smallDay.id)).booked).toBe(1);
  });
});
