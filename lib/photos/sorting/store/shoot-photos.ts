import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import {
  positionOfShootItem,
  reviewQueueEntry,
  sequenceOfShootItem,
  shootCardsOfSequence,
  shootKeys,
} from '#lib/photos/sorting/store/keys';
import { addToGalleryCounters, countersUpdate } from '#lib/galleries/store/gallery-counters';
import { photoGained, photoLost } from '#lib/photos/common/store/photos';
import { photosWithheldUpdate } from '#lib/events/store/outbox';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import type { FaceBox } from '#lib/faces/rules/face-descriptors';
import { now, nowIso } from '#lib/platform/clock';
import { queryAll } from '#lib/platform/table/queries';
import type { GalleryCounters, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import type { Photo } from '#lib/photos/common/rules/photo-model';
import { type UnassignedReason, WITHHELD_REASONS } from '#lib/photos/sorting/rules/shoot-sequence';
import { isDismissed } from '#lib/photos/sorting/rules/review-queue';
import { GSI1 } from '#lib/platform/table/table-definition';
import * as v from 'valibot';
import { type StoredItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import {
  type ShootIndexRole,
  indexEntriesOf,
  indexEntryChanges,
  indexKeysOfRemovedItem,
  indexWritesOfRemovedItem,
  indexWritesOfStoredItem,
  shootKeyOfPhoto,
  shootKeysNaming,
} from '#lib/photos/sorting/store/shoot-index';

/**
 * The gallery's shoot partition (shootKeys.shootOfGallery): one item per photo uploaded to the
 * inbox. A card item says whose code it shows; a photo item says which card governs it (the
 * latest card before it on its camera, or an assignment by hand) and so whose photo it is. A
 * photo that belongs to a person is also a photo item of that person (lib/photos/common/store/photos.ts), written
 * in the same transaction, so every reader of persons' photos sees sorted photos as any other.
 * Every write here also writes, in its transaction, the persons' shoot index entries and the photo
 * pointer that change with it (shoot-index.ts), so one person's or one photo's items are found
 * without reading the whole partition.
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

/** Whose a shoot photo is: a person's, withheld from the card's person for review, or nobody's. */
export interface ShotState {
  /** The person it belongs to; absent while unassigned or withheld. */
  personId?: string;
  /** Why it belongs to nobody; absent once assigned. */
  reason?: UnassignedReason;
  /** The card's person a withheld photo waits for (reason face_mismatch, face_uncertain or no_face). */
  heldFor?: string;
  /** The consenting persons its main face resembles most, for the review (IDs and distances only). */
  candidates?: FaceCandidate[];
  /** Set when the faces, not a card, gave it to its person. */
  assignedBy?: 'face_match';
  /** Where the person's face is in it (upright pixels), when the faces found it: the HR portrait is cut around it. */
  faceBox?: FaceBox;
}

export interface ShootPhoto extends ShootPhotoFacts, ShotState {
  kind: 'photo';
  /** The position of the card that governs it, or a manual or no-card governor; absent while none does. */
  governor?: string;
}

/**
 * What an erased person's card leaves (lib/privacy/erasure.ts): its place in its camera's
 * sequence, and no personal data. It still governs the photos after it, as nobody's: they are
 * deleted on arrival.
 */
export interface ErasedCard {
  kind: 'erased_card';
  erasedAt: string;
}

export type ShootItem = (ShootCard | ShootPhoto | ErasedCard) & { pk: string; sk: string };

/** Where a shoot item is stored: opaque to the use cases, which get it from the reads below. */
export type Key = { pk: string; sk: string };

/** Where a card or photo is kept: at its position in its camera's sequence, or loose (it has no place in one). */
export type ShootSlot = { sequenceId: string; position: string } | 'loose';

function keyOf(scope: GalleryScope, slot: ShootSlot, item: ShootCard | ShootPhoto | ErasedCard): Key {
  if (slot === 'loose') {
    if (item.kind === 'erased_card') throw new Error('An erased card keeps a place in a sequence; it is never loose');
    return shootKeys.looseShootPhoto(scope.tenantId, scope.token, item.photoId);
  }
  const at = item.kind === 'photo' ? shootKeys.shootPhoto : shootKeys.shootCard;
  return at(scope.tenantId, scope.token, slot.sequenceId, slot.position);
}

/**
 * Stores a card or photo as it arrives, counted in the statistics (a card among the cards, a
 * photo among the unassigned), and gives its key. `stored` is false when it was stored before:
 * a redelivered upload event.
 */
export async function storeShootItem(
  scope: GalleryScope,
  slot: ShootSlot,
  item: ShootCard | ShootPhoto | ErasedCard,
): Promise<{ key: Key; stored: boolean }> {
  const key = keyOf(scope, slot, item);
  const counted =
    item.kind === 'erased_card'
      ? undefined
      : countersUpdate(scope, item.kind === 'card' ? { cardPhotos: 1 } : { photosUnassigned: 1 });
  // The person's shoot index and the photo ID's pointer (shoot-index.ts), with the item or not at all.
  const indexWrites = indexWritesOfStoredItem(scope, key.sk, item);
  const stored = await transactIfConditionsHold([
    {
      Put: {
        TableName: tableName,
        Item: { ...key, ...item, ...(item.kind === 'photo' ? reviewQueueEntry(scope, item, item) : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(counted ? [counted] : []),
    ...indexWrites,
  ]);
  return { key, stored };
}

/** A card as the sorting reads it: with its position in its sequence. */
export type PlacedCard = (ShootCard | ErasedCard) & Key & { position: string };

/** The card an item holds, with its position; undefined for a photo (a query's next item may be one). */
function placed(stored: StoredItem | undefined): PlacedCard | undefined {
  if (!stored) return undefined;
  const card = fromShootItem(stored);
  return card.kind === 'photo' ? undefined : { ...card, position: positionOfShootItem(card.sk) };
}

/** Facts absent from an item read as null (the type's "unknown"). */
const unknownAs = <TSchema extends v.GenericSchema>(schema: TSchema) => v.optional(v.nullable(schema), null);

const shootFactsEntries = {
  pk: v.string(),
  sk: v.string(),
  photoId: v.string(),
  objectKey: v.string(),
  path: v.string(),
  fileName: v.string(),
  camera: unknownAs(v.string()),
  capturedAt: unknownAs(v.string()),
  width: unknownAs(v.number()),
  height: unknownAs(v.number()),
  uploadedAt: v.string(),
};

/**
 * A shoot item by its kind. Loose: an item keeps every attribute it has, so that erasing a card
 * (eraseCards) removes all of them, whatever this schema knows of.
 */
const shootItemSchema = v.variant('kind', [
  v.looseObject({
    ...shootFactsEntries,
    kind: v.literal('card'),
    code: unknownAs(v.string()),
    cardPersonId: unknownAs(v.string()),
  }),
  v.looseObject({
    ...shootFactsEntries,
    kind: v.literal('photo'),
    governor: v.optional(v.string()),
    personId: v.optional(v.string()),
    reason: v.optional(v.custom<UnassignedReason>((value) => typeof value === 'string', 'a reason')),
    heldFor: v.optional(v.string()),
    candidates: v.optional(v.array(v.object({ personId: v.string(), distance: v.number() }))),
    assignedBy: v.optional(v.literal('face_match')),
    faceBox: v.optional(storedObject<FaceBox>()),
  }),
  v.looseObject({ pk: v.string(), sk: v.string(), kind: v.literal('erased_card'), erasedAt: v.string() }),
]);

/** The card, photo or erased card an item of the shoot holds; a CorruptItemError when it holds none. */
export function fromShootItem(stored: StoredItem): ShootItem {
  return parseItem('shoot item', shootItemSchema, stored);
}

/** The last card of a sequence before `position` (strongly consistent: a card stored a moment ago counts). */
export async function cardBefore(
  scope: GalleryScope,
  sequenceId: string,
  position: string,
): Promise<PlacedCard | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :here',
      ExpressionAttributeValues: {
        ':pk': shootKeys.shootOfGallery(scope.tenantId, scope.token),
        ':first': shootCardsOfSequence(sequenceId),
        ':here': shootKeys.shootCard(scope.tenantId, scope.token, sequenceId, position).sk,
      },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return placed(Items?.[0]);
}

/** The first card of a sequence after `position`. */
export async function cardAfter(
  scope: GalleryScope,
  sequenceId: string,
  position: string,
): Promise<PlacedCard | undefined> {
  const own = shootKeys.shootCard(scope.tenantId, scope.token, sequenceId, position);
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
  return next && String(next.sk).startsWith(shootCardsOfSequence(sequenceId)) ? placed(next) : undefined;
}

/** The photos of a sequence between two positions (to the end without `to`). */
export function photosBetween(
  scope: GalleryScope,
  sequenceId: string,
  from: string,
  to: string | undefined,
): Promise<(ShootPhoto & Key)[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': shootKeys.shootOfGallery(scope.tenantId, scope.token),
      ':from': shootKeys.shootPhoto(scope.tenantId, scope.token, sequenceId, from).sk,
      // `~` sorts after every position (they start with a digit).
      ':to': shootKeys.shootPhoto(scope.tenantId, scope.token, sequenceId, to ?? '~').sk,
    },
    ConsistentRead: true,
  }).then((items) => items.map(fromShootItem).filter((item): item is ShootPhoto & Key => item.kind === 'photo'));
}

/** The IDs of the first `count` photos after a card, in capture order (strongly consistent: a photo stored a moment ago counts). */
export async function firstPhotosAfterCard(scope: GalleryScope, card: Key, count: number): Promise<string[]> {
  const sequenceId = sequenceOfShootItem(card.sk);
  const position = positionOfShootItem(card.sk);
  const next = await cardAfter(scope, sequenceId, position);
  const photos = await photosBetween(scope, sequenceId, position, next?.position);
  return photos.slice(0, count).map((photo) => photo.photoId);
}

/** Every card and photo of the gallery's shoot (strongly consistent: erasure reads it again after its deletes). */
export function listShootItems(scope: GalleryScope): Promise<ShootItem[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': shootKeys.shootOfGallery(scope.tenantId, scope.token) },
    ConsistentRead: true,
  }).then((items) => items.map(fromShootItem));
}

