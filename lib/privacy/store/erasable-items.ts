import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { countersUpdate } from '#lib/galleries/store/gallery-counters';
import { ITEM_PREFIX, keys } from '#lib/platform/table/keys';
import { deleteItems } from '#lib/platform/table/batches';
import { queryAll, queryPartition } from '#lib/platform/table/queries';
import { cancellationCodes, withStoreRetries } from '#lib/platform/table/retry';
import { DomainError } from '#lib/platform/domain-error';
import { emailKey } from '#lib/platform/email-address';
import type { GalleryCounters, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { personalOrderAttributes } from '#lib/privacy/rules/personal-data';
import { isCancelledTransaction, isConditionFailure } from '#lib/platform/table/store-errors';
import { giveBackSpot } from '#lib/galleries/store/day-bookings';
import { referenceFaceDeletion } from '#lib/faces/store/reference-faces';
import { fromPersonItem } from '#lib/persons/store/persons';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * The deletes of erasure and retention (lib/privacy). Each is safe to run again: what is gone
 * already is skipped, and counters change only in the transaction that deletes what they count.
 */

const participantText = v.optional(v.nullable(v.string()), null);

/**
 * An order as erasure and retention read it. Loose: redaction removes every attribute but the
 * accounting ones (lib/privacy/rules/personal-data.ts), so each attribute the item has must stay
 * in view, whatever this schema knows of. A redacted order has no `person` any more.
 */
const erasableOrderSchema = v.looseObject({
  pk: v.string(),
  sk: v.string(),
  orderId: v.string(),
  status: v.string(),
  createdAt: v.string(),
  person: v.optional(
    v.looseObject({
      personId: v.string(),
      email: participantText,
      employeeId: participantText,
      hasSelfie: v.optional(v.boolean()),
    }),
  ),
  tokenHashes: v.optional(v.array(v.string())),
});

export type ErasableOrder = v.InferOutput<typeof erasableOrderSchema>;

/** An order erasure has not redacted yet: it still names its participant. */
export type OrderWithParticipant = ErasableOrder & { person: NonNullable<ErasableOrder['person']> };

/** An order as erasure reads it; a CorruptItemError when the item holds no order. */
export function fromErasableOrderItem(item: StoredItem): ErasableOrder {
  return parseItem('order', erasableOrderSchema, item);
}

/** Whether the order still names its participant. */
export function hasParticipant(order: ErasableOrder): order is OrderWithParticipant {
  return order.person !== undefined;
}

/** Deletes the items erasure planned (their keys come from the reads below); what is gone already is skipped. */
export function deleteErasedItems(itemKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  return deleteItems(itemKeys);
}

/** Every person of a gallery, in creation order. */
export async function listAllPersons(scope: GalleryScope): Promise<Person[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :person)',
    ExpressionAttributeValues: {
      ':pk': keys.personsOfGallery(scope.tenantId, scope.token),
      ':person': ITEM_PREFIX.person,
    },
  });
  return items.map(fromPersonItem);
}

/** Every order of a gallery, as stored (redacted ones included). */
export async function listOrderItems(scope: GalleryScope): Promise<ErasableOrder[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :order)',
    ExpressionAttributeValues: {
      ':pk': keys.ordersOfGallery(scope.tenantId, scope.token),
      ':order': ITEM_PREFIX.order,
    },
  });
  return items.map(fromErasableOrderItem);
}

/** The keys of a person's photo records. */
export async function photoRecordKeys(scope: GalleryScope, personId: string): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(keys.photosOfPerson(scope.tenantId, scope.token, personId));
  return items.map(keyOfItem);
}

/**
 * The keys of the gallery's events about the persons `isAbout` accepts (all of its events by
 * default): an event names a person in `personId`, and its data may hold their email or
 * employee ID. Their deliveries stay, holding IDs only; an erased event is never sent again.
 */
export async function eventKeys(
  scope: GalleryScope,
  isAbout: (personId: string | undefined) => boolean = () => true,
): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(keys.eventsOfGallery(scope.tenantId, scope.token));
  return items
    .filter((item) => isAbout(parseItem('event', eventPersonSchema, item).personId ?? undefined))
    .map(keyOfItem);
}

/** Whom an event is about, if anyone. */
const eventPersonSchema = v.object({ personId: v.nullish(v.string()) });

/** What deleting a person takes off the gallery's statistics. */
function counterDecrements(person: Person): Partial<GalleryCounters> {
  return {
    [person.source === 'import' ? 'personsImported' : 'personsCheckedIn']: -1,
    personsWithSelfie: person.hasSelfie ? -1 : 0,
    personsWithPhotos: person.photoCount > 0 ? -1 : 0,
    photos: -person.photoCount,
  };
}

