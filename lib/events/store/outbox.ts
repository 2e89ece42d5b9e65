import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { outboxKeys } from '#lib/events/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import { deleteItems } from '#lib/platform/table/batches';
import { queryAll } from '#lib/platform/table/queries';
import { type PageVisitor, forEachPartitionPage } from '#lib/platform/table/query-pages';
import { GSI1 } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import {
  EVENT_TYPES,
  type EventDataOf,
  type EventType,
  type ServiceEvent,
  photosAssignedWindow,
  photosWithheldWindow,
} from '#lib/events/rules/event-catalogue';

/**
 * The event outbox: each event is an item of its gallery's EVENTS partition, written in the
 * transaction of the change it reports. The table's stream carries each new one to the
 * dispatcher (lib/webhooks/dispatch-events.ts). Items expire after EVENT_RETENTION_DAYS, long
 * after the last retry, so a failed delivery can still be replayed for a while.
 */

export const EVENT_RETENTION_DAYS = 30;

const expiresAt = (createdAtMs: number) => Math.floor(createdAtMs / 1000) + EVENT_RETENTION_DAYS * 86_400;

/** The GSI1 entry of an event about a person: listed under that person (outboxKeys.eventsOfPerson). */
function personIndexOf(tenantId: string, token: string, eventId: string, personId: string) {
  return {
    [GSI1.partitionKey]: outboxKeys.eventsOfPerson(tenantId, token, personId),
    [GSI1.sortKey]: outboxKeys.event(tenantId, token, eventId).sk,
  };
}

/** An event's item, expiring EVENT_RETENTION_DAYS after the event, listed under its person if it has one. */
function toEventItem(event: ServiceEvent): StoredItem {
  return {
    ...outboxKeys.event(event.tenantId, event.galleryToken, event.eventId),
    ...(event.personId ? personIndexOf(event.tenantId, event.galleryToken, event.eventId, event.personId) : {}),
    ...event,
    expiresAt: expiresAt(Date.parse(event.createdAt)),
  };
}

/** The transaction item that records `event`. No condition: event IDs are new, and a resent transaction writes the same item. */
export function eventPut(event: ServiceEvent): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: toEventItem(event),
    },
  };
}

/**
 * The transaction item that adds one photo to the person's photos.assigned event of the window
 * containing `at`, creating the event with the window's first photo.
 */
export function photosAssignedUpdate(scope: GalleryScope, personId: string, at: number): TransactItem {
  return coalescedEventUpdate(
    scope,
    'photos.assigned',
    photosAssignedWindow(personId, at),
    personId,
    'photosAdded',
    at,
  );
}

/** The transaction item that adds one photo to the gallery's photos.withheld event of the window containing `at`. */
export function photosWithheldUpdate(scope: GalleryScope, at: number): TransactItem {
  return coalescedEventUpdate(
    scope,
    'photos.withheld',
    photosWithheldWindow(scope.token, at),
    null,
    'photosWithheld',
    at,
  );
}

function coalescedEventUpdate(
  scope: GalleryScope,
  type: EventType,
  { eventId, windowEnd }: { eventId: string; windowEnd: number },
  personId: string | null,
  countName: string,
  at: number,
): TransactItem {
  const personIndex = personId ? personIndexOf(scope.tenantId, scope.token, eventId, personId) : undefined;
  return {
    Update: {
      TableName: tableName,
      Key: outboxKeys.event(scope.tenantId, scope.token, eventId),
      UpdateExpression:
        'SET eventId = :eventId, #type = :type, createdAt = if_not_exists(createdAt, :createdAt), tenantId = :tenantId, ' +
        `galleryToken = :token, personId = :personId, deliverAfter = :windowEnd, expiresAt = :expiresAt${personIndex ? ', #gsi1pk = :gsi1pk, #gsi1sk = :gsi1sk' : ''} ADD #count :one`,
      ExpressionAttributeNames: {
        '#type': 'type',
        '#count': countName,
        ...(personIndex ? { '#gsi1pk': GSI1.partitionKey, '#gsi1sk': GSI1.sortKey } : {}),
      },
      ExpressionAttributeValues: {
        ...(personIndex ? { ':gsi1pk': personIndex[GSI1.partitionKey], ':gsi1sk': personIndex[GSI1.sortKey] } : {}),
        ':eventId': eventId,
        ':type': type,
        ':createdAt': new Date(at).toISOString(),
        ':tenantId': scope.tenantId,
        ':token': scope.token,
        ':personId': personId,
        ':windowEnd': windowEnd,
        ':expiresAt': expiresAt(at),
        ':one': 1,
      },
    },
  };
}

const envelopeEntries = {
  eventId: v.string(),
  createdAt: v.string(),
  tenantId: v.string(),
  galleryToken: v.string(),
  personId: v.nullish(v.string()),
  deliverAfter: v.nullish(v.number()),
};

type WrittenWhole = Exclude<EventType, 'photos.assigned' | 'photos.withheld'>;

