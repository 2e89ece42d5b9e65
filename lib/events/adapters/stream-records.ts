import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { type ServiceEvent, isEventType } from '#lib/events/rules/event-catalogue';
import { eventFromItem } from '#lib/events/store/outbox';
import { ITEM_PREFIX, galleryOfPersonItem } from '#lib/platform/table/keys';

/**
 * The one seam between the table's stream and its consumers (the webhook dispatcher, the
 * photo-ready emails, reference faces): records as plain values, and the outbox events they carry
 * as typed events. The batch answer is the triggered preset's (lib/http/triggered.ts).
 */

type Image = Parameters<typeof unmarshall>[0];

/** A record of the table's stream, reduced to what the consumers read (plain values). */
export interface ChangeRecord {
  /** The record's ID in its batch (the stream's sequence number). */
  id: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Record<string, unknown>;
}

export function changeRecordsOf(streamEvent: DynamoDBStreamEvent): ChangeRecord[] {
  return streamEvent.Records.map((record, index) => ({
    id: record.dynamodb?.SequenceNumber ?? String(index),
    eventName: record.eventName!,
    newImage: record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Image) : undefined,
  }));
}

/** The outbox event a record writes (new, or a coalesced one counted up); undefined for any other item, or a removal. */
export function eventOfRecord(record: ChangeRecord): ServiceEvent | undefined {
  const image = record.newImage;
  if (
    record.eventName === 'REMOVE' ||
    !image ||
    typeof image.sk !== 'string' ||
    !image.sk.startsWith(ITEM_PREFIX.event)
  )
    return undefined;
  if (typeof image.type !== 'string' || !isEventType(image.type)) return undefined;
  if (typeof image.eventId !== 'string' || typeof image.tenantId !== 'string' || typeof image.galleryToken !== 'string')
    return undefined;
  return eventFromItem(image);
}

/** A webhook delivery item (the delivery log) that a record writes; undefined for any other item. */
export function deliveryItemOfRecord(record: ChangeRecord): Record<string, unknown> | undefined {
  const image = record.newImage;
  return record.eventName !== 'REMOVE' &&
    image &&
    typeof image.sk === 'string' &&
    image.sk.startsWith(ITEM_PREFIX.delivery)
    ? image
    : undefined;
}

/** A person item that a record inserts, with its gallery; undefined for any other record. */
export function insertedPersonOfRecord(
  record: ChangeRecord,
): { scope: { tenantId: string; token: string }; item: Record<string, unknown> } | undefined {
  const image = record.newImage;
  if (
    record.eventName !== 'INSERT' ||
    !image ||
    typeof image.pk !== 'string' ||
    typeof image.sk !== 'string' ||
    !image.sk.startsWith(ITEM_PREFIX.person)
  )
    return undefined;
  const scope = galleryOfPersonItem(image.pk);
  return scope ? { scope, item: image } : undefined;
}
