import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import { keys, positionOfShootItem, shootCardsOfSequence } from '#lib/platform/table/keys';
import { addToGalleryCounters, countersUpdate } from '#lib/galleries/store/gallery-counters';
import { photoGained, photoLost } from '#lib/photos/store/photos';
import { queryAll } from '#lib/platform/table/queries';
import { withStoreRetries } from '#lib/platform/table/retry';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import type { Photo } from '#lib/photos/rules/photo-model';
import type { UnassignedReason } from '#lib/photos/rules/shoot-sequence';
import { isCancelledTransaction } from '#lib/platform/table/store-errors';

/**
 * The gallery's shoot partition (keys.shootOfGallery): one item per photo uploaded to the
 * inbox. A card item says whose code it shows; a photo item says which card governs it (the
 * latest card before it on its camera, or an assignment by hand) and so whose photo it is. A
 * photo that belongs to a person is also a photo item of that person (lib/photos/store/photos.ts), written
 * in the same transaction, so every reader of persons' photos sees sorted photos as any other.
 */

/** What ingest learnt about an inbox photo. */
export interface ShootPhotoFacts {
  photoId: string;
  objectKey: string;
  /** Path below the inbox folder. */
  path: string;
  fileName: string;
  camera: string | null;
  capturedAt: string | null;
  width: number | null;
  height: number | null;
  uploadedAt: string;
}

export interface ShootCard extends ShootPhotoFacts {
  kind: 'card';
  /** The code it shows; null for a card showing several. */
  code: string | null;
  /** The person with that code; null when the gallery has none. */
  cardPersonId: string | null;
}

export interface ShootPhoto extends ShootPhotoFacts {
  kind: 'photo';
  /** The position of the card that governs it, or a manual governor; absent while none does. */
  governor?: string;
  /** The person it belongs to; absent while unassigned. */
  personId?: string;
  /** Why it belongs to nobody; absent once assigned. */
  reason?: UnassignedReason;
}

export type ShootItem = (ShootCard | ShootPhoto) & { pk: string; sk: string };

/** Where a shoot item is stored: opaque to the use cases, which get it from the reads below. */
export type Key = { pk: string; sk: string };

/** Where a card or photo is kept: at its position in its camera's sequence, or loose (it has no place in one). */
export type ShootSlot = { sequenceId: string; position: string } | 'loose';

function keyOf(scope: GalleryScope, slot: ShootSlot, item: ShootCard | ShootPhoto): Key {
  if (slot === 'loose') return keys.looseShootPhoto(scope.tenantId, scope.token, item.photoId);
  const at = item.kind === 'card' ? keys.shootCard : keys.shootPhoto;
  return at(scope.tenantId, scope.token, slot.sequenceId, slot.position);
}

/**
 * Stores a card or photo as it arrives, counted in the statistics (a card among the cards, a
 * photo among the unassigned), and gives its key. `stored` is false when it was stored before:
 * a redelivered upload event.
 */
export async function storeShootItem(scope: GalleryScope, slot: ShootSlot, item: ShootCard | ShootPhoto): Promise<{ key: Key; stored: boolean }> {
  const key = keyOf(scope, slot, item);
  try {
    await withStoreRetries(() =>
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...key, ...item }, ConditionExpression: 'attribute_not_exists(pk)' } },
            countersUpdate(scope, item.kind === 'card' ? { cardPhotos: 1 } : { photosUnassigned: 1 })!,
          ],
        }),
      ),
    );
    return { key, stored: true };
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    return { key, stored: false };
  }
}

/** A card as the sorting reads it: with its position in its sequence. */
export type PlacedCard = ShootCard & Key & { position: string };

function placed(card: Record<string, any> | undefined): PlacedCard | undefined {
  return card ? ({ ...card, position: positionOfShootItem(card.sk as string) } as PlacedCard) : undefined;
}

/** The last card of a sequence before `position` (strongly consistent: a card stored a moment ago counts). */
export async function cardBefore(scope: GalleryScope, sequenceId: string, position: string): Promise<PlacedCard | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :here',
      ExpressionAttributeValues: {
        ':pk': keys.shootOfGallery(scope.tenantId, scope.token),
        ':first': shootCardsOfSequence(sequenceId),
        ':here': keys.shootCard(scope.tenantId, scope.token, sequenceId, position).sk,
      },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return placed(Items?.[0]);
}

/** The first card of a sequence after `position`. */
export async function cardAfter(scope: GalleryScope, sequenceId: string, position: string): Promise<PlacedCard | undefined> {
  const own = keys.shootCard(scope.tenantId, scope.token, sequenceId, position);
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk > :own',
      ExpressionAttributeValues: { ':pk': own.pk, ':own': own.sk },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const next = Items?.[0];
  // The next item may be of another sequence, or not a card at all.
  return next && (next.sk as string).startsWith(shootCardsOfSequence(sequenceId)) ? placed(next) : undefined;
}

