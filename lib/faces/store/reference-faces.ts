import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, conditionalWrite, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import { faceKeys } from '#lib/faces/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import { forEachPartitionPage } from '#lib/platform/table/query-pages';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { faceConsentCheck } from '#lib/persons/store/person-marks';
import { faceMatchingCheck } from '#lib/galleries/store/face-matching-check';
import { addToGalleryCounters, countersUpdate } from '#lib/galleries/store/gallery-counters';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * Reference faces (faceKeys.referenceFace): the face descriptor of a consenting person's selfie,
 * biometric data kept only while the person, their consent and their selfie are
 * (docs/personal-data.md). Stored as 128 float32 values in one binary attribute.
 *
 * A reference starts unconfirmed: the selfie is only the person's word. It is confirmed
 * (`confirmedAt`, `confirmedBy`: the shoot photo that did it) once a photo that the person's own
 * card governs shows the same face, and only then fills in, withholds or names a candidate. An
 * unconfirmed one that the person's card photos contradict (`contradictedBy`: their photo IDs) is
 * rejected: its descriptor is removed and the item stays as a mark (`rejectedAt`, `rejectedBy`),
 * so that the same selfie is not described again (docs/photos.md#whose-face-the-selfie-shows).
 */

export interface ReferenceFace {
  personId: string;
  descriptor: number[];
  /** Whether a photo the person's own card governs has shown this face (only then has it a say). */
  confirmed?: boolean;
}

const toBinary = (descriptor: readonly number[]) => new Uint8Array(Float32Array.from(descriptor).buffer);

function toDescriptor(binary: Uint8Array): number[] {
  const aligned = Uint8Array.from(binary); // a fresh buffer, aligned for the float view
  return Array.from(new Float32Array(aligned.buffer, 0, aligned.byteLength / 4));
}

/** The face's item: the descriptor as binary, and when it was computed. */
function toReferenceFaceItem(scope: GalleryScope, face: ReferenceFace, computedAt: string): StoredItem {
  return {
    ...faceKeys.referenceFace(scope.tenantId, scope.token, face.personId),
    personId: face.personId,
    descriptor: toBinary(face.descriptor),
    computedAt,
  };
}

const referenceFaceItemSchema = v.object({
  personId: v.string(),
  descriptor: v.instance(Uint8Array),
  confirmedAt: v.optional(v.string()),
});
const rejectionMarkSchema = v.object({ personId: v.string(), rejectedAt: v.string() });

/** What a person's item of the `…#FACES` partition holds: their reference face, or the mark that their selfie is not their face. */
type ReferenceFaceEntry = ReferenceFace | { personId: string; rejected: true };

function fromEntryItem(stored: StoredItem): ReferenceFaceEntry {
  if (stored.descriptor === undefined && stored.rejectedAt !== undefined)
    return { personId: parseItem('reference face', rejectionMarkSchema, stored).personId, rejected: true };
  const item = parseItem('reference face', referenceFaceItemSchema, stored);
  return {
    personId: item.personId,
    descriptor: toDescriptor(item.descriptor),
    ...(item.confirmedAt ? { confirmed: true } : {}),
  };
}

const isFace = (entry: ReferenceFaceEntry): entry is ReferenceFace => !('rejected' in entry);

/** The reference face an item holds; a CorruptItemError when it holds neither a face nor a rejection mark, undefined for a mark. */
export function fromReferenceFaceItem(stored: StoredItem): ReferenceFace | undefined {
  const entry = fromEntryItem(stored);
  return isFace(entry) ? entry : undefined;
}

/**
 * Stores a person's reference face, unconfirmed, on condition that the person exists, still
 * consents and still has the selfie, and that the gallery still matches faces: a descriptor
 * computed while the person is erased, withdraws, loses the selfie to retention, or the studio
 * switches matching off, is not kept. Nor does it replace what the person has already (a
 * reference, confirmed or not, or the mark of a rejected selfie): the selfie never changes, so
 * a second description would give the same face and lose the confirmation. False when a
 * condition failed (referenceFaceState tells which).
 */
export async function putReferenceFace(scope: GalleryScope, face: ReferenceFace, computedAt: string): Promise<boolean> {
  const items: TransactItem[] = [
    faceConsentCheck(scope, face.personId),
    faceMatchingCheck(scope),
    {
      Put: {
        TableName: tableName,
        Item: toReferenceFaceItem(scope, face, computedAt),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  return transactIfConditionsHold(items);
}

/** A person's reference face, confirmed or not, as it is now (strongly consistent); undefined when they have none. */
export async function getReferenceFace(scope: GalleryScope, personId: string): Promise<ReferenceFace | undefined> {
  const entry = await getEntry(scope, personId);
  return entry && isFace(entry) ? entry : undefined;
}

/** What a person has: a reference face, the mark of a selfie rejected as not their face, or nothing. */
export async function referenceFaceState(scope: GalleryScope, personId: string): Promise<'face' | 'rejected' | 'none'> {
  const entry = await getEntry(scope, personId);
  if (!entry) return 'none';
  return isFace(entry) ? 'face' : 'rejected';
}

async function getEntry(scope: GalleryScope, personId: string): Promise<ReferenceFaceEntry | undefined> {
  const item = await getEntryItem(scope, personId);
  return item ? fromEntryItem(item) : undefined;
}

async function getEntryItem(scope: GalleryScope, personId: string): Promise<StoredItem | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: faceKeys.referenceFace(scope.tenantId, scope.token, personId),
      ConsistentRead: true,
    }),
  );
  return Item;
}

