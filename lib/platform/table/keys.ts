/**
 * Every key prefix of the single table lives here. docs/data-model.md documents the
 * access pattern each key serves.
 */
/** Rate-limit counters' partition keys start so; the deployed functions' IAM policies rely on it. */
export const RATE_LIMIT_KEY_PREFIX = 'RATELIMIT#';
/** Idempotency-Key records' and checkout tokens' partition keys start so (tests and audits find them by it). */
export const IDEMPOTENCY_KEY_PREFIX = 'IDEMPOTENCY#';
export const CHECKOUT_TOKEN_KEY_PREFIX = 'CHECKOUTTOKEN#';
/** Gallery pointers' partition keys start so (keys.galleryPointer). */
export const GALLERY_POINTER_KEY_PREFIX = 'GALLERYTOKEN#';

/** What every partition key of one gallery starts with. */
export function galleryPartitionPrefix(tenantId: string, token: string): string {
  return `T#${tenantId}#G#${token}`;
}

export const keys = {
  tenant: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PROFILE' }),
  tenantPlan: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PLAN' }),
  tenantPartition: (slug: string) => `TENANT#${slug}`,
  tenantDirectory: () => 'TENANTS',

  stripeAccount: (accountId: string) => ({ pk: `STRIPEACCOUNT#${accountId}`, sk: 'TENANT' }),

  apiKey: (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: 'APIKEY' }),
  apiKeysOfTenant: (tenantId: string) => `T#${tenantId}#APIKEYS`,

  rateLimit: (keyId: string) => ({ pk: `${RATE_LIMIT_KEY_PREFIX}${keyId}`, sk: 'RATELIMIT' }),
  /** The counter ID of a public client's budget in one gallery (`-`: no gallery named, or none found). */
  publicRateLimitCounter: (tenantId: string, galleryToken: string | undefined, budget: string, client: string) =>
    `PUBLIC#${tenantId}#${galleryToken ?? '-'}#${budget}#${client}`,

  /**
   * Gallery configuration: the gallery item, its shooting days, packages, form fields and
   * statistics. `#CONFIG` ends the key so that no other partition of the gallery starts with it:
   * IAM policies tell each partition kind apart by its key (docs/deployment.md#table-access).
   */
  galleryPartition: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#CONFIG`,
  gallery: (tenantId: string, token: string) => ({ pk: `T#${tenantId}#G#${token}#CONFIG`, sk: 'GALLERY' }),
  galleriesOfTenant: (tenantId: string) => `T#${tenantId}#GALLERIES`,
  /**
   * A gallery's pointer: its tenant and its own public limits, found by the token alone, so that
   * a cold instance reads it beside the tenant (lib/http/gallery-pointer-prefetch.ts). One item per
   * tenant with the token: tokens are random, but nothing stops two tenants from sharing one.
   */
  galleryPointersOfToken: (token: string) => `${GALLERY_POINTER_KEY_PREFIX}${token}`,
  galleryPointer: (tenantId: string, token: string) => ({
    pk: `${GALLERY_POINTER_KEY_PREFIX}${token}`,
    sk: `T#${tenantId}`,
  }),
  shootingDay: (tenantId: string, token: string, dayId: string) => ({
    pk: `T#${tenantId}#G#${token}#CONFIG`,
    sk: `DAY#${dayId}`,
  }),
  /** One of a day's spot counters (lib/galleries/rules/spot-counters.ts): next to its day, so that one Query reads the day with them. */
  daySpotShard: (tenantId: string, token: string, dayId: string, shard: number) => ({
    pk: `T#${tenantId}#G#${token}#CONFIG`,
    sk: `DAY#${dayId}#SPOTS#${String(shard).padStart(2, '0')}`,
  }),
  galleryPackage: (tenantId: string, token: string, packageId: string) => ({
    pk: `T#${tenantId}#G#${token}#CONFIG`,
    sk: `PACKAGE#${packageId}`,
  }),
  formField: (tenantId: string, token: string, fieldKey: string) => ({
    pk: `T#${tenantId}#G#${token}#CONFIG`,
    sk: `FIELD#${fieldKey}`,
  }),
  galleryStats: (tenantId: string, token: string) => ({ pk: `T#${tenantId}#G#${token}#CONFIG`, sk: 'STATS' }),

  /** Persons of a gallery: one item collection, sorted by personId (a ULID, so by creation). */
  personsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#PERSONS`,
  person: (tenantId: string, token: string, personId: string) => ({
    pk: `T#${tenantId}#G#${token}#PERSONS`,
    sk: `PERSON#${personId}`,
  }),
  /** GSI1 partition of a gallery's persons with one employee ID (only persons that have one). */
  personsByEmployeeId: (tenantId: string, token: string, employeeId: string) =>
    `T#${tenantId}#G#${token}#EMP#${employeeId}`,
  /**
   * GSI1 partition of a gallery's imported persons with one email address, by a hash of the
   * address (the guest list of `importedOnly` check-ins): their access-code items carry it, so an
   * erased person's code item, overwritten, leaves the list with it.
   */
  importedPersonsByEmail: (tenantId: string, token: string, emailKey: string) =>
    `T#${tenantId}#G#${token}#GUEST#${emailKey}`,
  /** A person's photos: one item collection per person. */
  photosOfPerson: (tenantId: string, token: string, personId: string) => `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
  photo: (tenantId: string, token: string, personId: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
    sk: `PHOTO#${photoId}`,
  }),
  /**
   * A gallery's shoot: every photo uploaded to its inbox, as camera cards (`CARD#`) and photos
   * (`SHOT#`) in capture order per camera sequence, and photos without a place in one (`LOOSE#`).
   */
  shootOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#SHOOT`,
  shootCard: (tenantId: string, token: string, sequenceId: string, position: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `CARD#${sequenceId}#${position}`,
  }),
  shootPhoto: (tenantId: string, token: string, sequenceId: string, position: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `SHOT#${sequenceId}#${position}`,
  }),
  looseShootPhoto: (tenantId: string, token: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `LOOSE#${photoId}`,
  }),
  /**
   * Reference faces of a gallery: one item per consenting person with a face descriptor of their
   * selfie (lib/faces/), all in one collection, so the second opinion reads them in one query.
   */
  referenceFacesOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#FACES`,
  referenceFace: (tenantId: string, token: string, personId: string) => ({
    pk: `T#${tenantId}#G#${token}#FACES`,
    sk: `FACE#${personId}`,
  }),
  /** GSI1 partition of every order waiting for payment, of all tenants, by creation (the reservation sweep reads it). */
  pendingOrders: () => 'PENDINGORDERS',
  /** Payment reservations of a gallery: one item collection. */
  ordersOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#ORDERS`,
  order: (tenantId: string, token: string, orderId: string) => ({
    pk: `T#${tenantId}#G#${token}#ORDERS`,
    sk: `ORDER#${orderId}`,
  }),
  /** The one reservation an email address may have waiting for payment in a gallery, by a hash of the address. */
  liveReservationOfEmail: (tenantId: string, token: string, emailKey: string) => ({
    pk: `T#${tenantId}#G#${token}#EMAILRESERVATION#${emailKey}`,
    sk: 'RESERVATION',
  }),
  /** A status or retry token of a reservation, by the SHA-256 of its value. */
  checkoutToken: (tokenHash: string) => ({ pk: `${CHECKOUT_TOKEN_KEY_PREFIX}${tokenHash}`, sk: 'TOKEN' }),
  /** A request made with an Idempotency-Key, by an ID derived from tenant, caller, route and key (lib/idempotency/rules/idempotency-sealing.ts). */
  idempotencyKey: (scopeHash: string) => ({ pk: `${IDEMPOTENCY_KEY_PREFIX}${scopeHash}`, sk: 'IDEMPOTENCY' }),
  /** GSI1 partition of the completed Idempotency-Key records whose request named this gallery (erasure reads it). */
  idempotencyRecordsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#IDEMPOTENCY`,
  /** A Stripe event already handled (expires after Stripe's retry window). */
  stripeEvent: (eventId: string) => ({ pk: `STRIPEEVENT#${eventId}`, sk: 'EVENT' }),
  /** How often one email address checked in to a gallery for free, by a hash of the address: a partition of its own. */
  emailCheckins: (tenantId: string, token: string, emailKey: string) => ({
    pk: `T#${tenantId}#G#${token}#EMAIL#${emailKey}`,
    sk: 'CHECKINS',
  }),
  /** One item per access code in use: its own partition, so code writes never contend. */
  accessCode: (tenantId: string, token: string, code: string) => ({
    pk: `T#${tenantId}#G#${token}#CODE#${code}`,
    sk: 'CODE',
  }),
  /** Events of a gallery waiting for or done with dispatch (the outbox): written in the transaction of the change they report. */
  eventsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#EVENTS`,
  event: (tenantId: string, token: string, eventId: string) => ({
    pk: `T#${tenantId}#G#${token}#EVENTS`,
    sk: `EVENT#${eventId}`,
  }),
  /** A gallery's HR exports (lib/hr-exports/): one item per export job, expiring by TTL. */
  hrExportsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#HREXPORTS`,
  hrExport: (tenantId: string, token: string, exportId: string) => ({
    pk: `T#${tenantId}#G#${token}#HREXPORTS`,
    sk: `HREXPORT#${exportId}`,
  }),
  /** A tenant's webhook subscriptions: one item collection. */
  webhookSubscriptionsOfTenant: (tenantId: string) => `T#${tenantId}#WEBHOOKS`,
  webhookSubscription: (tenantId: string, subscriptionId: string) => ({
    pk: `T#${tenantId}#WEBHOOKS`,
    sk: `SUBSCRIPTION#${subscriptionId}`,
  }),
  /** The delivery log of one subscription: an item per event, newest last (event IDs are ULIDs). */
  deliveriesOfSubscription: (tenantId: string, subscriptionId: string) =>
    `T#${tenantId}#WEBHOOK#${subscriptionId}#DELIVERIES`,
  webhookDelivery: (tenantId: string, subscriptionId: string, eventId: string) => ({
    pk: `T#${tenantId}#WEBHOOK#${subscriptionId}#DELIVERIES`,
    sk: `DELIVERY#${eventId}`,
  }),
  /** A tenant's webhook attempt slots, one item per attempt in flight (lib/webhooks/store/attempt-slots.ts). */
  webhookAttemptSlotsOfTenant: (tenantId: string) => `T#${tenantId}#WEBHOOK_SLOTS`,
  webhookAttemptSlot: (tenantId: string, slot: number) => ({ pk: `T#${tenantId}#WEBHOOK_SLOTS`, sk: `SLOT#${slot}` }),
} as const;

