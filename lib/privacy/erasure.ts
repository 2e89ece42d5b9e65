import {
  type StoredObjectVersion,
  deleteObjectVersions,
  exactObjectVersions,
  listObjectVersions,
} from '#lib/platform/media-bucket';
import { deletePersonRecords } from '#lib/privacy/store/person-erasure';
import { personsWithAddress, personsWithEmployeeId } from '#lib/persons/store/person-lookups';
import {
  type ErasableOrder,
  hasParticipant,
  ordersOfParticipants,
  redactOrder,
} from '#lib/payments/store/order-erasure';
import { deleteEvents, eventKeysAbout } from '#lib/events/store/outbox';
import { deletePhotoRecords, photoRecordKeys } from '#lib/photos/common/store/photos';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type ShootItem, shootItemsOf } from '#lib/photos/sorting/store/shoot-photos';
import { eraseFromShoot } from '#lib/photos/sorting/erase-shoot-photos';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { countReferenceFaces, deleteReferenceFaces } from '#lib/faces/store/reference-faces';
import { deleteIdempotencyRecord, idempotencyRecordsNaming } from '#lib/idempotency/store/idempotency-records';
import { getPerson } from '#lib/persons/store/persons';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { personPhotoPrefix, selfieObjectKey, thumbnailPrefix } from '#lib/platform/media-keys';
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
import { type ErasureOptions, type ErasureReceipt, refuseWhilePending } from '#lib/privacy/erasure-receipt';

export type { ErasureOptions, ErasureReceipt, GalleryErasureOptions } from '#lib/privacy/erasure-receipt';
export { eraseGallery, eraseParticipantsOfGallery } from '#lib/privacy/gallery-erasure';

/**
 * Erasure (the right to be forgotten): a person, or a whole gallery, removed from the table and
 * the media bucket, every object version included; orders keep only what accounting needs.
 * A person's erasure finds everything first, so a dry run reports exactly what a real run
 * removes; a real run removes the person last, so running it again after an interruption
 * finishes the work. It reads what is the person's alone, by key or by an index of its own (the
 * person, their orders' pointers, their events, their idempotency records, their reference face),
 * never a whole partition of the gallery's persons, orders or events. A whole gallery is erased a
 * page at a time (lib/privacy/gallery-erasure.ts).
 */

/** How many consents of the person changed since check-in: the change records its item holds. */
function consentChangesOf(person: Pick<Person, 'consentChanges'>): number {
  return Object.keys(person.consentChanges ?? {}).length;
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
}

/**
 * The persons an erasure subject names: a person ID by key, an employee ID through its index
 * (GSI1), an address through personsWithAddress; each as it is now.
 */
async function personsNamedBy(scope: GalleryScope, subject: ErasureSubject): Promise<Person[]> {
  let persons: Person[];
  if ('personId' in subject) {
    const person = await getPerson(scope, subject.personId, { consistent: true });
    persons = person ? [person] : [];
  } else if ('email' in subject) {
    persons = await personsWithAddress(scope, subject.email);
  } else {
    persons = await personsWithEmployeeId(scope, subject.employeeId);
  }
  return persons.filter((person) => personMatchesSubject(person, subject));
}