/** A shoot item as it is now (strongly consistent). */
export async function getShootItem(key: Key): Promise<ShootItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item ? fromShootItem(Item) : undefined;
}

/** A shoot photo as it is now (strongly consistent); undefined when the key holds none. */
export async function getShootPhoto(key: Key): Promise<(ShootPhoto & Key) | undefined> {
  const item = await getShootItem(key);
  return item?.kind === 'photo' ? item : undefined;
}

/** Which statistics counter a shoot photo of this state is counted in (an assigned one: among the person's photos). */
function stateCounter(state: ShotState): keyof GalleryCounters | undefined {
  if (state.personId) return undefined;
  return state.heldFor ? 'photosWithheld' : 'photosUnassigned';
}

const isWithheld = (state: ShotState) =>
  !state.personId && state.reason !== undefined && WITHHELD_REASONS.includes(state.reason);

/** The persons a move takes a photo from and gives it to, as read with the photo. */
export interface MovePersons {
  fromPerson: Person | undefined;
  toPerson: Person | undefined;
}

/**
 * Moves a photo to `governor` and to the state `to` (a person's, withheld, or nobody's), taking
 * it from the person who has it: their photo items, photo counts and the statistics change in
 * one transaction, conditional on the governor read with the photo, on both persons' photo
 * counts and, when a card governs, on that card not being erased meanwhile. False when any of
 * them changed since they were read (lib/photos/sorting/assign-shoot-photo.ts reads again); a person
 * erased meanwhile fails its condition the same way.
 */
