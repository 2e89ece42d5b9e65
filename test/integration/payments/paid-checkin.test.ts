import { addPackage, addShootingDay } from '#lib/galleries/store/galleries';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { updateTenantSettings } from '#lib/tenants/store/tenants';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { makeJpeg } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';

const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>, headers = studio.publicHeaders) =>
  api.call('/group-shoot', { method: 'POST', headers, body });

const paidBody = (studio: CheckinStudio, overrides: Record<string, unknown> = {}) =>
  studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true, ...overrides });

const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

async function storedPersons(studio: CheckinStudio) {
  return queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
}

describe('paid check-in through Stripe Checkout', () => {
  it('reserves, opens a session on the connected account, and once paid creates the person', async () => {
    // Prepare
    const studio = await createPayingStudio();
    // Act
    const reserved = await post(
      studio,
      paidBody(studio, { shootingDayId: studio.smallDay.id, selfieBase64: makeJpeg(8, 8).toString('base64') }),
    );
    const pending = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    await stripe.emulator.pay(session.id);
    const paid = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect(reserved.status).toBe(200);
    expect(reserved.body).toEqual({
      ok: true,
      orderId: expect.stringMatching(/^ord_/),
      checkoutUrl: expect.stringContaining(`${stripe.emulator.url}/pay/cs_test_`),
      statusToken: expect.stringMatching(/^gst_[0-9A-Za-z]{32}$/),
      retryToken: expect.stringMatching(/^grt_[0-9A-Za-z]{32}$/),
      packageName: 'Premium',
      requestId: reserved.headers.get('x-request-id'),
    });
    expect(session).toEqual(
      expect.objectContaining({
        account: `acct_${studio.slug.replace(/-/g, '')}`,
        mode: 'payment',
        amount_total: 2900,
        currency: 'eur',
        customer_email: 'ada@example.com',
        application_fee_amount: 145,
        metadata: { orderId: reserved.body.orderId, tenantId: studio.tenant.tenantId, galleryToken: studio.token },
      }),
    );
    const now = Date.now() / 1000;
    expect(session.expires_at).toBeGreaterThan(now + 25 * 60);
    expect(session.expires_at).toBeLessThan(now + 24 * 3600);
    expect(new URL(session.success_url).searchParams.get('statusToken')).toBe(reserved.body.statusToken);
    expect(new URL(session.cancel_url).searchParams.get('retryToken')).toBe(reserved.body.retryToken);
    expect(pending.body).toEqual(
      expect.objectContaining({ ok: true, orderId: reserved.body.orderId, status: 'pending' }),
    );
    expect(pending.body).not.toHaveProperty('code');
    expect(paid.body).toEqual(
      expect.objectContaining({
        status: 'paid',
        personId: expect.stringMatching(/^per_/),
        code: expect.stringMatching(/^[A-Z2-9]{4}$/),
        name: 'Ada Lovelace',
      }),
    );
    const persons = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
    expect(persons.body.persons).toEqual([
      expect.objectContaining({
        personId: paid.body.personId,
        code: paid.body.code,
        packageId: studio.paidPackage.id,
        shootingDayId: studio.smallDay.id,
        hasSelfie: true,
      }),
    ]);
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays[0].booked).toBe(1);
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.orders).toEqual({ pending: 0, paid: 1, expired: 0, canceled: 0 });
    expect(stats.body.persons.bySource.checkin).toBe(1);
  });

  it('holds the spot: with capacity 1 a second participant is refused until the first checkout expires', async () => {
    const studio = await createPayingStudio();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-07-01',
      label: 'One',
      startTime: '09:00',
      endTime: '09:30',
      maxPersons: 1,
    });
    const first = await post(studio, paidBody(studio, { shootingDayId: day.id }));
    const second = await post(studio, studio.validBody({ shootingDayId: day.id, name: 'Second' }));
    await stripe.emulator.expire(sessionIdOf(first.body.checkoutUrl));
    const status = await post(studio, { action: 'checkinStatus', statusToken: first.body.statusToken });
    const secondAgain = await post(studio, studio.validBody({ shootingDayId: day.id, name: 'Second' }));
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('shooting_day_full');
    expect(status.body.status).toBe('expired');
    expect(secondAgain.status).toBe(200);
  });

  it('creates one person from a duplicated webhook, and from two events of one payment', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    Object.assign(session, { status: 'complete', payment_status: 'paid' });
    const { account, ...object } = session;
    const deliveries = [
      await stripe.emulator.deliver('checkout.session.completed', account, object, 'evt_same_event_twice'),
      await stripe.emulator.deliver('checkout.session.completed', account, object, 'evt_same_event_twice'),
      await stripe.emulator.deliver('checkout.session.async_payment_succeeded', account, object),
    ];
    expect(deliveries).toEqual([200, 200, 200]);
    expect(await storedPersons(studio)).toHaveLength(1);
  });

  it('refuses a webhook with a bad signature with 400 and changes nothing', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    const session = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      account: session.account,
      data: { object: { ...session, payment_status: 'paid' } },
    });
    const answer = await fetch(`${api.url}/webhooks/stripe`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: payload,
    });
    const body = (await answer.json()) as { error: string };
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    expect(answer.status).toBe(400);
    expect(body.error).toBe('invalid_signature');
    expect(status.body.status).toBe('pending');
    expect(await storedPersons(studio)).toHaveLength(0);
  });

  it('acknowledges events for orders it does not know', async () => {
    const status = await stripe.emulator.deliver('checkout.session.completed', 'acct_nobody', {
      id: 'cs_test_unknown',
      object: 'checkout.session',
      payment_status: 'paid',
      metadata: { orderId: 'ord_unknown', tenantId: 'ten_unknown', galleryToken: 'nope' },
    });
    expect(status).toBe(200);
  });

  it('gives a new checkout URL for the same order on retry after cancel, and the old session can no longer be paid', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio, { shootingDayId: studio.smallDay.id }));
    const retried = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
    const oldSession = stripe.emulator.sessions.get(sessionIdOf(reserved.body.checkoutUrl))!;
    expect(retried.status).toBe(200);
    expect(retried.body.orderId).toBe(reserved.body.orderId);
    expect(retried.body.checkoutUrl).not.toBe(reserved.body.checkoutUrl);
    expect(oldSession.status).toBe('expired');
    await stripe.emulator.pay(sessionIdOf(retried.body.checkoutUrl));
    const status = await post(studio, { action: 'checkinStatus', statusToken: retried.body.statusToken });
    const firstToken = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    expect(status.body.status).toBe('paid');
    expect(firstToken.body.status).toBe('paid');
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays[0].booked).toBe(1); // the expiry of the replaced session released nothing
    const again = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
    expect(again.body.error).toBe('order_already_paid');
  });

  it('keeps a pending reservation whole when Stripe fails during a retry', async () => {
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio, { shootingDayId: studio.smallDay.id }));
    stripe.emulator.failNextCalls(5);
    const failed = await post(studio, { action: 'retryCheckout', retryToken: reserved.body.retryToken });
    stripe.emulator.failNextCalls(0);
    await stripe.emulator.expire(sessionIdOf(reserved.body.checkoutUrl)); // the old session still frees the spot
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('payment_provider_unavailable');
    expect(status.body.status).toBe('expired');
    expect(days.body.shootingDays[0].booked).toBe(0);
  });

  it('retries an expired reservation while its spot can be taken again, else shooting_day_full', async () => {
    const studio = await createPayingStudio();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: '2027-07-02',
      label: 'One',
      startTime: '09:00',
      endTime: '09:30',
      maxPersons: 1,
    });
    const first = await post(studio, paidBody(studio, { shootingDayId: day.id }));
    await stripe.emulator.expire(sessionIdOf(first.body.checkoutUrl));
    const reopened = await post(studio, { action: 'retryCheckout', retryToken: first.body.retryToken });
    expect(reopened.status).toBe(200);
    await stripe.emulator.expire(sessionIdOf(reopened.body.checkoutUrl));
    const other = await post(studio, studio.validBody({ shootingDayId: day.id, name: 'Took it' }));
    const refused = await post(studio, { action: 'retryCheckout', retryToken: first.body.retryToken });
    expect(other.status).toBe(200);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('shooting_day_full');
  });

  it('keeps tokens to their tenant and purpose', async () => {
    const [studio, other] = await Promise.all([createPayingStudio(), createPayingStudio()]);
    const reserved = await post(studio, paidBody(studio));
    const answers = [
      await post(other, { action: 'checkinStatus', statusToken: reserved.body.statusToken }, other.publicHeaders),
      await post(studio, { action: 'checkinStatus', statusToken: reserved.body.retryToken }),
      await post(studio, { action: 'retryCheckout', retryToken: reserved.body.statusToken }),
      await post(studio, { action: 'checkinStatus', statusToken: 'gst_madeup' }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(4).fill([404, 'invalid_checkout_token']),
    );
    const missing = await post(studio, { action: 'checkinStatus' });
    expect(missing.body).toEqual(expect.objectContaining({ error: 'invalid_field', field: 'statusToken' }));
  });
});

