import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { HR_EXPORT_ITEM_PREFIX, hrExportKeys } from '#lib/hr-exports/store/keys';
import { queryAll } from '#lib/platform/table/queries';
import { deleteItems, putItems } from '#lib/platform/table/batches';
import { TTL_ATTRIBUTE } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import { eventPut } from '#lib/events/store/outbox';
import type { ServiceEvent } from '#lib/events/rules/event-catalogue';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  HR_EXPORT_RECORD_DAYS,
  type HrExport,
  type HrExportFailure,
  type HrExportReport,
} from '#lib/hr-exports/rules/hr-export-model';
import * as v from 'valibot';
import { type StoredItem, parseItem, storedObject } from '#lib/platform/table/item-schema';

/**
 * HR export jobs as items of their gallery's HREXPORTS partition (hrExportKeys.hrExport), and
 * which exports hold a person as holding items in the person's own partition
 * (hrExportKeys.hrExportHolding), written a page of persons at a time while the ZIP is built, so
 * that erasing one person finds its exports with one small Query and the export's item stays
 * small however many persons it holds (docs/data-model.md). Every item expires by TTL
 * HR_EXPORT_RECORD_DAYS after its export was created.
 */

const expiresAtOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + HR_EXPORT_RECORD_DAYS * 86_400;

/** A new export's item, expiring by TTL HR_EXPORT_RECORD_DAYS after it was created. */
function toHrExportItem(hrExport: HrExport): StoredItem {
  return {
    ...hrExportKeys.hrExport(hrExport.tenantId, hrExport.galleryToken, hrExport.exportId),
    ...hrExport,
    [TTL_ATTRIBUTE]: expiresAtOf(hrExport.createdAt),
  };
}

/**
 * An export's item: the job, and once ready its object, report and count of persons (an erased one
 * keeps none of them). Items written before the holding items existed list the persons
 * (`personIds`) instead; they expire within HR_EXPORT_RECORD_DAYS.
 */
const hrExportItemSchema = v.object({
  exportId: v.string(),
  tenantId: v.string(),
  galleryToken: v.string(),
  status: v.picklist(['queued', 'running', 'ready', 'failed', 'erased']),
  shootingDayId: v.nullish(v.string()),
  size: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
  objectKey: v.nullish(v.string()),
  objectExpiresAt: v.nullish(v.string()),
  report: v.nullish(storedObject<HrExportReport>()),
  reason: v.nullish(v.picklist(['gallery_gone', 'build_failed'])),
  personIds: v.nullish(v.array(v.string())),
});

/** The export an item holds, with the persons an item written before the holding items lists; a CorruptItemError when it holds none. */
export function fromHrExportItem(stored: StoredItem): HrExportHoldings {
  const item = parseItem('hr export', hrExportItemSchema, stored);
  const hrExport: HrExport = {
    exportId: item.exportId,
    tenantId: item.tenantId,
    galleryToken: item.galleryToken,
    status: item.status,
    shootingDayId: item.shootingDayId ?? null,
    size: item.size,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    ...(item.objectKey ? { objectKey: item.objectKey } : {}),
    ...(item.objectExpiresAt ? { objectExpiresAt: item.objectExpiresAt } : {}),
    ...(item.report ? { report: item.report } : {}),
    ...(item.reason ? { reason: item.reason } : {}),
  };
  return { hrExport, listedPersonIds: item.personIds ?? [] };
}

export async function putQueuedHrExport(hrExport: HrExport): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: toHrExportItem(hrExport),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getHrExport(
  scope: GalleryScope,
  exportId: string,
  { consistent = false } = {},
): Promise<HrExport | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: hrExportKeys.hrExport(scope.tenantId, scope.token, exportId),
      ConsistentRead: consistent,
    }),
  );
  return Item ? fromHrExportItem(Item).hrExport : undefined;
}

/**
 * Claims a queued export for a build (or takes over one a failed attempt left running): false
 * when it is ready, failed or erased already, or gone.
 */
export async function markHrExportRunning(scope: GalleryScope, exportId: string, at: string): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: hrExportKeys.hrExport(scope.tenantId, scope.token, exportId),
          UpdateExpression: 'SET #status = :running, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND #status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':at': at },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.status === 'running',
  );
}

/**
 * Records that an export's ZIP holds these persons (a page of them, as the build adds them): one
 * holding item each, expiring with the export's record. Written before the export is marked
 * ready, so that an erasure that finds it ready finds its holdings too.
 */
