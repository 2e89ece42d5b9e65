import { photoKeys } from '../lib/photos/common/store/keys';
import { shootKeys } from '../lib/photos/sorting/store/keys';
import { personKeys } from '../lib/persons/store/keys';
import { tenantKeys } from '../lib/tenants/store/keys';
import { paymentKeys } from '../lib/payments/store/keys';
import { webhookKeys } from '../lib/webhooks/store/keys';
import { checkinKeys } from '../lib/checkin/store/keys';
import { outboxKeys } from '../lib/events/store/keys';
import { galleryKeys } from '../lib/galleries/store/keys';
import { hrExportKeys } from '../lib/hr-exports/store/keys';
import { idempotencyKeys } from '../lib/idempotency/store/keys';
import { rateLimitKeys } from '../lib/rate-limits/store/keys';
import { faceKeys } from '../lib/faces/store/keys';
import { PHOTO_NOTICE_ATTRIBUTES } from '../lib/persons/rules/photo-notice-state';

/**
 * The vocabulary of the functions' table grants (function-permissions.ts): partition-key
 * patterns of the table and of GSI1, and the DynamoDB actions that address items by key.
 * Each grant becomes an IAM statement conditioned on `dynamodb:LeadingKeys`, so a function
 * reaches only the partitions its grants name.
 */

/**
 * Actions that name the partition they touch, so `dynamodb:LeadingKeys` bounds them. A
 * transaction is authorised per item, by the item's own action (PutItem, UpdateItem, DeleteItem,
 * ConditionCheckItem). Never Scan: it names no partition, and a `ForAllValues` condition on a key
 * the request lacks is true (the statements also require the key to be present).
 */
export type ItemAction =
  'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'ConditionCheckItem';

export interface KeyAccess {
  /** The table (its `pk`), or an index: GSI1 (its `gsi1pk`) or GSI2 (its `gsi2pk`); Query only. */
  on: 'table' | 'gsi1' | 'gsi2';
  actions: ItemAction[];
  /** Partition-key patterns, as IAM's StringLike reads them: `*` any characters, `?` one. */
  partitions: string[];
  /** Only these attributes may be named (`dynamodb:Attributes`), key attributes included. */
  attributes?: string[];
}

export const ANY = '*';

/**
 * Partition-key patterns of the table, by what the partitions hold. Built with the key
 * functions of each feature (lib/<feature>/store/keys.ts), so that they follow any change
 * there. None of the generated parts of a key (tenant IDs, gallery tokens, person IDs, hashes,
 * codes) contains `#`, and each kind of gallery partition ends in a word of its own, so no
 * pattern reaches another kind.
 */
export const PARTITIONS = {
  /** `TENANT#<slug>`: the tenant profile and plan (tenant-admin items). */
  tenant: tenantKeys.tenantPartition(ANY),
  /** `TENANTID#<tenantId>`: a tenant's ID to its slug (how the photo-ready email finds the tenant of an event). */
  tenantIdPointer: tenantKeys.tenantIdPointer(ANY).pk,
  /** `APIKEY#<hash>` (tenant-admin items; requests write only the rate-limit counter they carry, `tat`). */
  apiKey: tenantKeys.apiKey(ANY).pk,
  /** `STRIPEACCOUNT#<acct>`: connected account to tenant (tenant-admin items). */
  stripeAccount: tenantKeys.stripeAccount(ANY).pk,
  /** `STRIPEEVENT#<id>`: Stripe events handled. */
  stripeEvent: paymentKeys.stripeEvent(ANY).pk,
  /** `RATELIMIT#PUBLIC#…`: public clients' counters. */
  publicRateLimit: rateLimitKeys.rateLimit(rateLimitKeys.publicRateLimitCounter(ANY, ANY, ANY, ANY)).pk,
  /** `RATELIMIT#SHARE#<tenantId>#checkins`: a tenant's share of the check-in route. */
  tenantShare: rateLimitKeys.rateLimit(rateLimitKeys.tenantShareCounter(ANY)).pk,
  /** `RATELIMIT#STRIPE#platform`: the Stripe platform account's limit of paid check-ins. */
  stripeCallLimit: rateLimitKeys.rateLimit(rateLimitKeys.stripePlatformCounter()).pk,
  /** `GALLERYTOKEN#<token>`: the pointers of the galleries with this token, one per tenant (their tenant and own public limits). */
  galleryPointers: galleryKeys.galleryPointersOfToken(ANY),
  /** Gallery, days, packages, form fields, statistics. */
  galleryConfig: galleryKeys.galleryPartition(ANY, ANY),
  persons: personKeys.personsOfGallery(ANY, ANY),
  accessCodes: personKeys.accessCode(ANY, ANY, ANY).pk,
  emailCheckins: checkinKeys.emailCheckins(ANY, ANY, ANY).pk,
  photos: photoKeys.photosOfPerson(ANY, ANY, ANY),
  orders: paymentKeys.ordersOfGallery(ANY, ANY),
  emailReservations: paymentKeys.liveReservationOfEmail(ANY, ANY, ANY).pk,
  /** `…#ORDERSOF#<identity>`: pointers from a participant (person ID, address hash, employee ID) to their orders. */
  orderPointers: paymentKeys.orderOfParticipant(ANY, ANY, ANY, '').pk,
  checkoutTokens: paymentKeys.checkoutToken(ANY).pk,
  idempotency: idempotencyKeys.idempotencyKey(ANY).pk,
  /** A gallery's shoot (`…#SHOOT`): its inbox photos, camera cards and whose each photo is. */
  shoot: shootKeys.shootOfGallery(ANY, ANY),
  /** A person's shoot index (`…#SHOOTOF#<personId>`): which shoot items name the person (keys only). */
  shootIndex: shootKeys.shootIndexOfPerson(ANY, ANY, ANY),
  /** A shoot photo's pointer (`…#SHOOTID#<photoId>`): the sort key of its shoot item. */
  shootPhotoPointers: shootKeys.shootPhotoPointer(ANY, ANY, ANY).pk,
  /** A gallery's event outbox (`…#EVENTS`): events name persons, so they are gallery data too. */
  events: outboxKeys.eventsOfGallery(ANY, ANY),
  /** A gallery's reference faces (`…#FACES`): consenting persons' face descriptors, biometric data. */
  referenceFaces: faceKeys.referenceFacesOfGallery(ANY, ANY),
  /** A gallery's HR export jobs (`…#HREXPORTS`). */
  hrExports: hrExportKeys.hrExportsOfGallery(ANY, ANY),
  /** `…#HREXPORTHOLDS#<personId>`: which ready exports hold one person (erasure reads them by person). */
  hrExportHoldings: hrExportKeys.hrExportHoldingsOfPerson(ANY, ANY, ANY),
  /** `…#HREXPORTNAMES#<buildId>`: the file names one build of an export gave, and those HR's IDs want. */
  hrExportFileNames: hrExportKeys.hrExportFileNamesOfBuild(ANY, ANY, ANY),
  /**
   * Every partition of every gallery: the kinds above from galleryConfig to emailReservations,
   * the shoot (its persons' index and photo pointers too), events, reference faces and HR exports. Webhook subscriptions and deliveries are the tenant's,
   * not a gallery's (no `#G#`).
   */
  galleryData: galleryKeys.galleryPartition(ANY, ANY).replace(/CONFIG$/, ANY),
  /** `T#<tenantId>#WEBHOOKS`: a tenant's webhook subscriptions, their signing secrets sealed. */
  webhookSubscriptions: webhookKeys.webhookSubscriptionsOfTenant(ANY),
  /** `T#<tenantId>#WEBHOOK#<subscriptionId>#DELIVERIES`: the delivery log of one subscription. */
  webhookDeliveries: webhookKeys.deliveriesOfSubscription(ANY, ANY),
  /** `T#<tenantId>#WEBHOOK_SLOTS`: the attempts of a tenant's webhook deliveries in flight (its fair share). */
  webhookAttemptSlots: webhookKeys.webhookAttemptSlotsOfTenant(ANY),
};

