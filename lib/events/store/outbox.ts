import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { outboxKeys } from '#lib/events/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import { deleteItems } from '#lib/platform/table/batches';
import { queryPartition } from '#lib/platform/table/queries';
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

/** An event's item, expiring EVENT_RETENTION_DAYS after the event. */
function toEventItem(event: ServiceEvent): StoredItem {
  return {
    ...outboxKeys.event(event.tenantId, event.galleryToken, event.eventId),
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
  return {
    Update: {
      TableName: tableName,
      Key: outboxKeys.event(scope.tenantId, scope.token, eventId),
      UpdateExpression:
        'SET eventId = :eventId, #type = :type, createdAt = if_not_exists(createdAt, :createdAt), tenantId = :tenantId, ' +
        'galleryToken = :token, personId = :personId, deliverAfter = :windowEnd, expiresAt = :expiresAt ADD #count :one',
      ExpressionAttributeNames: { '#type': 'type', '#count': countName },
      ExpressionAttributeValues: {
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
 * The keys of the gallery's events about the persons `isAbout` accepts (all of its events by
 * default), as erasure plans them: an event names a person in `personId`, and its data may hold
 * their email or employee ID. Their deliveries stay, holding IDs only; an erased event is never sent again.
 */
export async function eventKeys(
  scope: GalleryScope,
  isAbout: (personId: string | undefined) => boolean = () => true,
): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(outboxKeys.eventsOfGallery(scope.tenantId, scope.token));
  return items
    .filter((item) => isAbout(parseItem('event', eventPersonSchema, item).personId ?? undefined))
    .map(keyOfItem);
}

/** Whom an event is about, if anyone. */
const eventPersonSchema = v.object({ personId: v.nullish(v.string()) });

/** Deletes the events eventKeys found; what is gone already is skipped. */
export function deleteEvents(eventItemKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  return deleteItems(eventItemKeys);
}