export async function moveShootPhoto(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  governor: string,
  to: ShotState,
  persons: MovePersons,
  governingCard?: Key,
): Promise<boolean> {
  const items = governorTransaction(scope, shot, governor, to, persons);
  if (governingCard) {
    items.push({
      ConditionCheck: {
        TableName: tableName,
        Key: governingCard,
        ConditionExpression: 'kind = :card',
        ExpressionAttributeValues: { ':card': 'card' },
      },
    });
  }
  return transactIfConditionsHold(items);
}

const STATE_ATTRIBUTES = [
  'personId',
  'reason',
  'heldFor',
  'candidates',
  'assignedBy',
  'faceBox',
] as const satisfies readonly (keyof ShotState)[];

function governorTransaction(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  governor: string,
  to: ShotState,
  { fromPerson, toPerson }: MovePersons,
): TransactItem[] {
  const values: Record<string, unknown> = {
    ':governor': governor,
    ...(shot.governor === undefined ? {} : { ':previous': shot.governor }),
  };
  const sets = ['governor = :governor'];
  const removes: string[] = [];
  for (const name of STATE_ATTRIBUTES) {
    if (to[name] === undefined) removes.push(name);
    else {
      sets.push(`${name} = :${name}`);
      values[`:${name}`] = to[name];
    }
  }
  // The review queue's index follows the state: set while the photo waits for review, removed once it does not.
  const queued = reviewQueueEntry(scope, shot, to);
  if (queued) {
    sets.push(`${GSI1.partitionKey} = :reviewQueue`, `${GSI1.sortKey} = :reviewPlace`);
    Object.assign(values, { ':reviewQueue': queued[GSI1.partitionKey], ':reviewPlace': queued[GSI1.sortKey] });
  } else removes.push(GSI1.partitionKey, GSI1.sortKey);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName,
        Key: { pk: shot.pk, sk: shot.sk },
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
        ConditionExpression: shot.governor === undefined ? 'attribute_not_exists(governor)' : 'governor = :previous',
        ExpressionAttributeValues: values,
      },
    },
  ];
  const counters: Partial<GalleryCounters>[] = [];
  if (shot.personId !== to.personId) {
    if (fromPerson) {
      const lost = photoLost(scope, fromPerson.personId, shot.photoId, fromPerson.photoCount <= 1);
      items.push(...lost.items);
      counters.push(lost.counters);
    }
    if (toPerson) {
      const gained = photoGained(scope, personPhoto(shot, toPerson.personId, to.faceBox), toPerson.photoCount === 0);
      items.push(...gained.items);
      counters.push(gained.counters);
    }
  }
  const [before, after] = [stateCounter(shot), stateCounter(to)];
  if (before !== after) counters.push({ ...(before ? { [before]: -1 } : {}), ...(after ? { [after]: 1 } : {}) });
  counters.push({ photosDismissed: Number(isDismissed(to)) - Number(isDismissed(shot)) });
  if (isWithheld(to) && !isWithheld(shot)) items.push(photosWithheldUpdate(scope, now()));
  items.push(...indexChangesOfMove(scope, shot, to));
  const countersItem = countersUpdate(scope, ...counters);
  return countersItem ? [...items, countersItem] : items;
}

