import {
  type StoredObjectVersion,
  deleteObjectVersions,
  exactObjectVersions,
  listObjectVersions,
} from '#lib/platform/media-bucket';
import { deletePersonRecords } from '#lib/privacy/store/person-erasure';
import { deleteAccessCodes } from '#lib/persons/store/person-erasure';
import { listAllPersons } from '#lib/persons/store/persons';
import { type ErasableOrder, hasParticipant, listOrderItems, redactOrder } from '#lib/payments/store/order-erasure';
import { deleteEvents, eventKeys } from '#lib/events/store/outbox';
import { deletePhotoRecords, photoRecordKeys } from '#lib/photos/common/store/photos';
import { deleteGalleryConfiguration, galleryConfigurationKeys } from '#lib/galleries/store/galleries';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type ShootItem, shootItemsOf } from '#lib/photos/sorting/store/shoot-photos';
import { eraseFromShoot } from '#lib/photos/sorting/erase-shoot-photos';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { deleteReferenceFaces, listReferenceFaces } from '#lib/faces/store/reference-faces';
import { deleteIdempotencyRecord, listIdempotencyRecordsOfGallery } from '#lib/idempotency/store/idempotency-records';
import { getPerson } from '#lib/persons/store/persons';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { galleryMediaPrefixes, personPhotoPrefix, selfieObjectKey, thumbnailPrefix } from '#lib/platform/media-keys';
import type { Person } from '#lib/persons/rules/person-model';
import {
  type ErasureSubject,
  describeSubject,
  orderMatchesSubject,
  personMatchesSubject,
  personalOrderAttributes,
} from '#lib/privacy/rules/personal-data';
import { photoInvalidationPaths } from '#lib/privacy/rules/cdn-invalidation';
import { invalidatePhotoCdnPaths } from '#lib/privacy/adapters/photo-cdn-invalidation';
import { type HrExportErasure, eraseHrExports, planHrExportErasure } from '#lib/hr-exports/erase-hr-exports';

/**
 * Erasure (the right to be forgotten): a person, or a whole gallery, removed from the table and
 * the media bucket, every object version included; orders keep only what accounting needs.
 * Everything is found first, so a dry run reports exactly what a real run removes; a real run
 * removes the person last, so running it again after an interruption finishes the work.
 */

/** What an erasure removed (or, in a dry run, would remove). */
export interface ErasureReceipt {
  dryRun: boolean;
  subject: string;
  persons: string[];
  accessCodes: number;
  spotsGivenBack: number;
  selfieVersions: number;
  photoRecords: number;
  photoObjectVersions: number;
  ordersRedacted: string[];
  checkoutTokens: number;
  idempotencyRecords: number;
  /** Events about the persons (webhook outbox items), whether sent already or not. */
  events: number;
  /**
   * Items of the gallery's shoot: the persons' sorted and withheld photos and the camera cards
   * showing their codes (their objects are among photoObjectVersions). The cards stay as erased
   * cards, positions without personal data (docs/photos.md#erasure-and-the-sequence).
   */
  shootItems: number;
  /** The persons' reference faces (face descriptors of their selfies). */
  referenceFaces: number;
  /** HR exports whose ZIP holds one of the persons (all of a gallery's): ZIP deleted, export marked erased. */
  hrExports: number;
  /** Versions of the cached portrait crops of the persons' photos (docs/hr-export.md). */
  portraitCropVersions: number;
  /** Gallery erasure: the gallery's configuration items (gallery, days, packages, fields, statistics). */
  galleryItems?: number;
  /**
   * Retention only (deferPending): orders still waiting for payment, left with their
   * participant's data, selfie and idempotency records for a later run, once they have ended.
   */
  ordersDeferred?: string[];
}

interface ErasurePlan {
  persons: Person[];
  orders: ErasableOrder[];
  selfieVersions: StoredObjectVersion[];
  photoObjectVersions: StoredObjectVersion[];
  photoRecords: { pk: string; sk: string }[];
  idempotencyRecords: string[];
  events: { pk: string; sk: string }[];
  shootItems: ShootItem[];
  referenceFaces: number;
  hrExports: HrExportErasure;
  /** A whole gallery's participants: every shoot item goes, not only the persons'. */
  wholeShoot: boolean;
}

