import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { queryAll, queryPartition } from '#lib/platform/table/queries';
import { deleteItems } from '#lib/platform/table/batches';
import { shootKeys, shootSortKeyOfIndexEntry } from '#lib/photos/sorting/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/**
 * Each person's shoot index (`…#SHOOTOF#<personId>`) and each photo's pointer (`…#SHOOTID#<photoId>`):
 * what lets one person's part of the shoot (erasure, a withdrawn face consent) and one photo (the
 * review's hand) be found without reading the whole shoot partition. An entry is only a key:
 * `<role>#<shoot sk>`. Every write of a shoot item that changes whom it names writes the entries
 * that change in the same transaction (the functions below give them), so the index is the shoot's
 * as of every committed write (docs/data-model.md#the-persons-shoot-index).
 */

type ItemKey = { pk: string; sk: string };

/** How a shoot item names a person: their card, their photo, withheld for them, or them among its face candidates. */
export type ShootIndexRole = 'CARD' | 'HAS' | 'HELD' | 'CAND';

export interface ShootIndexEntry {
  personId: string;
  role: ShootIndexRole;
}

/** What of a shoot item names persons (a card's or a photo's attributes; an erased card names nobody). */
export interface PersonsNamed {
  kind: string;
  cardPersonId?: string | null;
  personId?: string;
  heldFor?: string;
  candidates?: readonly { personId: string }[];
}

/** The index entries a shoot item's state gives it. */
export function indexEntriesOf(item: PersonsNamed): ShootIndexEntry[] {
  if (item.kind === 'card') return item.cardPersonId ? [{ personId: item.cardPersonId, role: 'CARD' }] : [];
  if (item.kind !== 'photo') return [];
  const entries: ShootIndexEntry[] = [];
  if (item.personId) entries.push({ personId: item.personId, role: 'HAS' });
  if (item.heldFor) entries.push({ personId: item.heldFor, role: 'HELD' });
  for (const personId of new Set((item.candidates ?? []).map((candidate) => candidate.personId)))
    entries.push({ personId, role: 'CAND' });
  return entries;
}

const entryId = (entry: ShootIndexEntry) => `${entry.role}#${entry.personId}`;

function entryKey(scope: GalleryScope, shootSortKey: string, entry: ShootIndexEntry): ItemKey {
  return shootKeys.shootIndexEntry(scope.tenantId, scope.token, entry.personId, entry.role, shootSortKey);
}

/**
 * The writes that take a shoot item's index entries from `before` to `after`: a Delete for each
 * entry it loses, a Put for each it gains (unconditional: a Delete of an entry gone already, or a
 * Put of one there already, changes nothing). At most 4 + 4 items (a person, or a card's person,
 * and up to three candidates on each side).
 */
export function indexEntryChanges(
  scope: GalleryScope,
  shootSortKey: string,
  before: readonly ShootIndexEntry[],
  after: readonly ShootIndexEntry[],
): TransactItem[] {
  const kept = new Set(after.map(entryId));
  const had = new Set(before.map(entryId));
  return [
    ...before
      .filter((entry) => !kept.has(entryId(entry)))
      .map((entry) => ({ Delete: { TableName: tableName, Key: entryKey(scope, shootSortKey, entry) } })),
    ...after
      .filter((entry) => !had.has(entryId(entry)))
      .map((entry) => ({ Put: { TableName: tableName, Item: entryKey(scope, shootSortKey, entry) } })),
  ];
}

function pointerPut(scope: GalleryScope, photoId: string, shootSortKey: string): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...shootKeys.shootPhotoPointer(scope.tenantId, scope.token, photoId), shootSk: shootSortKey },
    },
  };
}

/** A card or photo stored as it arrives: its photo's pointer and the entries it names (none for an erased card). */
export function indexWritesOfStoredItem(
  scope: GalleryScope,
  shootSortKey: string,
  item: PersonsNamed & { photoId?: string },
): TransactItem[] {
  if (item.kind === 'erased_card' || item.photoId === undefined) return [];
  return [
    pointerPut(scope, item.photoId, shootSortKey),
    ...indexEntryChanges(scope, shootSortKey, [], indexEntriesOf(item)),
  ];
}