/** The photos of a sequence between two positions (to the end without `to`). */
export function photosBetween(scope: GalleryScope, sequenceId: string, from: string, to: string | undefined): Promise<(ShootPhoto & Key)[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.shootOfGallery(scope.tenantId, scope.token),
      ':from': keys.shootPhoto(scope.tenantId, scope.token, sequenceId, from).sk,
      // `~` sorts after every position (they start with a digit).
      ':to': keys.shootPhoto(scope.tenantId, scope.token, sequenceId, to ?? '~').sk,
    },
    ConsistentRead: true,
  }) as Promise<(ShootPhoto & Key)[]>;
}

/** Every card and photo of the gallery's shoot. */
export function listShootItems(scope: GalleryScope): Promise<ShootItem[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.shootOfGallery(scope.tenantId, scope.token) },
  }) as Promise<ShootItem[]>;
}

/** A shoot photo as it is now (strongly consistent). */
export async function getShootPhoto(key: Key): Promise<(ShootPhoto & Key) | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item as (ShootPhoto & Key) | undefined;
}

/**
 * Moves a photo to `governor` and to `toPerson` (or to nobody, for `reason`), taking it from the
 * person who has it: their photo items, photo counts and the statistics change in one
 * transaction, conditional on the governor read with the photo and on both persons' photo
 * counts. False when any of them changed since they were read (lib/photos/assign-shoot-photo.ts
 * reads again); a person erased meanwhile fails its condition the same way.
 */
export async function moveShootPhoto(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  governor: string,
  move: { fromPerson: Person | undefined; toPerson: Person | undefined; reason: UnassignedReason | undefined },
): Promise<boolean> {
  const items = governorTransaction(scope, shot, governor, move);
  try {
    await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })));
    return true;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    return false;
  }
}

function governorTransaction(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  governor: string,
  { fromPerson, toPerson, reason }: { fromPerson: Person | undefined; toPerson: Person | undefined; reason: UnassignedReason | undefined },
): TransactItem[] {
  const shotUpdate: TransactItem = {
    Update: {
      TableName: tableName,
      Key: { pk: shot.pk, sk: shot.sk },
      UpdateExpression: toPerson ? 'SET governor = :governor, personId = :personId REMOVE reason' : 'SET governor = :governor, reason = :reason REMOVE personId',
      ConditionExpression: shot.governor === undefined ? 'attribute_not_exists(governor)' : 'governor = :previous',
      ExpressionAttributeValues: {
        ':governor': governor,
        ...(toPerson ? { ':personId': toPerson.personId } : { ':reason': reason }),
        ...(shot.governor === undefined ? {} : { ':previous': shot.governor }),
      },
    },
  };
  if (shot.personId === toPerson?.personId) return [shotUpdate]; // same owner (or still nobody): only the governor changes
  const items: TransactItem[] = [shotUpdate];
  const counters = [];
  if (fromPerson) {
    const lost = photoLost(scope, fromPerson.personId, shot.photoId, fromPerson.photoCount <= 1);
    items.push(...lost.items);
    counters.push(lost.counters);
  }
  if (toPerson) {
    const gained = photoGained(scope, personPhoto(shot, toPerson.personId), toPerson.photoCount === 0);
    items.push(...gained.items);
    counters.push(gained.counters);
  }
  // From nobody to a person, or back: the unassigned count follows.
  counters.push({ photosUnassigned: (shot.personId ? 0 : -1) + (toPerson ? 0 : 1) });
  const countersItem = countersUpdate(scope, ...counters);
  return countersItem ? [...items, countersItem] : items;
}

/** The person's photo item of a shoot photo: the same photo ID, file and object as in the inbox. */
function personPhoto(shot: ShootPhotoFacts, personId: string): Photo {
  return {
    photoId: shot.photoId,
    personId,
    fileName: shot.fileName,
    objectKey: shot.objectKey,
    width: shot.width,
    height: shot.height,
    capturedAt: shot.capturedAt,
    createdAt: shot.uploadedAt,
  };
}

/**
 * The shoot items that are personal data of the persons `personIds` (every item of the shoot
 * when undefined): their photos, and the cards showing their codes.
 */
export async function shootItemsOf(scope: GalleryScope, personIds?: ReadonlySet<string>): Promise<ShootItem[]> {
  const items = await listShootItems(scope);
  if (!personIds) return items;
  return items.filter((item) => (item.kind === 'card' ? item.cardPersonId !== null && personIds.has(item.cardPersonId) : item.personId !== undefined && personIds.has(item.personId)));
}

/** Deletes shoot items, taking them off the statistics (erasure; their persons' photo items go separately). */
export async function deleteShootItems(scope: GalleryScope, items: readonly ShootItem[]): Promise<void> {
  await deleteItems(items.map(({ pk, sk }) => ({ pk, sk })));
  await addToGalleryCounters(scope, {
    cardPhotos: -items.filter((item) => item.kind === 'card').length,
    photosUnassigned: -items.filter((item) => item.kind === 'photo' && !item.personId).length,
  });
}
