import type { MEDIA_FOLDERS } from '../lib/platform/media-keys';
import type { HandlerName } from '../lib/http/handlers';
import { findRoute } from '../lib/http/routes';
import {
  GSI1_PARTITIONS,
  GSI2_PARTITIONS,
  type KeyAccess,
  PARTITIONS,
  PHOTO_NOTICE_UPDATE_ATTRIBUTES,
  STRIPE_READINESS_ATTRIBUTES,
} from './table-access';

/**
 * What each function may touch, by its handler's name in the registry (lib/http/handlers.ts). The stack
 * grants exactly this (infra/service-function.ts); infra tests check that every function of the
 * route module is here and that its policy reaches nothing else. The table grants follow the
 * code path of each handler down to the stores it reaches (docs/deployment.md#table-access has the table).
 *
 * table: the partitions of the table and of GSI1 the function reads or writes, and how.
 * media: which folders of the media bucket, and how.
 * secrets: which secrets it reads at run time.
 */
export type SecretName =
  'stripeSecretKey' | 'stripeWebhookSecret' | 'photoSigningKey' | 'webhookSealingKey' | 'photoLinkKey';
export type MediaFolder = keyof typeof MEDIA_FOLDERS;

export interface MediaAccess {
  folders: MediaFolder[];
  /** Object actions on `<folder>/*`. */
  objects?: ('GetObject' | 'PutObject' | 'DeleteObject' | 'DeleteObjectVersion' | 'AbortMultipartUpload')[];
  /** ListBucket and ListBucketVersions, only with an `s3:prefix` inside these folders. */
  list?: boolean;
}

export interface FunctionPermissions {
  table: KeyAccess[];
  /** One grant, or several where folders differ in what may be done with them. */
  media?: MediaAccess | readonly MediaAccess[];
  secrets?: SecretName[];
  /** Photo URL signing configuration (distribution domain, key pair ID). */
  photoCdn?: boolean;
  memoryMb?: number;
  /** Default 29 s, within API Gateway's limit. */
  timeoutSeconds?: number;
}

// The access sets the functions are made of, each named for the code that needs it.

/** tenantResolution (lib/http): the tenant's profile and plan, one Query of its partition. */
const RESOLVE_TENANT: KeyAccess = { on: 'table', actions: ['Query'], partitions: [PARTITIONS.tenant] };

/**
 * Server-side routes (lib/http/api-key-auth.ts): the presented key by its hash, checked in the
 * conditional write that takes the request from the rate-limit counter on the key's own item
 * (UpdateItem), or read alone where the plan refuses or the key is known exhausted (GetItem).
 */
const API_KEY_CHECKS: KeyAccess[] = [
  { on: 'table', actions: ['GetItem', 'UpdateItem'], partitions: [PARTITIONS.apiKey] },
];

/** getGalleryConfiguration: the gallery, its days, packages, form fields and statistics. */
const READ_GALLERY_CONFIG: KeyAccess = { on: 'table', actions: ['Query'], partitions: [PARTITIONS.galleryConfig] };

/** What every public request does first: tenant, the gallery it names, the client's counter (publicRateLimit). */
const PUBLIC_REQUEST: KeyAccess[] = [
  RESOLVE_TENANT,
  READ_GALLERY_CONFIG,
  { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.publicRateLimit] },
];

/** What every server-side request does before its use case. */
const SERVER_REQUEST: KeyAccess[] = [RESOLVE_TENANT, ...API_KEY_CHECKS, READ_GALLERY_CONFIG];

/** Idempotency-Key on POST routes: claim, complete or release the record. */
const IDEMPOTENCY_RECORDS: KeyAccess = {
  on: 'table',
  actions: ['PutItem', 'UpdateItem', 'DeleteItem'],
  partitions: [PARTITIONS.idempotency],
};

/**
 * Storing persons (writePersonsWithCodes: person and code Puts) and counting them: days' `booked`
 * and the statistics item live in the configuration partition. Nothing here reads a person.
 * Each change that tenants hear of (a person created, a check-in, an order paid or ended) puts its
 * event into the gallery's outbox in the same transaction (lib/events/store/outbox.ts, eventPut).
 */