/** An event's item by its type: a coalesced event keeps its count in an attribute of its own (ADD), every other its `data`. */
const eventItemSchema = v.variant('type', [
  v.object({ ...envelopeEntries, type: v.literal('photos.assigned'), personId: v.string(), photosAdded: v.number() }),
  v.object({ ...envelopeEntries, type: v.literal('photos.withheld'), photosWithheld: v.number() }),
  v.object({
    ...envelopeEntries,
    type: v.picklist(
      EVENT_TYPES.filter((type): type is WrittenWhole => type !== 'photos.assigned' && type !== 'photos.withheld'),
    ),
    data: storedObject<EventDataOf[WrittenWhole]>(),
  }),
]);

/** An event as stored (a stream image or a read item, as plain values); a CorruptItemError when it is none. */
export function eventFromItem(stored: Record<string, unknown>): ServiceEvent {
  const item = parseItem('event', eventItemSchema, stored);
  const data =
    item.type === 'photos.assigned'
      ? { personId: item.personId, photosAdded: item.photosAdded }
      : item.type === 'photos.withheld'
        ? { photosWithheld: item.photosWithheld }
        : item.data;
  return {
    eventId: item.eventId,
    type: item.type,
    createdAt: item.createdAt,
    tenantId: item.tenantId,
    galleryToken: item.galleryToken,
    personId: item.personId ?? null,
    data,
    ...(typeof item.deliverAfter === 'number' ? { deliverAfter: item.deliverAfter } : {}),
  };
}

export async function getEvent(
  tenantId: string,
  galleryToken: string,
  eventId: string,
): Promise<ServiceEvent | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: outboxKeys.event(tenantId, galleryToken, eventId),
      ConsistentRead: true,
    }),
  );
  return Item ? eventFromItem(Item) : undefined;
}

/**
 * The keys of the gallery's events about these persons (their `personId`), as erasure of
 * persons plans them: one Query of GSI1 per person (outboxKeys.eventsOfPerson), never the
 * gallery's outbox. An event's data may also hold the person's email or employee ID. Their
 * deliveries stay, holding IDs only; an erased event is never sent again. Events written before
 * the index existed are listed once indexEventsByPerson has run over the gallery (or they expire).
 */
export async function eventKeysAbout(
  scope: GalleryScope,
  personIds: Iterable<string>,
): Promise<{ pk: string; sk: string }[]> {
  const pages = await Promise.all(
    [...personIds].map((personId) =>
      queryAll({
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ProjectionExpression: 'pk, sk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': outboxKeys.eventsOfPerson(scope.tenantId, scope.token, personId) },
      }),
    ),
  );
  return pages.flat().map(keyOfItem);
}

/** Whom an event is about, if anyone. */
const eventPersonSchema = v.object({ personId: v.nullish(v.string()) });

/** An event's key and whom it is about, as a paged read of the outbox gives it. */
export interface EventOfGallery {
  key: { pk: string; sk: string };
  personId: string | undefined;
}

/** Every event of the gallery's outbox, `pageSize` at a time (erasure of a whole gallery deletes as it goes). */
export function forEachEventPage(
  scope: GalleryScope,
  pageSize: number,
  visit: PageVisitor<EventOfGallery>,
): Promise<void> {
  return forEachPartitionPage(
    outboxKeys.eventsOfGallery(scope.tenantId, scope.token),
    pageSize,
    (items) =>
      visit(
        items.map((item) => ({
          key: keyOfItem(item),
          personId: parseItem('event', eventPersonSchema, item).personId ?? undefined,
        })),
      ),
    { ProjectionExpression: 'pk, sk, personId' },
  );
}

/**
 * The backfill of the per-person event index (outboxKeys.eventsOfPerson) for events written
 * before it existed: pages through the gallery's outbox and lists each event about a person
 * under that person, once (an event listed already is left alone). Answers how many it listed.
 * Events expire after EVENT_RETENTION_DAYS, so after that no gallery needs it any more.
 */
export async function indexEventsByPerson(scope: GalleryScope, pageSize = 100): Promise<number> {
  let indexed = 0;
  await forEachPartitionPage(
    outboxKeys.eventsOfGallery(scope.tenantId, scope.token),
    pageSize,
    async (items) => {
      for (const item of items) {
        const { personId } = parseItem('event', eventPersonSchema, item);
        if (!personId || item[GSI1.partitionKey] !== undefined) continue;
        const index = personIndexOf(scope.tenantId, scope.token, String(item.eventId), personId);
        await db
          .send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOfItem(item),
              UpdateExpression: 'SET #gsi1pk = :gsi1pk, #gsi1sk = :gsi1sk',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#gsi1pk': GSI1.partitionKey, '#gsi1sk': GSI1.sortKey },
              ExpressionAttributeValues: { ':gsi1pk': index[GSI1.partitionKey], ':gsi1sk': index[GSI1.sortKey] },
            }),
          )
          .catch((error: unknown) => {
            // Expired (deleted by TTL) or erased meanwhile: nothing to list.
            if (!isConditionFailure(error)) throw error;
          });
        indexed += 1;
      }
    },
    {
      ProjectionExpression: 'pk, sk, eventId, personId, #gsi1pk',
      ExpressionAttributeNames: { '#gsi1pk': GSI1.partitionKey },
    },
  );
  return indexed;
}

/** Deletes the events found by eventKeysAbout or forEachEventPage; what is gone already is skipped. */
export function deleteEvents(eventItemKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  return deleteItems(eventItemKeys);
}