/** Partition-key patterns of GSI1. */
export const GSI1_PARTITIONS = {
  /** `TENANTS`: every tenant (a tenant-admin index partition). */
  tenantDirectory: tenantKeys.tenantDirectory(),
  /** `T#<tenantId>#APIKEYS` (a tenant-admin index partition). */
  apiKeysOfTenant: tenantKeys.apiKeysOfTenant(ANY),
  galleriesOfTenant: galleryKeys.galleriesOfTenant(ANY),
  personsByEmployeeId: personKeys.personsByEmployeeId(ANY, ANY, ANY),
  /** A gallery's guest list: imported persons' access-code items, by a hash of their email address. */
  importedPersonsByEmail: personKeys.importedPersonsByEmail(ANY, ANY, ANY),
  pendingOrders: paymentKeys.pendingOrders(),
  /** A gallery's completed Idempotency-Key records, by the gallery their request concerned. */
  idempotencyRecordsOfGallery: idempotencyKeys.idempotencyRecordsOfGallery(ANY, ANY),
};

/** Partition-key patterns of GSI2. */
export const GSI2_PARTITIONS = {
  /** A gallery's persons by a hash of their email address (sendPhotoLink). */
  personsByEmail: personKeys.personsByEmail(ANY, ANY, ANY),
};

/** What recordStripeReadiness may name on a tenant profile: its key and the cached readiness. */
export const STRIPE_READINESS_ATTRIBUTES = ['pk', 'sk', 'stripeReadiness'];

/**
 * What the photo-ready email sender may name when it updates a person: its key and the notice's
 * state, and the notification consent, which its claim names in its condition only (a withdrawal
 * between the sender's read and its claim stops the email).
 */
export const PHOTO_NOTICE_UPDATE_ATTRIBUTES = [
  'pk',
  'sk',
  ...PHOTO_NOTICE_ATTRIBUTES,
  'consents',
  'notificationConsent',
];

/**
 * A function's grants merged into the fewest statements: per place and attribute limit, each
 * action with the union of its partitions, and actions with the same partitions together.
 */
export function keyAccessStatements(accesses: readonly KeyAccess[]): KeyAccess[] {
  const partitionsByAction = new Map<
    string,
    { access: Omit<KeyAccess, 'actions' | 'partitions'>; action: ItemAction; partitions: Set<string> }
  >();
  for (const access of accesses) {
    for (const action of access.actions) {
      const id = JSON.stringify([access.on, access.attributes ?? null, action]);
      const entry = partitionsByAction.get(id) ?? {
        access: { on: access.on, attributes: access.attributes },
        action,
        partitions: new Set<string>(),
      };
      for (const partition of access.partitions) entry.partitions.add(partition);
      partitionsByAction.set(id, entry);
    }
  }
  const statements = new Map<string, KeyAccess>();
  for (const { access, action, partitions } of partitionsByAction.values()) {
    const sorted = [...partitions].sort();
    const id = JSON.stringify([access.on, access.attributes ?? null, sorted]);
    const statement = statements.get(id) ?? {
      on: access.on,
      actions: [],
      partitions: sorted,
      ...(access.attributes ? { attributes: access.attributes } : {}),
    };
    statement.actions.push(action);
    statements.set(id, statement);
  }
  return [...statements.values()].map((statement) => ({ ...statement, actions: [...statement.actions].sort() }));
}