/**
 * The shoot index entries a move changes (shoot-index.ts). Computed from the photo as read: the
 * move's condition on its governor holds its person and heldFor; its candidates may only have
 * lost persons since (replaceFaceCandidates), whose entries went with them, and a Delete of an
 * entry gone already changes nothing.
 */
function indexChangesOfMove(scope: GalleryScope, shot: ShootPhoto & Key, to: ShotState): TransactItem[] {
  return indexEntryChanges(scope, shot.sk, indexEntriesOf(shot), indexEntriesOf({ kind: 'photo', ...to }));
}

/** The person's photo item of a shoot photo: the same photo ID, file and object as in the inbox. */
function personPhoto(shot: ShootPhotoFacts, personId: string, faceBox: FaceBox | undefined): Photo {
  return {
    ...(faceBox ? { faceBox } : {}),
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
 * The shoot items that are personal data of the persons `personIds` (every card and photo of the
 * shoot when undefined): their photos (withheld ones included), and the cards showing their codes.
 * Some persons' are found by their shoot index, not by reading the whole shoot.
 */
export async function shootItemsOf(
  scope: GalleryScope,
  personIds?: ReadonlySet<string>,
): Promise<((ShootCard | ShootPhoto) & Key)[]> {
  if (personIds) return shootItemsNaming(scope, personIds, ['CARD', 'HAS', 'HELD']);
  return (await listShootItems(scope)).filter(
    (item): item is (ShootCard | ShootPhoto) & Key => item.kind !== 'erased_card',
  );
}

/**
 * The cards and photos that name one of `personIds` in one of `roles` (shoot-index.ts), each read
 * as it is now (strongly consistent) and kept only while it still names them so: the persons'
 * part of the shoot without reading the rest of it.
 */
export async function shootItemsNaming(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  roles: readonly ShootIndexRole[],
): Promise<((ShootCard | ShootPhoto) & Key)[]> {
  const keys = new Map<string, Key>();
  for (const personId of personIds)
    for (const role of roles) for (const key of await shootKeysNaming(scope, personId, role)) keys.set(key.sk, key);
  const items: ((ShootCard | ShootPhoto) & Key)[] = [];
  for (const key of keys.values()) {
    const item = await getShootItem(key);
    if (!item || item.kind === 'erased_card') continue;
    const named = indexEntriesOf(item).some((entry) => personIds.has(entry.personId) && roles.includes(entry.role));
    if (named) items.push(item);
  }
  return items;
}

/** The photos a card governs now: of those after it on its camera up to the next card, the ones whose governor is the card. */
export async function photosGovernedByCard(scope: GalleryScope, card: Key): Promise<(ShootPhoto & Key)[]> {
  const sequenceId = sequenceOfShootItem(card.sk);
  const position = positionOfShootItem(card.sk);
  const next = await cardAfter(scope, sequenceId, position);
  const photos = await photosBetween(scope, sequenceId, position, next?.position);
  return photos.filter((photo) => photo.governor === position);
}

/** The card or photo with this photo ID, by its pointer (shoot-index.ts): undefined when the shoot has none (an erased card has none). */
export async function findShootItemOfPhoto(
  scope: GalleryScope,
  photoId: string,
): Promise<((ShootCard | ShootPhoto) & Key) | undefined> {
  const key = await shootKeyOfPhoto(scope, photoId);
  const item = key ? await getShootItem(key) : undefined;
  return item && item.kind !== 'erased_card' && item.photoId === photoId ? item : undefined;
}

/** The photos whose governor is one of `governors` (card positions are unique across sequences: they end in the photo ID). */
export async function photosGovernedBy(
  scope: GalleryScope,
  governors: ReadonlySet<string>,
): Promise<(ShootPhoto & Key)[]> {
  const items = await listShootItems(scope);
  return items.filter(
    (item): item is ShootPhoto & Key =>
      item.kind === 'photo' && item.governor !== undefined && governors.has(item.governor),
  );
}

/** Deletes shoot items, taking them off the statistics (erasure; their persons' photo items go separately). */
export async function deleteShootItems(scope: GalleryScope, items: readonly ShootItem[]): Promise<void> {
  await deleteItems(items.map(({ pk, sk }) => ({ pk, sk })));
  // Their index entries and pointers after them: an entry whose item is gone names nothing.
  await deleteItems(items.flatMap((item) => indexKeysOfRemovedItem(scope, item)));
  const photos = items.filter((item): item is ShootPhoto & Key => item.kind === 'photo');
  await addToGalleryCounters(scope, {
    cardPhotos: -items.filter((item) => item.kind === 'card').length,
    photosUnassigned: -photos.filter((photo) => stateCounter(photo) === 'photosUnassigned').length,
    photosWithheld: -photos.filter((photo) => stateCounter(photo) === 'photosWithheld').length,
    photosDismissed: -photos.filter(isDismissed).length,
  });
}

/**
 * Turns cards into erased cards: every attribute but the key (its position) is removed, and the
 * card no longer counts among the cards. A card erased already is skipped.
 */
export async function eraseCards(scope: GalleryScope, cards: readonly (ShootCard & Key)[]): Promise<void> {
  for (const card of cards) {
    const removed = Object.keys(card).filter((name) => name !== 'pk' && name !== 'sk' && name !== 'kind');
    // False when it was erased already.
    await transactIfConditionsHold([
      {
        Update: {
          TableName: tableName,
          Key: { pk: card.pk, sk: card.sk },
          UpdateExpression: `SET kind = :erased, erasedAt = :now REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}`,
          ConditionExpression: 'kind = :card',
          ExpressionAttributeNames: Object.fromEntries(removed.map((name, index) => [`#r${index}`, name])),
          ExpressionAttributeValues: { ':erased': 'erased_card', ':card': 'card', ':now': nowIso() },
        },
      },
      countersUpdate(scope, { cardPhotos: -1 })!,
      // The card's person's index entry and its photo ID's pointer go with its personal data.
      ...indexWritesOfRemovedItem(scope, card),
    ]);
  }
}

/**
 * Deletes one shoot photo whatever its state (an erased person's photo, on arrival or found
 * late), taking it from its person and off the statistics, on condition that it is still as
 * read. False when it changed meanwhile (read it again).
 */
export async function deleteShootPhoto(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  person: Person | undefined,
): Promise<boolean> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: tableName,
        Key: { pk: shot.pk, sk: shot.sk },
        ConditionExpression:
          shot.governor === undefined
            ? 'attribute_exists(pk) AND attribute_not_exists(governor)'
            : 'governor = :previous',
        ...(shot.governor === undefined ? {} : { ExpressionAttributeValues: { ':previous': shot.governor } }),
      },
    },
  ];
  const counters: Partial<GalleryCounters>[] = [];
  if (shot.personId && person) {
    const lost = photoLost(scope, person.personId, shot.photoId, person.photoCount <= 1);
    items.push(...lost.items);
    counters.push(lost.counters);
  }
  const counter = stateCounter(shot);
  if (counter) counters.push({ [counter]: -1 });
  if (isDismissed(shot)) counters.push({ photosDismissed: -1 });
  // Its index entries and pointer (as for a move, a Delete of an entry gone already changes nothing).
  items.push(...indexWritesOfRemovedItem(scope, shot));
  const countersItem = countersUpdate(scope, ...counters);
  return transactIfConditionsHold(countersItem ? [...items, countersItem] : items);
}

/** A card's or photo's position in its camera's sequence (what a photo's governor holds for its card). */
export function shootItemPosition(item: Key): string {
  return positionOfShootItem(item.sk);
}