/** Erases the persons `subject` names in one gallery, and what the participant left in its orders. */
export async function erasePersons(
  scope: GalleryScope,
  subject: ErasureSubject,
  options: ErasureOptions = {},
): Promise<ErasureReceipt> {
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) throw new DomainError('unknown_gallery');
  const persons = await personsNamedBy(scope, subject);
  const personIds = new Set(persons.map((person) => person.personId));
  const shootItems = await shootItemsOf(scope, personIds);
  // The subject itself too: a reservation that never became a person still holds what the participant typed.
  const participants = [...persons.map((person) => ({ personId: person.personId })), subject];
  const orders = (await ordersOfParticipants(scope, participants))
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
    idempotencyRecords: await idempotencyRecordsAnswering(scope, personIds, orders),
    events: await eventKeysAbout(scope, personIds),
    shootItems,
    referenceFaces: await countReferenceFaces(scope, personIds),
    hrExports: await planHrExportErasure(scope, personIds),
  };
  const existingDays = new Set(configuration.shootingDays.map((day) => day.id));
  return carryOut(scope, plan, describeSubject(subject), options, existingDays);
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
  refuseWhilePending(
    subject,
    plan.orders.filter((order) => order.status === 'pending').map((order) => order.orderId),
  );
  const receipt: ErasureReceipt = {
    dryRun: options.dryRun === true,
    subject,
    persons: plan.persons.map((person) => person.personId),
    personCount: plan.persons.length,
    accessCodes: plan.persons.length,
    spotsGivenBack: plan.persons.filter((person) => person.shootingDayId && existingDays.has(person.shootingDayId))
      .length,
    selfieVersions: plan.selfieVersions.length,
    photoRecords: plan.photoRecords.length,
    photoObjectVersions: plan.photoObjectVersions.length,
    ordersRedacted: plan.orders.map((order) => order.orderId),
    ordersRedactedCount: plan.orders.length,
    checkoutTokens: plan.orders.reduce((count, order) => count + (order.tokenHashes?.length ?? 0), 0),
    idempotencyRecords: plan.idempotencyRecords.length,
    events: plan.events.length,
    consentChanges: plan.persons.reduce((count, person) => count + consentChangesOf(person), 0),
    shootItems: plan.shootItems.length,
    referenceFaces: plan.referenceFaces,
    hrExports: plan.hrExports.exportIds.length,
    portraitCropVersions: plan.hrExports.cropVersions.length,
  };
  if (options.dryRun) return receipt;
  const personIds = new Set(plan.persons.map((person) => person.personId));
  const shootObjectKeys = await eraseFromShoot(scope, personIds, { everyItem: false });
  await deleteObjectVersions([...plan.selfieVersions, ...plan.photoObjectVersions]);
  await eraseHrExports(scope, plan.hrExports);
  await deletePhotoRecords(plan.photoRecords);
  await deleteEvents(plan.events);
  for (const order of plan.orders) await redactOrder(order, personalOrderAttributes(order));
  for (const scopeHash of plan.idempotencyRecords) await deleteIdempotencyRecord(scopeHash);
  await deleteReferenceFaces(scope, personIds);
  let spotsGivenBack = 0;
  for (const planned of plan.persons) {
    // As it is now: taking its shoot photos away has counted its photos down already.
    const person = await getPerson(scope, planned.personId, { consistent: true });
    if (!person) continue;
    const deleted = await deletePersonRecords(scope, person, existingDays);
    if (deleted && person.shootingDayId && existingDays.has(person.shootingDayId)) spotsGivenBack += 1;
  }
  // Their reference faces went with them: no new opinion names them, so they leave the other photos' candidates now.
  await forgetFaceCandidates(scope, personIds);
  const sweptObjectKeys = await sweepAfterPersons(scope, personIds);
  const objectKeys = [
    ...plan.photoObjectVersions.map((version) => version.key),
    ...shootObjectKeys,
    ...sweptObjectKeys,
  ];
  await eraseThumbnails(scope, personIds, [...objectKeys, ...plan.selfieVersions.map((version) => version.key)]);
  await invalidatePhotoCdnPaths(
    photoInvalidationPaths(scope, { wholeGallery: false, personIds: [...personIds], objectKeys }),
  );
  return { ...receipt, spotsGivenBack };
}

/**
 * What a placement running alongside the erasure may have added before the persons were gone
 * (a photo assigned to one of them, its person photo item, an object under their folder).
 * Once they are gone no placement can give them anything, so this pass leaves nothing behind.
 * Answers the keys of the photo objects it went for.
 */
async function sweepAfterPersons(scope: GalleryScope, personIds: ReadonlySet<string>): Promise<string[]> {
  const shootObjectKeys = await eraseFromShoot(scope, personIds, { everyItem: false });
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
 * those of the persons' folders and of each erased object elsewhere.
 */
async function eraseThumbnails(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  objectKeys: readonly string[],
): Promise<void> {
  const personFolders = [...personIds].map((personId) => personPhotoPrefix({ ...scope, personId }));
  const objectPrefixes = [
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

/**
 * The idempotency records answering with the persons or the orders: those listed under each of
 * them alone, and those naming several (imports), kept when they name one of them.
 */
async function idempotencyRecordsAnswering(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  orders: readonly ErasableOrder[],
): Promise<string[]> {
  const orderIds = new Set(orders.map((order) => order.orderId));
  const participants = orders.flatMap((order) => (order.person ? [order.person.personId] : []));
  const records = await idempotencyRecordsNaming(scope, {
    personIds: new Set([...personIds, ...participants]),
    orderIds,
  });
  return [
    ...new Set(
      records
        .filter(
          (record) =>
            record.personIds.some((id) => personIds.has(id)) || record.orderIds.some((id) => orderIds.has(id)),
        )
        .map((record) => record.scopeHash),
    ),
  ];
}