function addToStatistics(scope: GalleryScope, deltas: Partial<GalleryCounters>): TransactItem[] {
  const update = countersUpdate(scope, deltas);
  return update ? [update] : [];
}

/**
 * Deletes a person, its access code, its reference face and its email's free check-in count,
 * gives its day's spot back (when the day still exists) and corrects the statistics, in one
 * transaction conditional on the person still being there (a reference face is stored only
 * while the person is, so none can be left behind). False when it was gone already (nothing changed).
 */
export async function deletePersonRecords(
  scope: GalleryScope,
  person: Person,
  existingDayIds: ReadonlySet<string>,
): Promise<boolean> {
  const dayId = person.shootingDayId;
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: tableName,
        Key: keys.person(scope.tenantId, scope.token, person.personId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      // The code stays, linked to nobody: never given out again, and a late camera card showing it is known for an erased person's.
      Put: {
        TableName: tableName,
        Item: { ...keys.accessCode(scope.tenantId, scope.token, person.code), erasedAt: nowIso() },
        ConditionExpression: 'attribute_not_exists(pk) OR personId = :personId',
        ExpressionAttributeValues: { ':personId': person.personId },
      },
    },
    referenceFaceDeletion(scope, person.personId),
    ...(person.email
      ? [
          {
            Delete: {
              TableName: tableName,
              Key: keys.emailCheckins(scope.tenantId, scope.token, emailKey(person.email)),
            },
          },
        ]
      : []),
    ...(dayId && existingDayIds.has(dayId) ? [giveBackSpot(scope, dayId)] : []),
    ...addToStatistics(scope, counterDecrements(person)),
  ];
  try {
    await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })));
    return true;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    const [personCode] = cancellationCodes(error);
    if (personCode === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/** Marks a person as having no selfie any more and counts it so, once. False when it had none (already). */
export async function clearSelfieFlag(scope: GalleryScope, personId: string): Promise<boolean> {
  try {
    await withStoreRetries(() =>
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.person(scope.tenantId, scope.token, personId),
                UpdateExpression: 'SET hasSelfie = :false',
                ConditionExpression: 'hasSelfie = :true',
                ExpressionAttributeValues: { ':true': true, ':false': false },
              },
            },
            ...addToStatistics(scope, { personsWithSelfie: -1 }),
          ],
        }),
      ),
    );
    return true;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * Removes the participant's data from an order that has ended, keeping its accounting part
 * (lib/privacy/rules/personal-data.ts), and deletes its checkout tokens. An order waiting for payment
 * is refused: it must end first (it does within its session's lifetime).
 */
export async function redactOrder(orderItem: ErasableOrder): Promise<void> {
  const tokenKeys = (orderItem.tokenHashes ?? []).map((hash) => keys.checkoutToken(hash));
  await deleteItems(tokenKeys);
  const removed = personalOrderAttributes(orderItem);
  try {
    await withStoreRetries(() =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: orderItem.pk, sk: orderItem.sk },
          UpdateExpression: `SET erasedAt = if_not_exists(erasedAt, :now)${removed.length > 0 ? ` REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk) AND #status <> :pending',
          ExpressionAttributeNames: {
            '#status': 'status',
            ...Object.fromEntries(removed.map((name, index) => [`#r${index}`, name])),
          },
          ExpressionAttributeValues: { ':now': nowIso(), ':pending': 'pending' },
        }),
      ),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new DomainError(
      'reservation_changed',
      `Order ${orderItem.orderId} is waiting for payment again; erase once it has ended.`,
    );
  }
}

/** The items of access codes, kept linked to nobody once their persons were erased (deletePersonRecords). */
export function accessCodeKeys(scope: GalleryScope, codes: readonly string[]): { pk: string; sk: string }[] {
  return codes.map((code) => keys.accessCode(scope.tenantId, scope.token, code));
}

/** The key of the gallery's pointer (keys.galleryPointer), which goes with its gallery; a gallery older than pointers may have none. */
export function galleryPointerKey(scope: GalleryScope): { pk: string; sk: string } {
  return keys.galleryPointer(scope.tenantId, scope.token);
}

/** Every item of the gallery's configuration partition (gallery, days, packages, form fields, statistics). */
export async function galleryConfigurationKeys(scope: GalleryScope): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(keys.galleryPartition(scope.tenantId, scope.token));
  return items.map(keyOfItem);
}
