import { keys } from '../lib/platform/table/keys';
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
  /** The table (its `pk`), or GSI1 (its `gsi1pk`; Query only). */
  on: 'table' | 'gsi1';
  actions: ItemAction[];
  /** Partition-key patterns, as IAM's StringLike reads them: `*` any characters, `?` one. */
  partitions: string[];
  /** Only these attributes may be named (`dynamodb:Attributes`), key attributes included. */
  attributes?: string[];
}

export const ANY = '*';

/**
 * Partition-key patterns of the table, by what the partitions hold. Built with the key
 * functions of lib/platform/table/keys.ts, so that they follow any change there. None of the generated
 * parts of a key (tenant IDs, gallery tokens, person IDs, hashes, codes) contains `#`, and each
 * kind of gallery partition ends in a word of its own, so no pattern reaches another kind.
 */
export const PARTITIONS = {
  /** `TENANT#<slug>`: the tenant profile and plan (tenant-admin items). */
  tenant: keys.tenantPartition(ANY),
  /** `APIKEY#<hash>` (tenant-admin items; requests write only the rate-limit counter they carry, `tat`). */
  apiKey: keys.apiKey(ANY).pk,
  /** `STRIPEACCOUNT#<acct>`: connected account to tenant (tenant-admin items). */
  stripeAccount: keys.stripeAccount(ANY).pk,
  /** `STRIPEEVENT#<id>`: Stripe events handled. */
  stripeEvent: keys.stripeEvent(ANY).pk,
  /** `RATELIMIT#PUBLIC#…`: public clients' counters. */
  publicRateLimit: keys.rateLimit(keys.publicRateLimitCounter(ANY, ANY, ANY, ANY)).pk,
  /** `GALLERYTOKEN#<token>`: the pointers of the galleries with this token, one per tenant (their tenant and own public limits). */
  galleryPointers: keys.galleryPointersOfToken(ANY),
  /** Gallery, days, packages, form fields, statistics. */
  galleryConfig: keys.galleryPartition(ANY, ANY),
  persons: keys.personsOfGallery(ANY, ANY),
  accessCodes: keys.accessCode(ANY, ANY, ANY).pk,
  emailCheckins: keys.emailCheckins(ANY, ANY, ANY).pk,
  photos: keys.photosOfPerson(ANY, ANY, ANY),
  orders: keys.ordersOfGallery(ANY, ANY),
  emailReservations: keys.liveReservationOfEmail(ANY, ANY, ANY).pk,
  checkoutTokens: keys.checkoutToken(ANY).pk,
  idempotency: keys.idempotencyKey(ANY).pk,
  /** A gallery's shoot (`…#SHOOT`): its inbox photos, camera cards and whose each photo is. */
  shoot: keys.shootOfGallery(ANY, ANY),
  /** A gallery's event outbox (`…#EVENTS`): events name persons, so they are gallery data too. */
  events: keys.eventsOfGallery(ANY, ANY),
  /** A gallery's reference faces (`…#FACES`): consenting persons' face descriptors, biometric data. */
  referenceFaces: keys.referenceFacesOfGallery(ANY, ANY),
  /** A gallery's HR export jobs (`…#HREXPORTS`): each lists the persons its ZIP holds. */
  hrExports: keys.hrExportsOfGallery(ANY, ANY),
  /**
   * Every partition of every gallery: the kinds above from galleryConfig to emailReservations,
   * the shoot, events, reference faces and HR exports. Webhook subscriptions and deliveries are the tenant's,
   * not a gallery's (no `#G#`).
   */
  galleryData: keys.galleryPartition(ANY, ANY).replace(/CONFIG$/, ANY),
  /** `T#<tenantId>#WEBHOOKS`: a tenant's webhook subscriptions, their signing secrets sealed. */
  webhookSubscriptions: keys.webhookSubscriptionsOfTenant(ANY),
  /** `T#<tenantId>#WEBHOOK#<subscriptionId>#DELIVERIES`: the delivery log of one subscription. */
  webhookDeliveries: keys.deliveriesOfSubscription(ANY, ANY),
  /** `T#<tenantId>#WEBHOOK_SLOTS`: the attempts of a tenant's webhook deliveries in flight (its fair share). */
  webhookAttemptSlots: keys.webhookAttemptSlotsOfTenant(ANY),
};

/** Partition-key patterns of GSI1. */
export const GSI1_PARTITIONS = {
  /** `TENANTS`: every tenant (a tenant-admin index partition). */
  tenantDirectory: keys.tenantDirectory(),
  /** `T#<tenantId>#APIKEYS` (a tenant-admin index partition). */
  apiKeysOfTenant: keys.apiKeysOfTenant(ANY),
  galleriesOfTenant: keys.galleriesOfTenant(ANY),
  personsByEmployeeId: keys.personsByEmployeeId(ANY, ANY, ANY),
  /** A gallery's guest list: imported persons' access-code items, by a hash of their email address. */
  importedPersonsByEmail: keys.importedPersonsByEmail(ANY, ANY, ANY),
  pendingOrders: keys.pendingOrders(),
  /** A gallery's completed Idempotency-Key records, by the gallery their request concerned. */
  idempotencyRecordsOfGallery: keys.idempotencyRecordsOfGallery(ANY, ANY),
};

/** What recordStripeReadiness may name on a tenant profile: its key and the cached readiness. */
export const STRIPE_READINESS_ATTRIBUTES = ['pk', 'sk', 'stripeReadiness'];

/** What the photo-ready email sender may name when it updates a person: its key and the notice's state. */
export const PHOTO_NOTICE_UPDATE_ATTRIBUTES = ['pk', 'sk', ...PHOTO_NOTICE_ATTRIBUTES];

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