/** The keys of what a card's or photo's index leaves when it is deleted, or erased to a position: its entries and pointer. */
export function indexKeysOfRemovedItem(
  scope: GalleryScope,
  item: PersonsNamed & ItemKey & { photoId?: string },
): ItemKey[] {
  return [
    ...indexEntriesOf(item).map((entry) => entryKey(scope, item.sk, entry)),
    ...(item.photoId === undefined ? [] : [shootKeys.shootPhotoPointer(scope.tenantId, scope.token, item.photoId)]),
  ];
}

/** indexKeysOfRemovedItem as transaction items. */
export function indexWritesOfRemovedItem(
  scope: GalleryScope,
  item: PersonsNamed & ItemKey & { photoId?: string },
): TransactItem[] {
  return indexKeysOfRemovedItem(scope, item).map((Key) => ({ Delete: { TableName: tableName, Key } }));
}

/**
 * The keys of the shoot items that name a person in `role`, from their index (strongly consistent:
 * erasure reads it again after its own writes). A person's entries are as few as their cards,
 * photos and the review photos whose faces resemble theirs.
 */
export async function shootKeysNaming(scope: GalleryScope, personId: string, role: ShootIndexRole): Promise<ItemKey[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :role)',
    ExpressionAttributeValues: {
      ':pk': shootKeys.shootIndexOfPerson(scope.tenantId, scope.token, personId),
      ':role': `${role}#`,
    },
    ConsistentRead: true,
  });
  const shoot = shootKeys.shootOfGallery(scope.tenantId, scope.token);
  return items.map((item) => ({ pk: shoot, sk: shootSortKeyOfIndexEntry(String(item.sk)) }));
}

/**
 * Deletes whatever is left of an erased person's shoot index: once the person is gone and their
 * items were erased, no entry may name them (an entry left by a fault would keep their ID).
 * Answers how many it deleted (none, while the index is the shoot's).
 */
export async function deleteShootIndexOf(scope: GalleryScope, personId: string): Promise<number> {
  const entries = await queryPartition(shootKeys.shootIndexOfPerson(scope.tenantId, scope.token, personId));
  await deleteItems(entries.map((entry) => ({ pk: String(entry.pk), sk: String(entry.sk) })));
  return entries.length;
}

/** The key of the shoot item of a photo or card by its photo ID, from its pointer (strongly consistent); undefined without one. */
export async function shootKeyOfPhoto(scope: GalleryScope, photoId: string): Promise<ItemKey | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: shootKeys.shootPhotoPointer(scope.tenantId, scope.token, photoId),
      ConsistentRead: true,
    }),
  );
  return typeof Item?.shootSk === 'string'
    ? { pk: shootKeys.shootOfGallery(scope.tenantId, scope.token), sk: Item.shootSk }
    : undefined;
}

/**
 * Writes the index entries and pointer of an item stored before the index existed (the
 * backfill), on condition that the item still names whom it named when read: its kind, governor
 * and candidates (a photo's person and heldFor change only with its governor). Puts only: what
 * a live write since put or deleted is the same, or the condition fails. 'none' for an item
 * without any (an erased card); false when the item changed since it was read (read it again).
 */
export async function writeIndexOfStoredItem(
  scope: GalleryScope,
  item: PersonsNamed & ItemKey & { photoId?: string; governor?: string },
): Promise<boolean | 'none'> {
  const writes = backfillWrites(scope, item);
  return writes.length === 0 ? 'none' : transactIfConditionsHold(writes);
}

function backfillWrites(
  scope: GalleryScope,
  item: PersonsNamed & ItemKey & { photoId?: string; governor?: string },
): TransactItem[] {
  const writes = indexWritesOfStoredItem(scope, item.sk, item);
  if (writes.length === 0) return [];
  const values: Record<string, unknown> = { ':kind': item.kind };
  const conditions = ['kind = :kind'];
  if (item.kind === 'photo') {
    if (item.governor === undefined) conditions.push('attribute_not_exists(governor)');
    else {
      conditions.push('governor = :governor');
      values[':governor'] = item.governor;
    }
    if (item.candidates === undefined) conditions.push('attribute_not_exists(candidates)');
    else {
      conditions.push('candidates = :candidates');
      values[':candidates'] = item.candidates;
    }
  }
  return [
    {
      ConditionCheck: {
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeValues: values,
      },
    },
    ...writes,
  ];
}
