import * as v from 'valibot';
import { tableName } from '#lib/platform/table/client';
import { type StoredItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import { galleryKeys } from '#lib/galleries/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import { type TransactItem, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import type { Gallery } from '#lib/galleries/rules/gallery-model';
import type { PublicLimits } from '#lib/galleries/rules/public-limits';

/**
 * What a gallery's pointer says (galleryKeys.galleryPointer): which tenant has a gallery with this
 * token, and the gallery's own public limits, absent where it uses the defaults. Written in the
 * transaction of every change of those limits, so it never disagrees with its gallery.
 */
export interface GalleryPointer {
  tenantId: string;
  publicLimits?: Partial<PublicLimits>;
}

/** Limits of the gallery's own: `{}` (a gallery sent back to the defaults) is none. */
function ownLimits(limits: Partial<PublicLimits> | undefined): Partial<PublicLimits> | undefined {
  return limits && Object.keys(limits).length > 0 ? limits : undefined;
}

/** The pointer's item, under the gallery's token. */
function toGalleryPointerItem(token: string, pointer: GalleryPointer): StoredItem {
  return {
    ...galleryKeys.galleryPointer(pointer.tenantId, token),
    tenantId: pointer.tenantId,
    ...(pointer.publicLimits ? { publicLimits: pointer.publicLimits } : {}),
  };
}

const galleryPointerItemSchema = v.object({
  tenantId: v.string(),
  publicLimits: v.optional(storedObject<Partial<PublicLimits>>()),
});

/** The pointer an item holds; a CorruptItemError when it does not hold one. */
export function fromGalleryPointerItem(stored: StoredItem): GalleryPointer {
  const item = parseItem('gallery pointer', galleryPointerItemSchema, stored);
  return { tenantId: item.tenantId, ...(item.publicLimits ? { publicLimits: item.publicLimits } : {}) };
}

/** The Put of a new gallery's pointer, for the transaction that creates the gallery. */
export function galleryPointerPut(gallery: Pick<Gallery, 'tenantId' | 'token' | 'publicLimits'>): TransactItem {
  const publicLimits = ownLimits(gallery.publicLimits);
  return {
    Put: {
      TableName: tableName,
      Item: toGalleryPointerItem(gallery.token, { tenantId: gallery.tenantId, publicLimits }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The Update of a pointer to the gallery's new limits, for the transaction that changes them on
 * the gallery. It writes the pointer where a gallery older than pointers has none yet.
 */
export function galleryPointerLimitsUpdate(
  tenantId: string,
  token: string,
  limits: Partial<PublicLimits>,
): TransactItem {
  const publicLimits = ownLimits(limits);
  return {
    Update: {
      TableName: tableName,
      Key: galleryKeys.galleryPointer(tenantId, token),
      UpdateExpression: publicLimits
        ? 'SET tenantId = :tenantId, publicLimits = :publicLimits'
        : 'SET tenantId = :tenantId REMOVE publicLimits',
      ExpressionAttributeValues: { ':tenantId': tenantId, ...(publicLimits ? { ':publicLimits': publicLimits } : {}) },
    },
  };
}

/**
 * Every pointer with this token, one per tenant that has a gallery with it: one Query, which
 * needs no tenant. Only the pointer of the request's own tenant may be used.
 */
export async function listGalleryPointers(token: string): Promise<GalleryPointer[]> {
  const items = await queryPartition(galleryKeys.galleryPointersOfToken(token));
  return items.map(fromGalleryPointerItem);
}

/**
 * Writes the pointers that galleries made before pointers existed lack: each on condition that
 * its gallery still exists and it has no pointer yet, so running it again writes nothing, and a
 * pointer the gallery's limits command wrote meanwhile is kept. Returns how many it wrote.
 */
export async function writeMissingGalleryPointers(galleries: readonly Gallery[]): Promise<number> {
  let written = 0;
  for (const gallery of galleries) {
    const wrote = await transactIfConditionsHold([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: galleryKeys.gallery(gallery.tenantId, gallery.token),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      galleryPointerPut(gallery),
    ]);
    if (wrote) written += 1;
  }
  return written;
}
