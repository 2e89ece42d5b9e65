import { eraseObjectsUnder } from '#lib/privacy/erase-objects';
import { deletePersonRecords } from '#lib/privacy/store/person-erasure';
import { deleteAccessCodes } from '#lib/persons/store/person-erasure';
import { forEachPersonPage } from '#lib/persons/store/person-lookups';
import { getPerson } from '#lib/persons/store/persons';
import {
  type OrderWithParticipant,
  forEachOrderPage,
  hasParticipant,
  redactOrder,
} from '#lib/payments/store/order-erasure';
import { deleteEvents, forEachEventPage } from '#lib/events/store/outbox';
import { deletePhotoRecords, photoRecordKeys } from '#lib/photos/common/store/photos';
import {
  deleteGalleryConfiguration,
  galleryConfigurationKeys,
  getGalleryConfiguration,
} from '#lib/galleries/store/galleries';
import { eraseWholeShoot } from '#lib/photos/sorting/erase-whole-shoot';
import { countReferenceFacesOfGallery, deleteReferenceFaces } from '#lib/faces/store/reference-faces';
import { deleteIdempotencyRecord, forEachIdempotencyRecordPage } from '#lib/idempotency/store/idempotency-records';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { galleryMediaPrefixes, selfieObjectKey, thumbnailPrefix } from '#lib/platform/media-keys';
import { personalOrderAttributes } from '#lib/privacy/rules/personal-data';
import { photoInvalidationPaths } from '#lib/privacy/rules/cdn-invalidation';
import { invalidatePhotoCdnPaths } from '#lib/privacy/adapters/photo-cdn-invalidation';
import { eraseHrExports, planHrExportErasure } from '#lib/hr-exports/erase-hr-exports';
import {
  type ErasureOptions,
  type ErasureReceipt,
  type GalleryErasureOptions,
  RECEIPT_ID_LIMIT,
  refuseWhilePending,
} from '#lib/privacy/erasure-receipt';

/**
 * Erasure of a whole gallery's participants, a page at a time: persons, orders, events,
 * idempotency records, reference faces and the shoot are read ERASURE_PAGE_SIZE items at a
 * time, object versions a list of 1,000 at a time, and each page is carried out (or, in a dry
 * run, counted) before the next is read. What it keeps in memory stays the same whatever the
 * gallery's size: counts, the orders still waiting for payment, and at most RECEIPT_ID_LIMIT
 * person and order IDs for the receipt.
 */

/** Items of the table read at once (persons, orders, events, idempotency records). */
export const ERASURE_PAGE_SIZE = 100;

/** Who an erasure of every participant leaves for later: the participants of orders still waiting for payment. */
interface Deferral {
  orderIds: ReadonlySet<string>;
  personIds: ReadonlySet<string>;
  selfieKeys: ReadonlySet<string>;
}

/**
 * Erases every participant of a gallery: every person and what belongs to them, every selfie
 * and photo under the gallery's prefixes (objects no person claims included), the
 * participants' data in its orders, every idempotency record and every event of the gallery. The gallery's
 * configuration stays; retention erases so once a gallery's persons are due. An order waiting for
 * payment makes it refuse, as erasePersons does, unless `deferPending` leaves such orders for later.
 */
export function eraseParticipantsOfGallery(
  scope: GalleryScope,
  options: GalleryErasureOptions = {},
): Promise<ErasureReceipt> {
  return eraseEveryParticipant(scope, options, { deleteCodes: false });
}

/**
 * Erases a gallery: its participants as eraseParticipantsOfGallery does (their access codes too,
 * page by page), then its configuration and its pointer, so that its token opens nothing any
 * more. Orders stay as accounting records.
 */
export async function eraseGallery(scope: GalleryScope, options: ErasureOptions = {}): Promise<ErasureReceipt> {
  const receipt = await eraseEveryParticipant(scope, options, { deleteCodes: true });
  const configurationKeys = await galleryConfigurationKeys(scope);
  if (!options.dryRun) await deleteGalleryConfiguration(scope, configurationKeys);
  return { ...receipt, subject: `gallery ${scope.token}`, galleryItems: configurationKeys.length };
}

