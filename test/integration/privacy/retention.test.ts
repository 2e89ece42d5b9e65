import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listObjectVersions } from '#lib/platform/media-bucket';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { type StoredOrder, getOrder } from '#lib/payments/store/orders';
import { getPerson } from '#lib/persons/store/persons';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { DEFAULT_RETENTION } from '#lib/galleries/rules/retention-policy';
import { applyGalleryRetention, emptyRetentionTally } from '#lib/privacy/retention';
import { admin } from '../../support/admin';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';

const api = useLocalApi();
const stripe = useStripeEmulator(api);

const DAY_MS = 24 * 3600 * 1000;
/** The studio's last shooting day is 2027-05-02 (test/support/checkin-gallery.ts); retention counts from its end. */
const LAST_DAY_END = Date.parse('2027-05-03T00:00:00Z');
const daysAfterLastDay = (days: number) => LAST_DAY_END + days * DAY_MS + 1000;

const emptyTally = emptyRetentionTally;
const selfie = () => makeJpeg(16, 16).toString('base64');

async function checkIn(studio: CheckinStudio, name: string, extra: Record<string, unknown> = {}) {
  const answer = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: studio.validBody({ name, selfieBase64: selfie(), ...extra }),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('retention of personal data', () => {
  it('keeps everything until the selfie period ends, then removes every selfie but keeps the persons', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const person = await checkIn(studio, 'Selma Selfie');
    const selfieKey = selfieObjectKey(scope.tenantId, scope.token, person.personId);
    // Act
    const before = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(DEFAULT_RETENTION.selfieDays) - 2000, before);
    const versionsBefore = await listObjectVersions(selfieKey);
    const after = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(DEFAULT_RETENTION.selfieDays), after);
    // Assess
    expect(before.selfieVersionsDeleted).toBe(0);
    expect(versionsBefore).toHaveLength(1);
    expect(after.selfieVersionsDeleted).toBe(1);
    expect(await listObjectVersions(selfieKey)).toEqual([]);
    expect(await getPerson(scope, person.personId)).toEqual(
      expect.objectContaining({ name: 'Selma Selfie', hasSelfie: false }),
    );
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    expect(stats.body.persons).toEqual(expect.objectContaining({ total: 1, withSelfie: 0 }));
  });

  it('removes persons with everything of theirs once the person period ends, as erasure does', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const person = await checkIn(studio, 'Pia Period', { shootingDayId: studio.smallDay.id });
    // Act
    const tally = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(DEFAULT_RETENTION.personDays), tally);
    // Assess
    expect(tally).toEqual(expect.objectContaining({ personsErased: 1, selfieVersionsDeleted: 1 }));
    expect(await getPerson(scope, person.personId)).toBeUndefined();
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays.find((day: { id: string }) => day.id === studio.smallDay.id).booked).toBe(0);
    const info = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect(info.status).toBe(200);
  });

  it('erases the others while an order waits for payment, and that one on a later run once it has ended', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const free = await checkIn(studio, 'Fritz Free');
    const reserved = await checkIn(studio, 'Paula Pending', {
      selectedPackageId: studio.paidPackage.id,
      termsAccepted: true,
    });
    const pendingOrder = (await getOrder(scope.tenantId, scope.token, reserved.orderId))!;
    const pendingSelfie = selfieObjectKey(scope.tenantId, scope.token, (pendingOrder as StoredOrder).person.personId);
    // Act
    const first = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(DEFAULT_RETENTION.personDays), first);
    const whilePending = await getOrder(scope.tenantId, scope.token, reserved.orderId);
    const selfieWhilePending = await listObjectVersions(pendingSelfie);
    await stripe.emulator.expire(reserved.checkoutUrl.split('/').pop());
    const later = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(DEFAULT_RETENTION.personDays + 1), later);
    // Assess
    expect(first).toEqual(expect.objectContaining({ personsErased: 1, personsDeferred: 1, ordersRedacted: 0 }));
    expect(await getPerson(scope, free.personId)).toBeUndefined();
    expect(whilePending).toEqual(
      expect.objectContaining({ status: 'pending', person: expect.objectContaining({ name: 'Paula Pending' }) }),
    );
    expect(selfieWhilePending).toHaveLength(1);
    expect(later).toEqual(expect.objectContaining({ personsDeferred: 0, ordersRedacted: 1, selfieVersionsDeleted: 1 }));
    const ended = await getOrder(scope.tenantId, scope.token, reserved.orderId);
    expect(ended).toEqual(expect.objectContaining({ status: 'expired', erasedAt: expect.any(String) }));
    expect(ended).not.toHaveProperty('person');
    expect(await listObjectVersions(pendingSelfie)).toEqual([]);
  });

  it('follows the days a gallery sets with the admin command', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const person = await checkIn(studio, 'Gina Gallery');
    // Act
    const set = await admin(
      'gallery',
      'retention',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--selfie-days',
      '2',
      '--person-days',
      '5',
      '--json',
    );
    const tally = emptyTally();
    await applyGalleryRetention(scope, daysAfterLastDay(5), tally);
    // Assess
    expect(set.code).toBe(0);
    expect(set.json()).toEqual({ selfieDays: 2, personDays: 5, orderDays: DEFAULT_RETENTION.orderDays });
    expect(tally.personsErased).toBe(1);
    expect(await getPerson(scope, person.personId)).toBeUndefined();
  });

  it('removes the participant and selfie of a reservation never paid once its retry token expired, whatever the shooting days', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const reserved = await checkIn(studio, 'Rhea Reserved', {
      selectedPackageId: studio.paidPackage.id,
      termsAccepted: true,
    });
    await stripe.emulator.expire(reserved.checkoutUrl.split('/').pop());
    const order = (await getOrder(scope.tenantId, scope.token, reserved.orderId))!;
    expect(order.status).toBe('expired');
    const selfieKey = selfieObjectKey(scope.tenantId, scope.token, (order as StoredOrder).person.personId);
    // The order was made 31 days before "now" (the gallery's days are still ahead).
    const nowMs = Date.parse(order.createdAt) + 31 * DAY_MS;
    // An attribute erasure does not know must go too: only the accounting attributes are kept.
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.order(scope.tenantId, scope.token, reserved.orderId),
        UpdateExpression: 'SET touched = :t',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
    // Act
    const early = emptyTally();
    await applyGalleryRetention(scope, Date.parse(order.createdAt) + 29 * DAY_MS, early);
    const due = emptyTally();
    await applyGalleryRetention(scope, nowMs, due);
    // Assess
    expect(early.ordersRedacted).toBe(0);
    expect(due).toEqual(expect.objectContaining({ ordersRedacted: 1, selfieVersionsDeleted: 1 }));
    expect(await listObjectVersions(selfieKey)).toEqual([]);
    const redacted = await getOrder(scope.tenantId, scope.token, reserved.orderId);
    expect(redacted).toEqual(
      expect.objectContaining({ status: 'expired', amount: 2900, erasedAt: expect.any(String) }),
    );
    expect(redacted).not.toHaveProperty('person');
    expect(redacted).not.toHaveProperty('touched');
  });
});