export interface ErasureOptions {
  dryRun?: boolean;
}

export interface GalleryErasureOptions extends ErasureOptions {
  /**
   * Leave the orders that still wait for payment (and what belongs to their participants) for a
   * later run instead of refusing the whole gallery: what retention asks for, so that one
   * reservation never blocks a gallery's retention.
   */
  deferPending?: boolean;
}

/** Erases the persons `subject` names in one gallery, and what the participant left in its orders. */
export async function erasePersons(
  scope: GalleryScope,
  subject: ErasureSubject,
  options: ErasureOptions = {},
): Promise<ErasureReceipt> {
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) throw new DomainError('unknown_gallery');
  const persons = (await listAllPersons(scope)).filter((person) => personMatchesSubject(person, subject));
  const personIds = new Set(persons.map((person) => person.personId));
  const shootItems = await shootItemsOf(scope, personIds);
  const orders = (await listOrderItems(scope))
    .filter(hasParticipant)
    .filter((order) => orderMatchesSubject(order.person, subject, personIds));
  const reservationSelfies = orders
    .filter((order) => order.person.hasSelfie && !personIds.has(order.person.personId))
    .map((order) => order.person.personId);
  const selfieKeys = [
    ...persons.filter((person) => person.hasSelfie).map((person) => person.personId),
    ...reservationSelfies,
  ].map((personId) => selfieObjectKey(scope.tenantId, scope.token, personId));
  const plan: ErasurePlan = {
    persons,
    orders,
    selfieVersions: (await Promise.all(selfieKeys.map(exactObjectVersions))).flat(),
    photoObjectVersions: [
      ...(
        await Promise.all(
          persons.map((person) => listObjectVersions(personPhotoPrefix({ ...scope, personId: person.personId }))),
        )
      ).flat(),
      // Sorted shoot photos and cards stay where they were uploaded, in the gallery's inbox.
      ...(await Promise.all(shootItems.map((item) => exactObjectVersions(item.objectKey)))).flat(),
    ],
    photoRecords: (await Promise.all(persons.map((person) => photoRecordKeys(scope, person.personId)))).flat(),
    idempotencyRecords: await idempotencyRecordsAnswering(
      scope,
      personIds,
      new Set(orders.map((order) => order.orderId)),
    ),
    events: await eventKeys(scope, (personId) => personId !== undefined && personIds.has(personId)),
    shootItems,
    referenceFaces: (await listReferenceFaces(scope)).filter((face) => personIds.has(face.personId)).length,
    hrExports: await planHrExportErasure(scope, personIds),
    wholeShoot: false,
  };
  const existingDays = new Set(configuration.shootingDays.map((day) => day.id));
  return carryOut(scope, plan, describeSubject(subject), options, existingDays);
}

/**
 * Erases every participant of a gallery: every person and what belongs to them, every selfie
 * and photo under the gallery's prefixes (objects no person claims included), the
 * participants' data in its orders, every idempotency record and every event of the gallery. The gallery's
 * configuration stays; retention erases so once a gallery's persons are due. An order waiting for
 * payment makes it refuse, as erasePersons does, unless `deferPending` leaves such orders for later.
 */
export async function eraseParticipantsOfGallery(
  scope: GalleryScope,
  options: GalleryErasureOptions = {},
): Promise<ErasureReceipt> {
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  const orders = (await listOrderItems(scope)).filter(hasParticipant);
  const deferred = options.deferPending ? orders.filter((order) => order.status === 'pending') : [];
  const deferredOrderIds = new Set(deferred.map((order) => order.orderId));
  const deferredPersonIds = new Set(deferred.map((order) => order.person.personId));
  const deferredSelfies = new Set(
    [...deferredPersonIds].map((personId) => selfieObjectKey(scope.tenantId, scope.token, personId)),
  );
  const erasable = (personId: string | undefined) => personId === undefined || !deferredPersonIds.has(personId);
  const persons = (await listAllPersons(scope)).filter((person) => erasable(person.personId));
  const prefixes = galleryMediaPrefixes(scope.tenantId, scope.token);
  const records = await listIdempotencyRecordsOfGallery(scope.tenantId, scope.token);
  const plan: ErasurePlan = {
    persons,
    orders: orders.filter((order) => !deferredOrderIds.has(order.orderId)),
    selfieVersions: (await listObjectVersions(prefixes.selfies)).filter((version) => !deferredSelfies.has(version.key)),
    photoObjectVersions: await listObjectVersions(prefixes.photos),
    photoRecords: (await Promise.all(persons.map((person) => photoRecordKeys(scope, person.personId)))).flat(),
    idempotencyRecords: records
      .filter(
        (record) =>
          record.personIds.every(erasable) && !(record.orderIds ?? []).some((orderId) => deferredOrderIds.has(orderId)),
      )
      .map((record) => record.scopeHash),
    events: await eventKeys(scope, erasable),
    shootItems: await shootItemsOf(scope),
    referenceFaces: (await listReferenceFaces(scope)).length,
    hrExports: await planHrExportErasure(scope, 'gallery'),
    wholeShoot: true,
  };
  const existingDays = new Set(configuration?.shootingDays.map((day) => day.id));
  const receipt = await carryOut(scope, plan, `every participant of gallery ${scope.token}`, options, existingDays);
  return options.deferPending ? { ...receipt, ordersDeferred: [...deferredOrderIds] } : receipt;
}