const STORE_PERSONS: KeyAccess[] = [
  { on: 'table', actions: ['PutItem'], partitions: [PARTITIONS.persons, PARTITIONS.accessCodes] },
  { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.galleryConfig] },
  { on: 'table', actions: ['PutItem'], partitions: [PARTITIONS.events] },
];

/**
 * The order transitions of lib/payments/store/order-transitions.ts that end or pay a reservation (webhook,
 * sweep): read the order, update it, remove a failed check-in's order, tokens and pointers, give the
 * email's hold back. Paying stores the person (STORE_PERSONS).
 */
const SETTLE_ORDERS: KeyAccess[] = [
  ...STORE_PERSONS,
  { on: 'table', actions: ['GetItem', 'UpdateItem'], partitions: [PARTITIONS.orders] },
  {
    on: 'table',
    actions: ['DeleteItem'],
    partitions: [PARTITIONS.orders, PARTITIONS.checkoutTokens, PARTITIONS.emailReservations, PARTITIONS.orderPointers],
  },
];

/**
 * A paid check-in, checkinStatus and retryCheckout (lib/payments/checkout.ts): reserve (order,
 * token hashes, the email's hold, the participant's pointers to the order), look an order up by
 * token, attach or replace its session, undo a failed reservation.
 */
const RESERVE_ORDERS: KeyAccess[] = [
  { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.orders, PARTITIONS.checkoutTokens] },
  {
    on: 'table',
    actions: ['PutItem', 'DeleteItem'],
    partitions: [PARTITIONS.orders, PARTITIONS.checkoutTokens, PARTITIONS.emailReservations, PARTITIONS.orderPointers],
  },
  { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.orders, PARTITIONS.galleryConfig] },
];

/**
 * recordStripeReadiness: caches a connected account's readiness on the tenant profile. The only
 * write to a tenant-admin item outside the admin CLI, so it may name no other attribute.
 */
const CACHE_STRIPE_READINESS: KeyAccess = {
  on: 'table',
  actions: ['UpdateItem'],
  partitions: [PARTITIONS.tenant],
  attributes: STRIPE_READINESS_ATTRIBUTES,
};