/**
 * The order of the passes: the media (the inbox's shoot objects are under the gallery's photos
 * prefix), the shoot (the persons' cards become erased cards), the HR exports, events, orders,
 * idempotency records, reference faces, then the persons a page at a time with their photo
 * records; last the shoot and the photos once more, for a photo placed while the erasure ran,
 * the thumbnails, and the photo CDN forgets the gallery's photos.
 */
async function eraseEveryParticipant(
  scope: GalleryScope,
  options: GalleryErasureOptions,
  /** Delete the persons' access codes too (the gallery goes): kept otherwise, so that the gallery never gives one out again. */
  { deleteCodes }: { deleteCodes: boolean },
): Promise<ErasureReceipt> {
  const subject = `every participant of gallery ${scope.token}`;
  const dryRun = options.dryRun === true;
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  const existingDays = new Set(configuration?.shootingDays.map((day) => day.id));
  const pending = await pendingOrdersOf(scope);
  if (!options.deferPending)
    refuseWhilePending(
      subject,
      pending.map((order) => order.orderId),
    );
  const deferral: Deferral = {
    orderIds: new Set(pending.map((order) => order.orderId)),
    personIds: new Set(pending.map((order) => order.person.personId)),
    selfieKeys: new Set(pending.map((order) => selfieObjectKey(scope.tenantId, scope.token, order.person.personId))),
  };
  const erasable = (personId: string | undefined) => personId === undefined || !deferral.personIds.has(personId);
  const receipt = emptyReceipt(subject, dryRun);
  const prefixes = galleryMediaPrefixes(scope.tenantId, scope.token);

  receipt.selfieVersions = await eraseObjectsUnder(
    prefixes.selfies,
    dryRun,
    (version) => !deferral.selfieKeys.has(version.key),
  );
  receipt.photoObjectVersions = await eraseObjectsUnder(prefixes.photos, dryRun);
  receipt.shootItems = await eraseWholeShoot(scope, erasable, { dryRun });
  const hrExports = await planHrExportErasure(scope, 'gallery');
  receipt.hrExports = hrExports.exportIds.length;
  receipt.portraitCropVersions = hrExports.cropVersions.length;
  if (!dryRun) await eraseHrExports(scope, hrExports);
  await eraseEvents(scope, receipt, erasable);
  await redactOrders(scope, receipt, deferral);
  await eraseIdempotencyRecords(scope, receipt, erasable, deferral);
  receipt.referenceFaces = dryRun ? await countReferenceFacesOfGallery(scope) : await deleteReferenceFaces(scope);
  await erasePersons(scope, receipt, { erasable, existingDays, deleteCodes });
  if (dryRun) return receipt;

  // A photo placed while the erasure ran: once the persons are gone no placement can give them anything.
  await eraseWholeShoot(scope, erasable);
  const sweptPhotos = await eraseObjectsUnder(prefixes.photos, false);
  for (const prefix of Object.values(prefixes)) await eraseObjectsUnder(thumbnailPrefix(prefix), false);
  const photosErased = receipt.photoObjectVersions + receipt.shootItems + sweptPhotos > 0;
  await invalidatePhotoCdnPaths(
    photoInvalidationPaths(scope, {
      wholeGallery: true,
      personIds: [],
      objectKeys: photosErased ? [prefixes.photos] : [],
    }),
  );
  return { ...receipt, ...(options.deferPending ? { ordersDeferred: [...deferral.orderIds] } : {}) };
}

function emptyReceipt(subject: string, dryRun: boolean): ErasureReceipt {
  return {
    dryRun,
    subject,
    persons: [],
    personCount: 0,
    accessCodes: 0,
    spotsGivenBack: 0,
    selfieVersions: 0,
    photoRecords: 0,
    photoObjectVersions: 0,
    ordersRedacted: [],
    ordersRedactedCount: 0,
    checkoutTokens: 0,
    idempotencyRecords: 0,
    events: 0,
    consentChanges: 0,
    shootItems: 0,
    referenceFaces: 0,
    hrExports: 0,
    portraitCropVersions: 0,
  };
}

/** Keeps an ID for the receipt while it lists fewer than RECEIPT_ID_LIMIT. */
function listOnReceipt(ids: string[], id: string): void {
  if (ids.length < RECEIPT_ID_LIMIT) ids.push(id);
}

