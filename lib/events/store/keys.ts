/**
 * The outbox: events of a gallery waiting for or done with dispatch.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** The sort-key prefix of event items (a stream record's kind). */
export const EVENT_ITEM_PREFIX = 'EVENT#';

export const outboxKeys = {
  /** Events of a gallery waiting for or done with dispatch (the outbox): written in the transaction of the change they report. */
  eventsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#EVENTS`,
  event: (tenantId: string, token: string, eventId: string) => ({
    pk: `T#${tenantId}#G#${token}#EVENTS`,
    sk: `${EVENT_ITEM_PREFIX}${eventId}`,
  }),
  /**
   * GSI1 partition of the events about one person (their `personId`), sorted by event item key:
   * erasure of that person deletes them without reading the gallery's outbox.
   */
  eventsOfPerson: (tenantId: string, token: string, personId: string) =>
    `T#${tenantId}#G#${token}#EVENTSOF#${personId}`,
} as const;
