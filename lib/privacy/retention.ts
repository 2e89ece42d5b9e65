import { deleteObjectVersions, exactObjectVersions, hasObjectsUnder } from '#lib/platform/media-bucket';
import { clearSelfieFlag } from '#lib/privacy/store/person-erasure';
import { forEachPersonPage } from '#lib/persons/store/person-lookups';
import {
  type OrderWithParticipant,
  forEachOrderPage,
  hasParticipant,
  redactOrder,
} from '#lib/payments/store/order-erasure';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { deleteIdempotencyRecord, idempotencyRecordsNaming } from '#lib/idempotency/store/idempotency-records';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { galleryMediaPrefixes, selfieObjectKey, thumbnailPrefix } from '#lib/platform/media-keys';
import { CHECKOUT_TOKEN_LIFETIME_SECONDS } from '#lib/payments/rules/order-lifecycle';
import { retentionOf } from '#lib/galleries/rules/retention-policy';
import { isRetentionDue, personalOrderAttributes, retentionStartDate } from '#lib/privacy/rules/personal-data';
import { ERASURE_PAGE_SIZE, eraseParticipantsOfGallery } from '#lib/privacy/gallery-erasure';
import { eraseObjectsUnder } from '#lib/privacy/erase-objects';
import { deleteReferenceFaces } from '#lib/faces/store/reference-faces';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';

/**
 * Retention, carried out once a day without anyone running a command (the stack schedules
 * it; `npm start` runs it every hour). For each gallery, counted from its last shooting day
 * (lib/privacy/rules/personal-data.ts): selfies go after `selfieDays`, the participants' data in
 * ended orders after `orderDays`, persons with everything of theirs after `personDays`. In any
 * gallery, a reservation never paid loses its participant's data and selfie once its retry
 * token has expired: nothing can complete it any more. An order still waiting for payment is
 * left for a later run, never a reason to leave the rest. Each gallery is a unit of work of its
 * own (lib/privacy/plan-retention.ts queues them, lib/privacy/retain-queued-galleries.ts runs them).
 * Every pass reads a page at a time (persons, orders, object versions), so that a gallery's size
 * never decides what it holds in memory.
 */

export interface RetentionTally {
  personsErased: number;
  /** Participants of orders still waiting for payment, left for a later run. */
  personsDeferred: number;
  selfieVersionsDeleted: number;
  ordersRedacted: number;
  idempotencyRecordsDeleted: number;
  /** Reference faces deleted with the selfies they were described from. */
  referenceFacesDeleted: number;
}

export function emptyRetentionTally(): RetentionTally {
  return {
    personsErased: 0,
    personsDeferred: 0,
    selfieVersionsDeleted: 0,
    ordersRedacted: 0,
    idempotencyRecordsDeleted: 0,
    referenceFacesDeleted: 0,
  };
}

/** One gallery's retention; what is gone already costs a read, not a write. */
export async function applyGalleryRetention(scope: GalleryScope, nowMs: number, tally: RetentionTally): Promise<void> {
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) return;
  const policy = retentionOf(configuration.gallery.retention);
  const start = retentionStartDate(
    configuration.shootingDays.map((day) => day.date),
    configuration.gallery.createdAt,
  );
  if (isRetentionDue(start, policy.personDays, nowMs)) {
    const receipt = await eraseParticipantsOfGallery(scope, { deferPending: true });
    tally.personsErased += receipt.personCount;
    tally.personsDeferred += receipt.ordersDeferred?.length ?? 0;
    tally.selfieVersionsDeleted += receipt.selfieVersions;
    tally.ordersRedacted += receipt.ordersRedactedCount;
    tally.idempotencyRecordsDeleted += receipt.idempotencyRecords;
    return;
  }
  const ordersDue = isRetentionDue(start, policy.orderDays, nowMs);
  const retryWindowStart = new Date(nowMs - CHECKOUT_TOKEN_LIFETIME_SECONDS * 1000).toISOString();
  await forEachOrderPage(scope, ERASURE_PAGE_SIZE, async (orders) => {
    const ended = orders.filter(
      (order): order is OrderWithParticipant =>
        hasParticipant(order) &&
        order.status !== 'pending' &&
        (ordersDue || (order.status !== 'paid' && order.createdAt < retryWindowStart)),
    );
    await redactOrders(scope, ended, tally);
  });
  if (isRetentionDue(start, policy.selfieDays, nowMs)) await removeSelfies(scope, configuration, tally);
}

/** Ended orders lose their participant's data; a reservation never paid also its selfie, and the idempotency records answering with it. */
async function redactOrders(scope: GalleryScope, orders: OrderWithParticipant[], tally: RetentionTally): Promise<void> {
  if (orders.length === 0) return;
  const unpaidSelfies = orders
    .filter((order) => order.status !== 'paid' && order.person.hasSelfie)
    .map((order) => selfieObjectKey(scope.tenantId, scope.token, order.person.personId));
  const versions = (await Promise.all(unpaidSelfies.map(exactObjectVersions))).flat();
  await deleteObjectVersions(versions);
  tally.selfieVersionsDeleted += versions.length;
  const orderIds = new Set(orders.map((order) => order.orderId));
  const named = await idempotencyRecordsNaming(scope, {
    personIds: new Set(orders.map((order) => order.person.personId)),
    orderIds,
  });
  const records = [
    ...new Map(
      named
        .filter((record) => record.orderIds.some((orderId) => orderIds.has(orderId)))
        .map((record) => [record.scopeHash, record]),
    ).values(),
  ];
  for (const record of records) await deleteIdempotencyRecord(record.scopeHash);
  tally.idempotencyRecordsDeleted += records.length;
  for (const order of orders) await redactOrder(order, personalOrderAttributes(order));
  tally.ordersRedacted += orders.length;
}

/**
 * Every selfie of the gallery goes, every version, with its thumbnail and every reference face
 * described from one, and nobody stays among the face candidates of its photos; persons stay,
 * marked as having none. The marks go first: from then on no reference face can be stored
 * (putReferenceFace checks the mark), so deleting them after leaves none behind. The objects go
 * last, so that a run cut short is finished by the next one.
 */
async function removeSelfies(
  scope: GalleryScope,
  configuration: GalleryConfiguration,
  tally: RetentionTally,
): Promise<void> {
  const selfies = galleryMediaPrefixes(scope.tenantId, scope.token).selfies;
  const selfiesLeft = configuration.counters.personsWithSelfie > 0 || (await hasObjectsUnder(selfies));
  if (selfiesLeft) {
    await forEachPersonPage(scope, ERASURE_PAGE_SIZE, async (persons) => {
      for (const person of persons) if (person.hasSelfie) await clearSelfieFlag(scope, person.personId);
    });
  }
  const referenceFaces = await deleteReferenceFaces(scope);
  tally.referenceFacesDeleted += referenceFaces;
  if (!selfiesLeft && referenceFaces === 0) return;
  await forgetFaceCandidates(scope, 'all');
  tally.selfieVersionsDeleted += await eraseObjectsUnder(selfies, false);
  await eraseObjectsUnder(thumbnailPrefix(selfies), false);
}