/** Every reference face of the gallery, confirmed or not (the marks of rejected selfies are no faces). */
export async function listReferenceFaces(scope: GalleryScope): Promise<ReferenceFace[]> {
  const items = await queryPartition(faceKeys.referenceFacesOfGallery(scope.tenantId, scope.token));
  return items.map(fromEntryItem).filter(isFace);
}

/**
 * Confirms a person's reference face: a photo their own card governs (`photoId`) showed it.
 * Conditional on the face still being there, so that a confirmation racing an erasure, a
 * withdrawal or a rejection never writes an item back. A confirmed face stays confirmed by its
 * first photo. False when the face is gone.
 */
export async function confirmReferenceFace(
  scope: GalleryScope,
  personId: string,
  photoId: string,
  at: string,
): Promise<boolean> {
  const confirmed = await updateFaceIf(scope, personId, {
    UpdateExpression:
      'SET confirmedAt = if_not_exists(confirmedAt, :at), confirmedBy = if_not_exists(confirmedBy, :photoId) REMOVE contradictedBy',
    ConditionExpression: 'attribute_exists(#descriptor)',
    ExpressionAttributeValues: { ':at': at, ':photoId': photoId },
  });
  if (confirmed === undefined) return false;
  await referenceFacesChanged(scope);
  return true;
}

/**
 * Records that a photo the person's own card governs contradicts their unconfirmed reference
 * face, and gives every photo recorded so far. Undefined when there is nothing to record: the
 * face was confirmed meanwhile, or is gone.
 */
export async function recordContradiction(
  scope: GalleryScope,
  personId: string,
  photoId: string,
): Promise<string[] | undefined> {
  const updated = await updateFaceIf(scope, personId, {
    UpdateExpression: 'ADD contradictedBy :photoIds',
    ConditionExpression: 'attribute_exists(#descriptor) AND attribute_not_exists(confirmedAt)',
    ExpressionAttributeValues: { ':photoIds': new Set([photoId]) },
    ReturnValues: 'ALL_NEW',
  });
  const recorded = updated?.contradictedBy;
  return recorded instanceof Set ? [...(recorded as Set<string>)] : undefined;
}

/**
 * Rejects a person's unconfirmed reference face as not their face: the descriptor goes, and the
 * item stays as the mark that keeps the selfie from being described again (putReferenceFace
 * puts nothing over it), with the photos that contradicted it. Conditional on the face being
 * there and still unconfirmed: a photo that confirmed it meanwhile wins. False when it did; true
 * when the mark is there already (this rejection resent, or a concurrent one).
 */
export async function rejectReferenceFace(
  scope: GalleryScope,
  personId: string,
  photoIds: readonly string[],
  at: string,
): Promise<boolean> {
  const updated = await updateFaceIf(
    scope,
    personId,
    {
      UpdateExpression: 'SET rejectedAt = :at, rejectedBy = :photoIds REMOVE #descriptor, computedAt, contradictedBy',
      ConditionExpression: 'attribute_exists(#descriptor) AND attribute_not_exists(confirmedAt)',
      ExpressionAttributeValues: { ':at': at, ':photoIds': [...photoIds] },
    },
    (item) => item?.rejectedAt !== undefined,
  );
  if (updated === undefined) return false;
  await referenceFacesChanged(scope);
  return true;
}

/**
 * A conditional update of a person's face item, whose expressions name the descriptor
 * `#descriptor` (a reserved word): its new image ({} unless asked for, or when `ours` tells
 * this very update in the item a resent one found), undefined when the condition failed.
 */