describe('paid check-in: the payment checks, in order', () => {
  it('gives terms_not_accepted before anything else of payments', async () => {
    const studio = await createCheckinStudio(); // not approved, no account
    const answer = await post(studio, paidBody(studio, { termsAccepted: false }));
    expect(answer.body.error).toBe('terms_not_accepted');
  });

  it('gives payment_access_not_approved for a studio without approval', async () => {
    const studio = await createCheckinStudio();
    await updateTenantSettings(studio.slug, { stripeAccountId: 'acct_unapproved' });
    const answer = await post(studio, paidBody(studio));
    expect(answer.body.error).toBe('payment_access_not_approved');
  });

  it.each([
    ['has no connected account', undefined, undefined],
    ['has charges disabled', { charges_enabled: false, card_payments: 'active' as const }, 'x'],
    ['has card payments pending', { charges_enabled: true, card_payments: 'pending' as const }, 'x'],
  ])('gives connect_not_ready_for_payments when the account %s', async (_case, account, _flag) => {
    const studio = await createCheckinStudio();
    const accountId = account ? `acct_${studio.slug.replace(/-/g, '')}` : undefined;
    await updateTenantSettings(studio.slug, { paymentAccessApproved: true, stripeAccountId: accountId });
    if (account && accountId) stripe.emulator.setAccount(accountId, account);
    const answer = await post(studio, paidBody(studio));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('connect_not_ready_for_payments');
    expect(await storedPersons(studio)).toHaveLength(0);
  });

  it('follows account.updated at once, whatever it read before', async () => {
    const studio = await createPayingStudio();
    const accountId = `acct_${studio.slug.replace(/-/g, '')}`;
    expect((await post(studio, paidBody(studio))).status).toBe(200); // reads and caches: ready
    await stripe.emulator.deliver('account.updated', accountId, {
      id: accountId,
      object: 'account',
      charges_enabled: false,
      capabilities: { card_payments: 'inactive' },
    });
    const refused = await post(studio, paidBody(studio));
    await stripe.emulator.deliver('account.updated', accountId, {
      id: accountId,
      object: 'account',
      charges_enabled: true,
      capabilities: { card_payments: 'active' },
    });
    const accepted = await post(studio, paidBody(studio));
    expect(refused.body.error).toBe('connect_not_ready_for_payments');
    expect(accepted.status).toBe(200);
  });

  it('gives package_amount_exceeds_limit above the transaction limit', async () => {
    const studio = await createPayingStudio();
    const expensive = await addPackage(studio.tenant.tenantId, studio.token, {
      name: 'Gold',
      description: '',
      price: 100_001,
      currency: 'eur',
      position: 9,
    });
    const atLimit = await addPackage(studio.tenant.tenantId, studio.token, {
      name: 'Silver',
      description: '',
      price: 100_000,
      currency: 'eur',
      position: 8,
    });
    const refused = await post(studio, paidBody(studio, { selectedPackageId: expensive.id }));
    const accepted = await post(studio, paidBody(studio, { selectedPackageId: atLimit.id }));
    expect(refused.body.error).toBe('package_amount_exceeds_limit');
    expect(accepted.status).toBe(200);
  });

  it('answers 502 payment_provider_unavailable when Stripe is down, leaving no order, spot or selfie', async () => {
    const studio = await createPayingStudio();
    await post(studio, paidBody(studio)); // readiness is read and cached while Stripe is up
    stripe.emulator.failNextCalls(5);
    const answer = await post(
      studio,
      paidBody(studio, { shootingDayId: studio.smallDay.id, selfieBase64: makeJpeg(8, 8).toString('base64') }),
    );
    stripe.emulator.failNextCalls(0);
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(
      expect.objectContaining({ ok: false, error: 'payment_provider_unavailable', requestId: expect.any(String) }),
    );
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays[0].booked).toBe(0);
    const orders = await queryPartition(keys.ordersOfGallery(studio.tenant.tenantId, studio.token));
    expect(orders).toHaveLength(1); // only the first, successful reservation
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const { testS3 } = await import('../../support/media');
    const selfies = await testS3.send(
      new ListObjectsV2Command({ Bucket: process.env.MEDIA_BUCKET, Prefix: `selfies/${studio.tenant.tenantId}/` }),
    );
    expect(selfies.Contents ?? []).toEqual([]);
  });
});