/**
 * Erases a gallery: its participants as eraseParticipantsOfGallery does, then its
 * configuration and its pointer, so that its token opens nothing any more. Orders stay as
 * accounting records.
 */
export async function eraseGallery(scope: GalleryScope, options: ErasureOptions = {}): Promise<ErasureReceipt> {
  // Erasing the participants keeps their codes, linked to nobody, so that the gallery never gives one out again; with the gallery gone, they go too.
  const codes = (await listAllPersons(scope)).map((person) => person.code);
  const receipt = await eraseParticipantsOfGallery(scope, options);
  const configurationKeys = await galleryConfigurationKeys(scope);
  if (!options.dryRun) {
    await deleteGalleryConfiguration(scope, configurationKeys);
    await deleteAccessCodes(scope, codes);
  }
  return { ...receipt, subject: `gallery ${scope.token}`, galleryItems: configurationKeys.length };
}

/**
 * The order in which a plan is carried out: the shoot first (the persons' cards become erased
 * cards, so no photo placed from then on can reach them or anyone else), media, the HR exports
 * holding the persons and their cached crops, photo records and
 * events, orders, idempotency records, reference faces, then the persons, and the persons out of
 * the face candidates of the photos that stay; last, the shoot, the
 * photo records and the persons' folders once more, for a photo placed while the erasure ran;
 * then the photo CDN forgets the deleted photos (lib/privacy/rules/cdn-invalidation.ts).
 */
