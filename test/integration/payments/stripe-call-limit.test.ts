import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { queryPartition } from '#lib/platform/table/queries';
import { rateLimitKeys } from '#lib/rate-limits/store/keys';
import { STRIPE_CHECKIN_LIMIT } from '#lib/payments/rules/stripe-call-limit';
import { stripePlatformCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import { burstTolerance } from '#lib/rate-limits/rules/rate-limit';
import { keys } from '../../support/table-keys';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useStripeEmulator } from '../../support/stripe';

/**
 * The platform account's Stripe limit (docs/payments.md#stripe-call-limit): paid check-ins and
 * retries take a token from one bucket in the table, shared by every instance, before any Stripe
 * call; free check-ins never do.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });

/** The bucket as other instances left it: spent, its next token `waitMs` away. */
async function spendStripeBudget(waitMs: number) {
  const tat = Date.now() + burstTolerance(STRIPE_CHECKIN_LIMIT) + waitMs;
  await db.send(
    new PutCommand({ TableName: tableName, Item: { ...rateLimitKeys.rateLimit(stripePlatformCounterId()), tat } }),
  );
}

describe('POST /group-shoot: the Stripe limit of paid check-ins', () => {
  it('refuses a paid check-in with 429 rate_limit_exceeded and Retry-After while the budget is spent, reserving nothing, and admits free check-ins', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const sessionsBefore = stripe.emulator.sessions.size;
    await spendStripeBudget(1_500);

    // Act
    const paid = await post(
      studio,
      studio.validBody({ name: 'Paying Person', selectedPackageId: studio.paidPackage.id, termsAccepted: true }),
    );
    const free = await post(studio, studio.validBody({ name: 'Free Person', shootingDayId: studio.openDay.id }));

    // Assess
    expect(paid.status).toBe(429);
    expect(paid.body).toEqual({
      ok: false,
      error: 'rate_limit_exceeded',
      message: expect.stringMatching(
        /^Many participants are paying right now; nothing was reserved\. Retry in [23] seconds\.$/,
      ),
      requestId: paid.headers.get('x-request-id'),
    });
    expect(paid.headers.get('retry-after')).toMatch(/^[23]$/);
    expect(stripe.emulator.sessions.size).toBe(sessionsBefore);
    expect(free.status).toBe(200);
    const persons = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(persons.map((person) => person.name)).toEqual(['Free Person']);
    const orders = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(orders.body.orders).toEqual({ pending: 0, paid: 0, expired: 0, canceled: 0 });
  });

  it('admits the paid check-in sent again after Retry-After', async () => {
    // Prepare
    const studio = await createPayingStudio();
    await spendStripeBudget(500);
    const body = studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true });
    const refused = await post(studio, body);

    // Act: the participant's page waits as told.
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after')) * 1000));
    const again = await post(studio, body);

    // Assess
    expect([refused.status, again.status]).toEqual([429, 200]);
    expect(again.body.checkoutUrl).toEqual(expect.stringContaining('/pay/cs_test_'));
  });
});