export async function recordHrExportHoldings(
  scope: GalleryScope,
  hrExport: Pick<HrExport, 'exportId' | 'createdAt'>,
  personIds: readonly string[],
): Promise<void> {
  await putItems(
    personIds.map((personId) => ({
      ...hrExportKeys.hrExportHolding(scope.tenantId, scope.token, personId, hrExport.exportId),
      exportId: hrExport.exportId,
      personId,
      [TTL_ATTRIBUTE]: expiresAtOf(hrExport.createdAt),
    })),
  );
}

/** A person's holding of an export. */
export interface HrExportHolding {
  personId: string;
  exportId: string;
}

const holdingItemSchema = v.object({ exportId: v.string(), personId: v.string() });

/**
 * The exports whose ZIP holds the person, by their holding items: one Query of the person's own
 * partition, a small collection (the exports of the last HR_EXPORT_RECORD_DAYS).
 */
export async function holdingsOfPerson(scope: GalleryScope, personId: string): Promise<HrExportHolding[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': hrExportKeys.hrExportHoldingsOfPerson(scope.tenantId, scope.token, personId) },
    ConsistentRead: true,
  });
  return items.map((item) => parseItem('hr export holding', holdingItemSchema, item));
}

/** Deletes holding items (an erased person's). */
export async function deleteHrExportHoldings(scope: GalleryScope, holdings: readonly HrExportHolding[]): Promise<void> {
  await deleteItems(
    holdings.map(({ personId, exportId }) =>
      hrExportKeys.hrExportHolding(scope.tenantId, scope.token, personId, exportId),
    ),
  );
}

/**
 * Records a built export and its hr_export.ready event in one transaction, on condition that it
 * is still running (an erasure meanwhile leaves it alone). False when the condition failed. The
 * item keeps how many persons the ZIP holds; who they are is in their holding items.
 */
export async function markHrExportReady(
  scope: GalleryScope,
  exportId: string,
  ready: { objectKey: string; objectExpiresAt: string; report: HrExportReport; at: string },
  event: ServiceEvent,
): Promise<boolean> {
  return transactIfConditionsHold([
    {
      Update: {
        TableName: tableName,
        Key: hrExportKeys.hrExport(scope.tenantId, scope.token, exportId),
        UpdateExpression:
          'SET #status = :ready, updatedAt = :at, objectKey = :objectKey, objectExpiresAt = :objectExpiresAt, #report = :report, personCount = :personCount',
        ConditionExpression: 'attribute_exists(pk) AND #status = :running',
        ExpressionAttributeNames: { '#status': 'status', '#report': 'report' },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':running': 'running',
          ':at': ready.at,
          ':objectKey': ready.objectKey,
          ':objectExpiresAt': ready.objectExpiresAt,
          ':report': ready.report,
          ':personCount': ready.report.exported,
        },
      },
    },
    eventPut(event),
  ]);
}

export async function markHrExportFailed(
  scope: GalleryScope,
  exportId: string,
  reason: HrExportFailure,
  at: string,
): Promise<void> {
  await conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: hrExportKeys.hrExport(scope.tenantId, scope.token, exportId),
          UpdateExpression: 'SET #status = :failed, updatedAt = :at, reason = :reason',
          ConditionExpression: 'attribute_exists(pk) AND #status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':failed': 'failed',
            ':queued': 'queued',
            ':running': 'running',
            ':at': at,
            ':reason': reason,
          },
        }),
      ),
    () => true,
  );
}

/** An export, with the persons its item lists where it was written before the holding items (else none). */
export interface HrExportHoldings {
  hrExport: HrExport;
  listedPersonIds: string[];
}

/** Every export of the gallery still on record (they expire after HR_EXPORT_RECORD_DAYS). */
export async function listHrExportsOfGallery(scope: GalleryScope): Promise<HrExportHoldings[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :export)',
    ExpressionAttributeValues: {
      ':pk': hrExportKeys.hrExportsOfGallery(scope.tenantId, scope.token),
      ':export': HR_EXPORT_ITEM_PREFIX,
    },
    ConsistentRead: true,
  });
  return items.map(fromHrExportItem);
}

/**
 * Marks an export erased: no object, no report, no count or list of persons; only that it was made and
 * erased stays until its TTL. Whatever status it had (a build still running finds it erased and
 * does not mark it ready).
 */
export async function markHrExportErased(scope: GalleryScope, exportId: string, at: string): Promise<void> {
  await db
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: hrExportKeys.hrExport(scope.tenantId, scope.token, exportId),
        UpdateExpression:
          'SET #status = :erased, updatedAt = :at REMOVE objectKey, objectExpiresAt, #report, personIds, personCount',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status', '#report': 'report' },
        ExpressionAttributeValues: { ':erased': 'erased', ':at': at },
      }),
    )
    .catch((error: unknown) => {
      // Expired by TTL meanwhile: nothing left to mark.
      if (!isConditionFailure(error)) throw error;
    });
}