/** The name of a key of the table, as each feature's public.ts lists those it owns. */
export type TableKeyName = keyof typeof keys;

/** Sort-key prefixes of items read by kind: a query's `begins_with`, or a stream record's kind. */
export const ITEM_PREFIX = {
  person: 'PERSON#',
  order: 'ORDER#',
  event: 'EVENT#',
  delivery: 'DELIVERY#',
  hrExport: 'HREXPORT#',
} as const;

/** The sort-key prefix of a camera sequence's cards in a shoot partition (keys.shootCard). */
export function shootCardsOfSequence(sequenceId: string): string {
  return `CARD#${sequenceId}#`;
}

/** The position in its sequence of a shoot card or photo, from its sort key (`CARD#<sequence>#<position>`). */
export function positionOfShootItem(sortKey: string): string {
  return sortKey.split('#').slice(2).join('#');
}

/** The gallery of a person item, from its partition key (keys.person); undefined for any other key. */
export function galleryOfPersonItem(pk: string): { tenantId: string; token: string } | undefined {
  const match = /^T#([^#]+)#G#([^#]+)#PERSONS$/.exec(pk);
  return match ? { tenantId: match[1]!, token: match[2]! } : undefined;
}

/** Sort-key prefixes of the items in a gallery partition. */
export const GALLERY_ITEM = {
  gallery: 'GALLERY',
  shootingDay: 'DAY#',
  /** Inside a day's sort key: its spot counters (`DAY#<dayId>#SPOTS#<nn>`). */
  daySpotShard: '#SPOTS#',
  package: 'PACKAGE#',
  formField: 'FIELD#',
  stats: 'STATS',
} as const;