/** The gallery's orders still waiting for payment (a reservation's checkout may still complete): few, whatever the gallery's size. */
async function pendingOrdersOf(scope: GalleryScope): Promise<OrderWithParticipant[]> {
  const pending: OrderWithParticipant[] = [];
  await forEachOrderPage(scope, ERASURE_PAGE_SIZE, (orders) => {
    pending.push(...orders.filter(hasParticipant).filter((order) => order.status === 'pending'));
  });
  return pending;
}

async function eraseEvents(
  scope: GalleryScope,
  receipt: ErasureReceipt,
  erasable: (personId: string | undefined) => boolean,
): Promise<void> {
  await forEachEventPage(scope, ERASURE_PAGE_SIZE, async (events) => {
    const doomed = events.filter((event) => erasable(event.personId));
    receipt.events += doomed.length;
    if (!receipt.dryRun) await deleteEvents(doomed.map((event) => event.key));
  });
}

async function redactOrders(scope: GalleryScope, receipt: ErasureReceipt, deferral: Deferral): Promise<void> {
  await forEachOrderPage(scope, ERASURE_PAGE_SIZE, async (orders) => {
    for (const order of orders.filter(hasParticipant)) {
      if (deferral.orderIds.has(order.orderId)) continue;
      receipt.ordersRedactedCount += 1;
      listOnReceipt(receipt.ordersRedacted, order.orderId);
      receipt.checkoutTokens += order.tokenHashes?.length ?? 0;
      if (!receipt.dryRun) await redactOrder(order, personalOrderAttributes(order));
    }
  });
}

async function eraseIdempotencyRecords(
  scope: GalleryScope,
  receipt: ErasureReceipt,
  erasable: (personId: string | undefined) => boolean,
  deferral: Deferral,
): Promise<void> {
  await forEachIdempotencyRecordPage(scope, ERASURE_PAGE_SIZE, async (records) => {
    const doomed = records.filter(
      (record) =>
        record.personIds.every(erasable) && !record.orderIds.some((orderId) => deferral.orderIds.has(orderId)),
    );
    receipt.idempotencyRecords += doomed.length;
    if (!receipt.dryRun) for (const record of doomed) await deleteIdempotencyRecord(record.scopeHash);
  });
}

/**
 * The persons, a page at a time: each page's photo records, then each person as it is now, in
 * the transaction that gives its spot back and corrects the statistics (and, with
 * `deleteCodes`, their access codes), then the page's photo records once more.
 */
async function erasePersons(
  scope: GalleryScope,
  receipt: ErasureReceipt,
  how: {
    erasable: (personId: string) => boolean;
    existingDays: ReadonlySet<string>;
    deleteCodes: boolean;
  },
): Promise<void> {
  const givesSpotBack = (person: { shootingDayId: string | null }) =>
    person.shootingDayId !== null && how.existingDays.has(person.shootingDayId);
  const recordsOf = async (personIds: readonly string[]) =>
    (await Promise.all(personIds.map((personId) => photoRecordKeys(scope, personId)))).flat();
  await forEachPersonPage(scope, ERASURE_PAGE_SIZE, async (listed) => {
    const persons = listed.filter((person) => how.erasable(person.personId));
    const personIds = persons.map((person) => person.personId);
    receipt.personCount += persons.length;
    receipt.accessCodes += persons.length;
    receipt.consentChanges += persons.reduce(
      (count, person) => count + Object.keys(person.consentChanges ?? {}).length,
      0,
    );
    for (const personId of personIds) listOnReceipt(receipt.persons, personId);
    const records = await recordsOf(personIds);
    receipt.photoRecords += records.length;
    if (receipt.dryRun) {
      receipt.spotsGivenBack += persons.filter(givesSpotBack).length;
      return;
    }
    await deletePhotoRecords(records);
    for (const { personId } of persons) {
      // As it is now: taking its shoot photos away has counted its photos down already.
      const person = await getPerson(scope, personId, { consistent: true });
      if (!person) continue;
      if ((await deletePersonRecords(scope, person, how.existingDays)) && givesSpotBack(person))
        receipt.spotsGivenBack += 1;
    }
    if (how.deleteCodes)
      await deleteAccessCodes(
        scope,
        persons.map((person) => person.code),
      );
    await deletePhotoRecords(await recordsOf(personIds));
  });
}