async function carryOut(
  scope: GalleryScope,
  plan: ErasurePlan,
  subject: string,
  options: ErasureOptions,
  /** The gallery's shooting days: a person's spot is given back only to a day that still exists. */
  existingDays: ReadonlySet<string>,
): Promise<ErasureReceipt> {
  const pending = plan.orders.filter((order) => order.status === 'pending');
  if (pending.length > 0) {
    throw new DomainError(
      'reservation_changed',
      `${pending.length} order(s) of ${subject} wait for payment (${pending.map((order) => order.orderId).join(', ')}); erase once they have ended (at most one checkout session lifetime).`,
    );
  }
  const receipt: ErasureReceipt = {
    dryRun: options.dryRun === true,
    subject,
    persons: plan.persons.map((person) => person.personId),
    accessCodes: plan.persons.length,
    spotsGivenBack: plan.persons.filter((person) => person.shootingDayId && existingDays.has(person.shootingDayId))
      .length,
    selfieVersions: plan.selfieVersions.length,
    photoRecords: plan.photoRecords.length,
    photoObjectVersions: plan.photoObjectVersions.length,
    ordersRedacted: plan.orders.map((order) => order.orderId),
    checkoutTokens: plan.orders.reduce((count, order) => count + (order.tokenHashes?.length ?? 0), 0),
    idempotencyRecords: plan.idempotencyRecords.length,
    events: plan.events.length,
    shootItems: plan.shootItems.length,
    referenceFaces: plan.referenceFaces,
    hrExports: plan.hrExports.exportIds.length,
    portraitCropVersions: plan.hrExports.cropVersions.length,
  };
  if (options.dryRun) return receipt;
  const personIds = new Set(plan.persons.map((person) => person.personId));
  const shootObjectKeys = await eraseFromShoot(scope, personIds, { everyItem: plan.wholeShoot });
  await deleteObjectVersions([...plan.selfieVersions, ...plan.photoObjectVersions]);
  await eraseHrExports(scope, plan.hrExports);
  await deletePhotoRecords(plan.photoRecords);
  await deleteEvents(plan.events);
  for (const order of plan.orders) await redactOrder(order, personalOrderAttributes(order));
  for (const scopeHash of plan.idempotencyRecords) await deleteIdempotencyRecord(scopeHash);
  await deleteReferenceFaces(scope, plan.wholeShoot ? undefined : personIds);
  let spotsGivenBack = 0;
  for (const planned of plan.persons) {
    // As it is now: taking its shoot photos away has counted its photos down already.
    const person = await getPerson(scope, planned.personId, { consistent: true });
    if (!person) continue;
    const deleted = await deletePersonRecords(scope, person, existingDays);
    if (deleted && person.shootingDayId && existingDays.has(person.shootingDayId)) spotsGivenBack += 1;
  }
  // Their reference faces went with them: no new opinion names them, so they leave the other photos' candidates now.
  if (!plan.wholeShoot) await forgetFaceCandidates(scope, personIds);
  const sweptObjectKeys = await sweepAfterPersons(scope, personIds, plan.wholeShoot);
  const objectKeys = [
    ...plan.photoObjectVersions.map((version) => version.key),
    ...shootObjectKeys,
    ...sweptObjectKeys,
  ];
  await eraseThumbnails(scope, plan.wholeShoot, personIds, [
    ...objectKeys,
    ...plan.selfieVersions.map((version) => version.key),
  ]);
  await invalidatePhotoCdnPaths(
    photoInvalidationPaths(scope, { wholeGallery: plan.wholeShoot, personIds: [...personIds], objectKeys }),
  );
  return { ...receipt, spotsGivenBack };
}

/**
 * What a placement running alongside the erasure may have added before the persons were gone
 * (a photo assigned to one of them, its person photo item, an object under their folder).
 * Once they are gone no placement can give them anything, so this pass leaves nothing behind.
 * Answers the keys of the photo objects it went for.
 */
async function sweepAfterPersons(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  wholeShoot: boolean,
): Promise<string[]> {
  const shootObjectKeys = await eraseFromShoot(scope, personIds, { everyItem: wholeShoot });
  const records = (await Promise.all([...personIds].map((personId) => photoRecordKeys(scope, personId)))).flat();
  await deletePhotoRecords(records);
  const objects = (
    await Promise.all([...personIds].map((personId) => listObjectVersions(personPhotoPrefix({ ...scope, personId }))))
  ).flat();
  await deleteObjectVersions(objects);
  return [...shootObjectKeys, ...objects.map((object) => object.key)];
}

/**
 * The studio console's thumbnails of what was erased (lib/platform/media-keys.ts thumbnailKey):
 * every one of the gallery's, or those of the persons' folders and of each erased object elsewhere.
 */
async function eraseThumbnails(
  scope: GalleryScope,
  wholeShoot: boolean,
  personIds: ReadonlySet<string>,
  objectKeys: readonly string[],
): Promise<void> {
  const personFolders = [...personIds].map((personId) => personPhotoPrefix({ ...scope, personId }));
  const objectPrefixes = wholeShoot
    ? Object.values(galleryMediaPrefixes(scope.tenantId, scope.token))
    : [
        ...personFolders,
        ...new Set(
          objectKeys.filter((key) => !personFolders.some((folder) => key.startsWith(folder))).map((key) => `${key}@`),
        ),
      ];
  const versions = (
    await Promise.all(objectPrefixes.map((prefix) => listObjectVersions(thumbnailPrefix(prefix))))
  ).flat();
  await deleteObjectVersions(versions);
}

async function idempotencyRecordsAnswering(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  orderIds: ReadonlySet<string>,
): Promise<string[]> {
  const records = await listIdempotencyRecordsOfGallery(scope.tenantId, scope.token);
  return records
    .filter(
      (record) =>
        record.personIds.some((id) => personIds.has(id)) || (record.orderIds ?? []).some((id) => orderIds.has(id)),
    )
    .map((record) => record.scopeHash);
}