const PERMISSIONS_BY_HANDLER = {
  // A cold instance reads the gallery's pointers beside the tenant (lib/http/gallery-pointer-prefetch.ts); only the operator writes them.
  'checkin/get-checkin-info': {
    table: [...PUBLIC_REQUEST, { on: 'table', actions: ['Query'], partitions: [PARTITIONS.galleryPointers] }],
  },
  'checkin/post-group-shoot': {
    table: [
      ...PUBLIC_REQUEST,
      // The tenant's share of check-in attempts (lib/http/rate-limit.ts), and the Stripe platform
      // account's limit before a paid check-in or retry calls Stripe (lib/payments/stripe-call-limit.ts).
      { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.tenantShare, PARTITIONS.stripeCallLimit] },
      IDEMPOTENCY_RECORDS,
      ...STORE_PERSONS,
      // A free check-in counts the email's check-ins (insertCheckedInPerson).
      { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.emailCheckins] },
      // importedOnly galleries (lib/checkin/guest-list-check.ts): the guest list by email (the invited person is
      // read by its ID), then claiming and completing the imported person, its code item moved to its address on the guest list.
      { on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.importedPersonsByEmail] },
      { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.persons, PARTITIONS.accessCodes] },
      ...RESERVE_ORDERS,
      CACHE_STRIPE_READINESS,
      // myPhotos (lib/photos/access/participant-photos.ts): the code's person, then the person's photos;
      // photosByLink the link's person; sendPhotoLink the persons with the address (GSI2, by a hash of it).
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.accessCodes, PARTITIONS.persons] },
      { on: 'table', actions: ['Query'], partitions: [PARTITIONS.photos] },
      { on: 'gsi2', actions: ['Query'], partitions: [GSI2_PARTITIONS.personsByEmail] },
      // pickPhoto (lib/photos/access/store/photo-picks.ts): the picked photo must be the person's (a ConditionCheck); the
      // person's pick is an UpdateItem on persons, its photo.picked event a PutItem (STORE_PERSONS).
      { on: 'table', actions: ['ConditionCheckItem'], partitions: [PARTITIONS.photos] },
      // withdrawFaceConsent (lib/privacy/face-consent.ts), the participant's own withdrawal: whether the person has a
      // reference face, then the consent (UpdateItem on persons, above) and the face's deletion in one transaction; then
      // the person out of the face candidates of the gallery's shoot photos (forgetFaceCandidates: the photos their
      // shoot index names read, each updated on condition with its index entry deleted, read again when a placement
      // changed it meanwhile).
      { on: 'table', actions: ['GetItem', 'DeleteItem'], partitions: [PARTITIONS.referenceFaces] },
      { on: 'table', actions: ['Query', 'GetItem', 'UpdateItem'], partitions: [PARTITIONS.shoot] },
      { on: 'table', actions: ['Query', 'DeleteItem'], partitions: [PARTITIONS.shootIndex] },
      // manageConsents (lib/privacy/participant-consents.ts): a consent and the time of its change (UpdateItem on persons,
      // above) with its person.consent_changed event (PutItem on events, STORE_PERSONS); the person read again after.
    ],
    media: { folders: ['selfies'], objects: ['PutObject', 'DeleteObject'] },
    secrets: ['stripeSecretKey', 'photoSigningKey', 'photoLinkKey'],
    photoCdn: true,
    memoryMb: 1024,
  },
  'galleries/list-form-fields': { table: SERVER_REQUEST },
  'galleries/list-shooting-days': { table: SERVER_REQUEST },
  'galleries/get-gallery-stats': { table: SERVER_REQUEST },
  'persons/list-persons': {
    table: [
      ...SERVER_REQUEST,
      { on: 'table', actions: ['Query'], partitions: [PARTITIONS.persons] },
      { on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.personsByEmployeeId] },
    ],
  },
  'photos/access/list-person-photos': {
    table: [
      ...SERVER_REQUEST,
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.persons] },
      { on: 'table', actions: ['Query'], partitions: [PARTITIONS.photos] },
    ],
    secrets: ['photoSigningKey'],
    photoCdn: true,
  },
  // Uploads into a gallery's inbox (lib/photos/uploads/inbox-uploads.ts): listing it, presigning PUTs and parts
  // (a presigned URL acts with these credentials: PutObject covers PutObject and UploadPart), and the
  // multipart calls themselves (PutObject covers create and complete). Nothing reads a photo.
  'photos/uploads/list-inbox-files': { table: SERVER_REQUEST, media: { folders: ['photos'], list: true } },
  'photos/uploads/create-uploads': {
    table: [...SERVER_REQUEST, IDEMPOTENCY_RECORDS],
    media: { folders: ['photos'], objects: ['PutObject'] },
  },
  'photos/uploads/complete-uploads': {
    table: [...SERVER_REQUEST, IDEMPOTENCY_RECORDS],
    media: { folders: ['photos'], objects: ['PutObject', 'AbortMultipartUpload'] },
  },
  // HR exports (lib/hr-exports/): the create puts the export's record (its message goes to the queue,
  // granted by infra/hr-export-queue.ts); the read gets it and presigns the ZIP's download, which
  // acts with the reader's credentials (GetObject).
  'hr-exports/create-hr-export': {
    table: [
      ...SERVER_REQUEST,
      IDEMPOTENCY_RECORDS,
      { on: 'table', actions: ['PutItem'], partitions: [PARTITIONS.hrExports] },
    ],
  },
  'hr-exports/get-hr-export': {
    table: [...SERVER_REQUEST, { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.hrExports] }],
    media: { folders: ['hrExports'], objects: ['GetObject'] },
  },
  'persons/import-persons': { table: [...SERVER_REQUEST, IDEMPOTENCY_RECORDS, ...STORE_PERSONS], memoryMb: 1024 },
  'payments/stripe-webhook': {
    table: [
      { on: 'table', actions: ['GetItem', 'PutItem'], partitions: [PARTITIONS.stripeEvent] },
      // account.updated: the connected account's tenant, then its readiness.
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.stripeAccount] },
      RESOLVE_TENANT,
      CACHE_STRIPE_READINESS,
      ...SETTLE_ORDERS,
    ],
    secrets: ['stripeWebhookSecret'],
  },
  // An email's one-click unsubscribe (lib/privacy/unsubscribe.ts): the link's person, gallery and tenant (its
  // name, from its ID pointer and profile) for the page; the consent and the time of its change on the person,
  // with its person.consent_changed event, in one transaction. The link is checked with the photo link key.
  'privacy/unsubscribe': {
    table: [
      READ_GALLERY_CONFIG,
      { on: 'table', actions: ['GetItem', 'PutItem'], partitions: [PARTITIONS.tenantIdPointer] },
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.tenant] },
      { on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.tenantDirectory] },
      { on: 'table', actions: ['GetItem', 'UpdateItem'], partitions: [PARTITIONS.persons] },
      { on: 'table', actions: ['PutItem'], partitions: [PARTITIONS.events] },
    ],
    secrets: ['photoLinkKey'],
    memoryMb: 256,
  },
  'http/route-not-matched': { table: [] },
  'http/cors-preflight': { table: [] },
  'photos/sorting/ingest-photo': {
    table: [
      // recordPhoto: the photo, the person's photoCount and the statistics in one transaction; getPerson (strongly consistent) on a retry.
      // A sorted shoot photo moving from one person to another also deletes the first one's photo item.
      { on: 'table', actions: ['PutItem', 'DeleteItem'], partitions: [PARTITIONS.photos] },
      { on: 'table', actions: ['GetItem', 'UpdateItem'], partitions: [PARTITIONS.persons] },
      // The gallery must exist before its inbox is sorted; the statistics count photos, cards and unassigned photos.
      { on: 'table', actions: ['Query', 'UpdateItem'], partitions: [PARTITIONS.galleryConfig] },
      // Sorting an inbox photo: a card's code is looked up, and the shoot's cards and photos are stored and read;
      // a placement checks that its governing card is not erased (a ConditionCheck), and the shoot item of a
      // photo of an erased person is deleted as the photo arrives.
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.accessCodes] },
      {
        on: 'table',
        actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
        partitions: [PARTITIONS.shoot],
      },
      // Each write of a shoot item puts and deletes its persons' index entries and its photo ID's pointer with it.
      {
        on: 'table',
        actions: ['PutItem', 'DeleteItem'],
        partitions: [PARTITIONS.shootIndex, PARTITIONS.shootPhotoPointers],
      },
      // photosAssignedUpdate, photosWithheldUpdate: the person's photos.assigned or the gallery's photos.withheld event of the window, created or counted up.
      { on: 'table', actions: ['UpdateItem'], partitions: [PARTITIONS.events] },
      // The second opinion from faces: the gallery's reference faces, all of them or one person's; an
      // unconfirmed face is confirmed, contradicted or rejected by the person's card photos (conditional updates),
      // and a placement reads the faces of the candidates it wrote again.
      { on: 'table', actions: ['GetItem', 'Query', 'UpdateItem'], partitions: [PARTITIONS.referenceFaces] },
    ],
    // An upload under the folder of a person who does not exist, and a photo of an erased person, are deleted as
    // they arrive, their versions too: the bucket is versioned, and a delete marker alone would keep them 30 days.
    // Photos an erased card governs are found by listing their versions (lib/platform/media-bucket.ts deleteObjectForGood).
    // Its thumbnail for the studio console is stored as it is sorted, and deleted with an erased person's photo.
    media: [
      { folders: ['photos'], objects: ['GetObject', 'DeleteObject', 'DeleteObjectVersion'], list: true },
      { folders: ['thumbnails'], objects: ['PutObject', 'DeleteObject', 'DeleteObjectVersion'], list: true },
    ],
    // Reading a shoot photo (lib/photos/sorting/adapters/shoot-photo-reader.ts, docs/benchmarks.md#7-photo-ingest-reading-shoot-photos): a 24 MP
    // camera JPEG peaked at 262 MB and took 187 ms of CPU on x64, the worst measured (61 MP progressive
    // 4:4:4) 511 MB and 2.7 s. The face model, loaded only for galleries with face matching on, adds
    // about 480 MB that TensorFlow.js's WebAssembly heap keeps for the instance's life: with the worst
    // photo and Node's own heap that is past 1024 MB. 2048 MB also gives about 1.16 vCPU (1024 MB: 0.58),
    // so a 24 MP photo takes about 0.2 s, the worst 3 s, at about the same cost per photo.
    memoryMb: 2048,
    timeoutSeconds: 30,
  },
  'payments/sweep-reservations': {
    table: [{ on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.pendingOrders] }, ...SETTLE_ORDERS],
    secrets: ['stripeSecretKey'],
  },
  'privacy/plan-retention': {
    // The tenant directory and each tenant's galleries, a page at a time: one queue message per gallery.
    table: [
      {
        on: 'gsi1',
        actions: ['Query'],
        partitions: [GSI1_PARTITIONS.tenantDirectory, GSI1_PARTITIONS.galleriesOfTenant],
      },
      { on: 'table', actions: ['GetItem', 'Query'], partitions: [PARTITIONS.tenant] },
    ],
    memoryMb: 256,
    // It stops a minute before this and queues its continuation (functions/privacy/plan-retention.ts).
    timeoutSeconds: 5 * 60,
  },
  'privacy/apply-gallery-retention': {
    table: [
      // A gallery's Idempotency-Key records lead to the answers that hold its participants' data.
      { on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.idempotencyRecordsOfGallery] },
      // galleryData covers every gallery partition, the event outbox and reference faces included
      // (erasure queries and deletes a gallery's events and its persons' reference faces); an erased
      // person's access code is put back linked to nobody (PutItem), so it is never given out again.
      {
        on: 'table',
        actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
        partitions: [PARTITIONS.galleryData, PARTITIONS.idempotency, PARTITIONS.checkoutTokens],
      },
    ],
    media: {
      folders: ['selfies', 'photos', 'hrExports', 'portraitCrops', 'thumbnails'],
      objects: ['DeleteObject', 'DeleteObjectVersion'],
      list: true,
    },
    // One gallery per invocation, however large (infra/retention-fan-out.ts).
    timeoutSeconds: 15 * 60,
  },
  'webhooks/dispatch-events': {
    table: [
      // For each new event, the tenant's subscriptions; a delivery record per subscription that wants it,
      // read and updated again when the record of a replay comes back through the stream.
      { on: 'table', actions: ['Query'], partitions: [PARTITIONS.webhookSubscriptions] },
      { on: 'table', actions: ['PutItem', 'GetItem', 'UpdateItem'], partitions: [PARTITIONS.webhookDeliveries] },
    ],
    memoryMb: 256,
    timeoutSeconds: 60,
  },
  'photos/notices/send-photo-notices': {
    table: [
      // The event's gallery (does it ask for the notification consent?), the tenant's slug from its ID
      // pointer and its name from its profile (GetItems), the person (consent, email, photos), and the
      // notice's claim on the person. A tenant created before the pointers is found once in the
      // directory, which writes its pointer (lib/tenants/store/tenant-directory.ts).
      READ_GALLERY_CONFIG,
      { on: 'table', actions: ['GetItem', 'PutItem'], partitions: [PARTITIONS.tenantIdPointer] },
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.tenant] },
      { on: 'gsi1', actions: ['Query'], partitions: [GSI1_PARTITIONS.tenantDirectory] },
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.persons] },
      {
        on: 'table',
        actions: ['UpdateItem'],
        partitions: [PARTITIONS.persons],
        attributes: PHOTO_NOTICE_UPDATE_ATTRIBUTES,
      },
    ],
    // The email's photo link is signed with it.
    secrets: ['photoLinkKey'],
    memoryMb: 256,
    // One record at a time, each a few table calls and one SES call (at most 3 attempts of 5 s).
    timeoutSeconds: 60,
  },
  'webhooks/deliver-webhooks': {
    table: [
      // The subscription (its URL and sealed secrets; marked failing, healthy or disabled), the event, the delivery's record.
      {
        on: 'table',
        actions: ['GetItem', 'UpdateItem'],
        partitions: [PARTITIONS.webhookSubscriptions, PARTITIONS.webhookDeliveries],
      },
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.events] },
      // The tenant's attempt slots: read, one taken before an attempt and given back after it.
      { on: 'table', actions: ['Query', 'PutItem', 'DeleteItem'], partitions: [PARTITIONS.webhookAttemptSlots] },
    ],
    secrets: ['webhookSealingKey'],
    memoryMb: 256,
    // A batch of 10 deliveries runs at once, each at most 10 s (DELIVERY_TIMEOUT_MS).
    timeoutSeconds: 30,
  },
  'hr-exports/build-hr-export': {
    table: [
      // The export claimed, read, then marked ready with its hr_export.ready event (one transaction) or failed.
      { on: 'table', actions: ['GetItem', 'UpdateItem'], partitions: [PARTITIONS.hrExports] },
      { on: 'table', actions: ['PutItem'], partitions: [PARTITIONS.events] },
      // The gallery still there, its persons a page at a time, each consenting person's photos.
      READ_GALLERY_CONFIG,
      { on: 'table', actions: ['Query'], partitions: [PARTITIONS.persons, PARTITIONS.photos] },
      // Which exports hold whom, a page of persons at a time (BatchWriteItem of Puts).
      { on: 'table', actions: ['BatchWriteItem'], partitions: [PARTITIONS.hrExportHoldings] },
      // The file names given, each claimed with a conditional Put; HR's IDs' names put in batches, then read.
      {
        on: 'table',
        actions: ['PutItem', 'BatchWriteItem', 'GetItem'],
        partitions: [PARTITIONS.hrExportFileNames],
      },
    ],
    // Photos only read; crops listed a page of persons at a time, read from and put into the cache; the ZIP written in parts (PutObject covers
    // the multipart calls), aborted on failure, and deleted for good when erasure came first (its versions listed).
    media: [
      { folders: ['photos'], objects: ['GetObject'] },
      { folders: ['portraitCrops'], objects: ['GetObject', 'PutObject'], list: true },
      {
        folders: ['hrExports'],
        objects: ['PutObject', 'AbortMultipartUpload', 'DeleteObject', 'DeleteObjectVersion'],
        list: true,
      },
    ],
    // Cropping runs libvips at 1769 MB, one full vCPU; the ZIP streams, so memory does not grow with the persons.
    memoryMb: 1769,
    timeoutSeconds: 15 * 60,
  },
  'faces/describe-reference-faces': {
    table: [
      // The gallery (is face matching on, does it ask for face consent?) and the person (consent, selfie).
      READ_GALLERY_CONFIG,
      { on: 'table', actions: ['GetItem'], partitions: [PARTITIONS.persons] },
      // putReferenceFace: the face is put on condition that the person still exists, consents and has the
      // selfie, and that the gallery still matches faces.
      { on: 'table', actions: ['ConditionCheckItem'], partitions: [PARTITIONS.persons, PARTITIONS.galleryConfig] },
      // What the person has already (a face, or the mark of a selfie rejected as not theirs) is read first and
      // never put over.
      { on: 'table', actions: ['GetItem', 'PutItem'], partitions: [PARTITIONS.referenceFaces] },
    ],
    media: { folders: ['selfies'], objects: ['GetObject'] },
    // The face model peaks at about 480 MB (TensorFlow.js's WebAssembly heap never shrinks) besides
    // the selfie and the SDK; 1024 MB leaves room and gives about 0.58 vCPU.
    memoryMb: 1024,
    // A batch (infra/reference-faces.ts) takes a few seconds to load the model on a cold start, then
    // about a quarter of a second a selfie.
    timeoutSeconds: 60,
  },
} satisfies Record<HandlerName, FunctionPermissions>;

/**
 * What each function may touch, keyed by its handler (lib/http/handlers.ts). Every handler has an
 * entry and nothing else does (checked at compile time above).
 */
export const FUNCTION_PERMISSIONS: Readonly<Record<string, FunctionPermissions>> = PERMISSIONS_BY_HANDLER;

/** The schedule of the reservation sweep (RESERVATION_SWEEP_HANDLER), which settles reservations nothing else will end (docs/payments.md). */
export const RESERVATION_SWEEP_MINUTES = 5;

/**
 * The retention run (infra/retention-fan-out.ts): a schedule starts the planner once a day, which
 * queues one message per gallery; the worker applies each gallery's retention, one per message.
 * 03:15 UTC every day; one planner at a time (reserved concurrency 1), never retried: the next day's run picks up what is left.
 */
export const RETENTION_SCHEDULE = { minute: '15', hour: '3' } as const;

/** The public check-in function, which emails photo links (sendPhotoLink, lookups past their budgets). */
export const PHOTO_LINK_HANDLER = findRoute('submitCheckin').handler;

/** The endpoint that queues HR exports. */
export const HR_EXPORT_CREATE_HANDLER = findRoute('createHrExport').handler;