async function updateFaceIf(
  scope: GalleryScope,
  personId: string,
  update: Pick<
    ConstructorParameters<typeof UpdateCommand>[0],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues' | 'ReturnValues'
  >,
  ours: (item: StoredItem | undefined) => boolean = () => false,
): Promise<StoredItem | undefined> {
  let image: StoredItem = {};
  const written = await conditionalWrite(async () => {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: faceKeys.referenceFace(scope.tenantId, scope.token, personId),
        ExpressionAttributeNames: { '#descriptor': 'descriptor' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ...update,
      }),
    );
    image = Attributes ?? {};
  }, ours);
  return written ? image : undefined;
}

/** The delete of a person's reference face, for the transaction that deletes the person. */
export function referenceFaceDeletion(scope: GalleryScope, personId: string): TransactItem {
  return { Delete: { TableName: tableName, Key: faceKeys.referenceFace(scope.tenantId, scope.token, personId) } };
}

/**
 * Deletes the reference faces of `personIds` (every one of the gallery when undefined), and the
 * marks of their rejected selfies unless `keepRejections` (the switch-off: the selfies stay, and
 * switched on again they must not be described again); gives how many faces there were. Named
 * persons are read by key (erasure of one person reads no other face); the whole gallery is read
 * a page of ERASURE_PAGE_SIZE at a time, each page deleted before the next is read.
 */
export async function deleteReferenceFaces(
  scope: GalleryScope,
  personIds?: ReadonlySet<string>,
  { keepRejections = false } = {},
): Promise<number> {
  let faces = 0;
  const deleteEntries = async (items: StoredItem[]) => {
    const faceItems = items.filter((item) => isFace(fromEntryItem(item)));
    faces += faceItems.length;
    await deleteItems((keepRejections ? faceItems : items).map(keyOfItem));
  };
  if (personIds !== undefined) {
    const entries = await Promise.all([...personIds].map((personId) => getEntryItem(scope, personId)));
    await deleteEntries(entries.filter((item): item is StoredItem => item !== undefined));
  } else {
    await forEachPartitionPage(
      faceKeys.referenceFacesOfGallery(scope.tenantId, scope.token),
      REFERENCE_FACE_PAGE_SIZE,
      deleteEntries,
    );
  }
  // Even with none left to delete here: a person's erasure may have deleted theirs in its own transaction (deletePersonRecords).
  await referenceFacesChanged(scope);
  return faces;
}

/** Reference faces read at once when a whole gallery's go: a descriptor is about 3 KB stored, so a page is about 300 KB. */
const REFERENCE_FACE_PAGE_SIZE = 100;

/** How many reference faces these persons have (one read by key each): what erasing them would delete. */
export async function countReferenceFaces(scope: GalleryScope, personIds: Iterable<string>): Promise<number> {
  const faces = await Promise.all([...personIds].map((personId) => getReferenceFace(scope, personId)));
  return faces.filter((face) => face !== undefined).length;
}

/** How many reference faces the gallery has, counted a page at a time without keeping any (a dry run of a gallery's erasure). */
export async function countReferenceFacesOfGallery(scope: GalleryScope): Promise<number> {
  let faces = 0;
  await forEachPartitionPage(
    faceKeys.referenceFacesOfGallery(scope.tenantId, scope.token),
    REFERENCE_FACE_PAGE_SIZE,
    (items) => {
      faces += items.filter((item) => isFace(fromEntryItem(item))).length;
    },
  );
  return faces;
}

/*
 * The generation of the gallery's reference faces (GalleryCounters.referenceFacesGeneration): one
 * ADD on the statistics item wherever the confirmed faces may change (a confirmation, a
 * rejection, a deletion), so that every warm instance's copy of them is read again for the next
 * photo (lib/faces/confirmed-reference-faces.ts). A face put by putReferenceFace starts
 * unconfirmed and is in no copy, so a put moves nothing. A copy is only ever stale between a
 * change and its ADD: the deletions that must not wait for it (a withdrawal) make the ADD part of
 * their transaction (referenceFacesChangedUpdate).
 */

/** The statistics' delta of a change of the confirmed faces, for a transaction that has its own statistics update to add it to. */
export const REFERENCE_FACES_CHANGED = { referenceFacesGeneration: 1 } as const;

/** The ADD of a change of the confirmed faces, as a transaction item (for a transaction without another statistics update). */
export function referenceFacesChangedUpdate(scope: GalleryScope): TransactItem {
  return countersUpdate(scope, REFERENCE_FACES_CHANGED)!;
}

/** The ADD of a change of the confirmed faces, after the change. */
function referenceFacesChanged(scope: GalleryScope): Promise<void> {
  return addToGalleryCounters(scope, REFERENCE_FACES_CHANGED);
}
