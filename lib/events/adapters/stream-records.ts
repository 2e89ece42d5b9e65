import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { type ServiceEvent, isEventType } from '#lib/events/rules/event-catalogue';
import { eventFromItem } from '#lib/events/store/outbox';
import { EVENT_ITEM_PREFIX } from '#lib/events/store/keys';

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
    !image.sk.startsWith(EVENT_ITEM_PREFIX)
  )
    return undefined;
  if (typeof image.type !== 'string' || !isEventType(image.type)) return undefined;
  if (typeof image.eventId !== 'string' || typeof image.tenantId !== 'string' || typeof image.galleryToken !== 'string')
    return undefined;
  return eventFromItem(image);
}
