import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import { faceKeys } from '#lib/faces/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { faceConsentCheck } from '#lib/persons/store/person-marks';
import { faceMatchingCheck } from '#lib/galleries/store/face-matching-check';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * Reference faces (faceKeys.referenceFace): the face descriptor of a consenting person's selfie,
 * biometric data kept only while the person, their consent and their selfie are
 * (docs/personal-data.md). Stored as 128 float32 values in one binary attribute.
 */

export interface ReferenceFace {
  personId: string;
  descriptor: number[];
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

const personIdSchema = v.object({ personId: v.string() });
const referenceFaceItemSchema = v.object({ personId: v.string(), descriptor: v.instance(Uint8Array) });

/** The reference face an item holds; a CorruptItemError when it does not hold one. */
export function fromReferenceFaceItem(stored: StoredItem): ReferenceFace {
  const item = parseItem('reference face', referenceFaceItemSchema, stored);
  return { personId: item.personId, descriptor: toDescriptor(item.descriptor) };
}

/**
 * Stores a person's reference face, on condition that the person exists, still consents and
 * still has the selfie, and that the gallery still matches faces: a descriptor computed while
 * the person is erased, withdraws, loses the selfie to retention, or the studio switches
 * matching off, is not kept. False when a condition failed.
 */
export async function putReferenceFace(scope: GalleryScope, face: ReferenceFace, computedAt: string): Promise<boolean> {
  const items: TransactItem[] = [
    faceConsentCheck(scope, face.personId),
    faceMatchingCheck(scope),
    {
      Put: {
        TableName: tableName,
        Item: toReferenceFaceItem(scope, face, computedAt),
      },
    },
  ];
  return transactIfConditionsHold(items);
}

export async function getReferenceFace(scope: GalleryScope, personId: string): Promise<ReferenceFace | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: faceKeys.referenceFace(scope.tenantId, scope.token, personId),
      ConsistentRead: true,
    }),
  );
  return Item ? fromReferenceFaceItem(Item) : undefined;
}

/** Every reference face of the gallery. */
export async function listReferenceFaces(scope: GalleryScope): Promise<ReferenceFace[]> {
  const items = await queryPartition(faceKeys.referenceFacesOfGallery(scope.tenantId, scope.token));
  return items.map(fromReferenceFaceItem);
}

/** The delete of a person's reference face, for the transaction that deletes the person. */
export function referenceFaceDeletion(scope: GalleryScope, personId: string): TransactItem {
  return { Delete: { TableName: tableName, Key: faceKeys.referenceFace(scope.tenantId, scope.token, personId) } };
}

/** Deletes the reference faces of `personIds` (every one of the gallery when undefined); gives how many there were. */
export async function deleteReferenceFaces(scope: GalleryScope, personIds?: ReadonlySet<string>): Promise<number> {
  const items = await queryPartition(faceKeys.referenceFacesOfGallery(scope.tenantId, scope.token));
  const doomed = items.filter(
    (item) => personIds === undefined || personIds.has(parseItem('reference face', personIdSchema, item).personId),
  );
  await deleteItems(doomed.map(keyOfItem));
  return doomed.length;
}
