import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { GALLERY_ITEM, galleryKeys } from '#lib/galleries/store/keys';
import {
  existingItemUpdate,
  queryGsi1,
  queryGsi1Page,
  queryPartition,
  updateExistingItem,
} from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { pooledRandomFraction, randomToken } from '#lib/platform/secret-values';
import {
  DEFAULT_PHOTO_ACCESS,
  FORM_FIELD_TYPES,
  GALLERY_COUNTER_NAMES,
  type GalleryScope,
  type PhotoAccess,
} from '#lib/galleries/rules/gallery-model';
import type {
  CardsPrinted,
  FormField,
  Gallery,
  GalleryConfiguration,
  GalleryCounters,
  GalleryPackage,
  ShootingDay,
} from '#lib/galleries/rules/gallery-model';
import { GALLERY_TOKEN_LENGTH } from '#lib/platform/identifiers';
import { type SpotCounter, bookedOnCounters, shardShares, spotShardCount } from '#lib/galleries/rules/spot-counters';
import {
  parseDaySpotShardItem,
  parseShootingDayItem,
  spotCountersOf,
  toDaySpotShardItem,
} from '#lib/galleries/store/day-bookings';
import { type StoredItem, keyOfItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import { deleteItems } from '#lib/platform/table/batches';
import { FACE_MATCHING_MODES, type FaceThresholds } from '#lib/galleries/rules/face-matching';
import type { PublicLimits } from '#lib/galleries/rules/public-limits';
import type { RetentionPolicy } from '#lib/galleries/rules/retention-policy';
import type { CheckinPolicy } from '#lib/galleries/rules/checkin-policy';
import type { Branding } from '#lib/tenants/rules/branding';
import type { Language } from '#lib/platform/languages';
import { transact, transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import { galleryPointerLimitsUpdate, galleryPointerPut } from '#lib/galleries/store/gallery-pointers';
import { isLanguage } from '#lib/platform/languages';

/** Gallery tokens: 16 characters of a 31-letter alphabet, about 79 random bits. */

/**
 * The gallery and everything configured on it (days, packages, form fields) in one Query
 * over its partition; undefined when the tenant has no gallery with this token.
 */
export async function getGalleryConfiguration(
  tenantId: string,
  token: string,
): Promise<GalleryConfiguration | undefined> {
  const items = await queryPartition(galleryKeys.galleryPartition(tenantId, token));
  const galleryItem = items.find((item) => item.sk === GALLERY_ITEM.gallery);
  if (!galleryItem) return undefined;
  const withPrefix = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix));
  const dayItems = withPrefix(GALLERY_ITEM.shootingDay);
  const shardsOf = (dayItem: StoredItem) =>
    dayItems.filter((item) => String(item.sk).startsWith(`${String(dayItem.sk)}${GALLERY_ITEM.daySpotShard}`));
  return {
    gallery: fromGalleryItem(galleryItem),
    shootingDays: dayItems
      .filter((item) => !String(item.sk).includes(GALLERY_ITEM.daySpotShard))
      .map((item) => fromShootingDayItem(item, shardsOf(item))),
    packages: withPrefix(GALLERY_ITEM.package).map(fromPackageItem),
    formFields: withPrefix(GALLERY_ITEM.formField).map(fromFormFieldItem),
    counters: fromCountersItem(items.find((item) => item.sk === GALLERY_ITEM.stats)),
  };
}

/** A gallery's settings when it is made; the ways into "My photos" by code are off unless given. */
export type NewGallery = Omit<Gallery, 'tenantId' | 'token' | 'createdAt' | 'photoAccess'> & {
  photoAccess?: PhotoAccess;
};

export async function createGallery(tenantId: string, settings: NewGallery): Promise<Gallery> {
  const gallery: Gallery = {
    ...settings,
    photoAccess: settings.photoAccess ?? DEFAULT_PHOTO_ACCESS,
    tenantId,
    token: randomToken(GALLERY_TOKEN_LENGTH),
    createdAt: nowIso(),
  };
  await transact([
    {
      Put: {
        TableName: tableName,
        Item: toGalleryItem(gallery),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    galleryPointerPut(gallery),
  ]);
  return gallery;
}

/** Settings to change; `termsUrl: null` takes the terms link away. */
export type GallerySettings = Partial<Omit<NewGallery, 'termsUrl'>> & { termsUrl?: string | null };

/**
 * Changes settings of an existing gallery; false when the tenant has no such gallery. Public
 * limits change on the gallery and its pointer in one transaction.
 */
export function updateGallerySettings(tenantId: string, token: string, settings: GallerySettings): Promise<boolean> {
  if (settings.publicLimits === undefined) return updateExistingItem(galleryKeys.gallery(tenantId, token), settings);
  return transactIfConditionsHold([
    { Update: existingItemUpdate(galleryKeys.gallery(tenantId, token), settings) },
    galleryPointerLimitsUpdate(tenantId, token, settings.publicLimits),
  ]);
}

/**
 * Records that the camera cards of the gallery (`dayId` null) or of one of its days were
 * printed: the last printing replaces the one before. False when the gallery or day is gone.
 */
export function recordCardsPrinted(
  tenantId: string,
  token: string,
  dayId: string | null,
  printed: CardsPrinted,
): Promise<boolean> {
  return updateExistingItem(
    dayId === null ? galleryKeys.gallery(tenantId, token) : galleryKeys.shootingDay(tenantId, token, dayId),
    {
      cardsPrinted: printed,
    },
  );
}

/** The tenant's galleries, oldest first, through GSI1 (admin use). */
export async function listGalleries(tenantId: string): Promise<Gallery[]> {
  return (await queryGsi1(galleryKeys.galleriesOfTenant(tenantId))).map(fromGalleryItem);
}

/** Up to `limit` of a tenant's galleries after `startKey`, and the key to go on from (retention's planner). */
export async function listGalleriesPage(
  tenantId: string,
  startKey: Record<string, unknown> | undefined,
  limit: number,
): Promise<{ galleries: Gallery[]; nextKey?: Record<string, unknown> }> {
  const page = await queryGsi1Page(galleryKeys.galleriesOfTenant(tenantId), startKey, limit);
  return { galleries: page.items.map(fromGalleryItem), nextKey: page.nextKey };
}

/**
 * Adds a shooting day with its spot counters (lib/galleries/rules/spot-counters.ts), in one
 * transaction conditional on the gallery: the day's item (its own share 0) and its shards, each
 * with a share of the capacity.
 */
export async function addShootingDay(
  tenantId: string,
  token: string,
  day: Omit<ShootingDay, 'id' | 'booked' | 'spotCounters' | 'cardsPrinted'>,
): Promise<ShootingDay> {
  const id = `day_${ulid(undefined, pooledRandomFraction).toLowerCase()}`;
  const shares = shardShares(day.maxPersons, spotShardCount(day.maxPersons));
  const spotCounters: SpotCounter[] = [
    { id: 'day', share: 0, booked: 0 },
    ...shares.map((share, shard) => ({ id: shard, share, booked: 0 })),
  ];
  await transact([
    {
      ConditionCheck: {
        TableName: tableName,
        Key: galleryKeys.gallery(tenantId, token),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: toShootingDayItem({ tenantId, token }, { ...day, id }, shares.length),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...shares.map((share, shard) => ({
      Put: {
        TableName: tableName,
        Item: toDaySpotShardItem({ tenantId, token }, id, shard, share),
      },
    })),
  ]);
  return { ...day, id, booked: 0, spotCounters };
}

export async function addPackage(
  tenantId: string,
  token: string,
  pkg: Omit<GalleryPackage, 'id'>,
): Promise<GalleryPackage> {
  const created: GalleryPackage = { ...pkg, id: `pkg_${ulid(undefined, pooledRandomFraction).toLowerCase()}` };
  await putInGallery(galleryKeys.galleryPackage(tenantId, token, created.id), created);
  return created;
}

/** Creates or replaces a form field; `custom` asks for a new `custom-<uuid>` key. */
export async function putFormField(
  tenantId: string,
  token: string,
  field: Omit<FormField, 'key'> & { key: string },
): Promise<FormField> {
  const saved: FormField = { ...field, key: field.key === 'custom' ? `custom-${randomUUID()}` : field.key };
  await putInGallery(galleryKeys.formField(tenantId, token, saved.key), saved, { replace: true });
  return saved;
}

/** Items of a gallery's partition exist only next to their gallery item. */
async function putInGallery(
  key: { pk: string; sk: string },
  item: object,
  options: { replace?: boolean } = {},
): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...key, ...item },
      ConditionExpression: options.replace ? undefined : 'attribute_not_exists(pk)',
    }),
  );
}

const cardsPrintedSchema = v.object({ cards: v.number(), at: v.string() });
const flag = v.nullish(v.boolean());

/** A gallery item's attributes (its keys and GSI1 keys aside). Flags absent from old items read as false. */
const galleryItemSchema = v.object({
  tenantId: v.string(),
  token: v.string(),
  galleryName: v.string(),
  isGroupShoot: flag,
  selfieEnabled: flag,
  selfieRequired: flag,
  consentRequired: flag,
  consentText: v.nullish(v.string()),
  showShootingDaySelector: flag,
  granularConsents: v.nullish(v.object({ face: flag, notification: flag, hrExport: flag })),
  photoAccess: v.nullish(v.object({ codeAndEmail: flag, codeAndEmployeeId: flag })),
  publicLimits: v.nullish(storedObject<Partial<PublicLimits>>()),
  retention: v.nullish(storedObject<Partial<RetentionPolicy>>()),
  faceMatching: v.nullish(v.picklist(FACE_MATCHING_MODES)),
  faceThresholds: v.nullish(storedObject<Partial<FaceThresholds>>()),
  checkinPolicy: v.nullish(storedObject<CheckinPolicy>()),
  hrExport: v.nullish(v.object({ declaredIdsNameFiles: flag })),
  defaultLanguage: v.nullish(v.string()),
  consentTexts: v.nullish(storedObject<Partial<Record<Language, string>>>()),
  termsUrl: v.nullish(v.string()),
  branding: v.nullish(storedObject<Branding>()),
  cardsPrinted: v.nullish(cardsPrintedSchema),
  createdAt: v.string(),
});

/** The gallery's item: its keys, its listing under the tenant (GSI1) and its settings. */
function toGalleryItem(gallery: Gallery): StoredItem {
  return {
    ...galleryKeys.gallery(gallery.tenantId, gallery.token),
    [GSI1.partitionKey]: galleryKeys.galleriesOfTenant(gallery.tenantId),
    [GSI1.sortKey]: `${gallery.createdAt}#${gallery.token}`,
    ...gallery,
  };
}

/** The gallery an item holds; a CorruptItemError when it does not hold one. */
export function fromGalleryItem(stored: StoredItem): Gallery {
  const item = parseItem('gallery', galleryItemSchema, stored);
  return {
    tenantId: item.tenantId,
    token: item.token,
    galleryName: item.galleryName,
    isGroupShoot: item.isGroupShoot === true,
    selfieEnabled: item.selfieEnabled === true,
    selfieRequired: item.selfieRequired === true,
    consentRequired: item.consentRequired === true,
    consentText: item.consentText ?? undefined,
    showShootingDaySelector: item.showShootingDaySelector === true,
    granularConsents: {
      face: item.granularConsents?.face === true,
      notification: item.granularConsents?.notification === true,
      hrExport: item.granularConsents?.hrExport === true,
    },
    photoAccess: {
      codeAndEmail: item.photoAccess?.codeAndEmail === true,
      codeAndEmployeeId: item.photoAccess?.codeAndEmployeeId === true,
    },
    ...(item.publicLimits ? { publicLimits: item.publicLimits } : {}),
    ...(item.retention ? { retention: item.retention } : {}),
    ...(item.faceMatching ? { faceMatching: item.faceMatching } : {}),
    ...(item.faceThresholds ? { faceThresholds: item.faceThresholds } : {}),
    ...(item.checkinPolicy ? { checkinPolicy: item.checkinPolicy } : {}),
    ...(item.hrExport ? { hrExport: { declaredIdsNameFiles: item.hrExport.declaredIdsNameFiles === true } } : {}),
    ...(isLanguage(item.defaultLanguage) ? { defaultLanguage: item.defaultLanguage } : {}),
    ...(item.consentTexts ? { consentTexts: item.consentTexts } : {}),
    ...(typeof item.termsUrl === 'string' ? { termsUrl: item.termsUrl } : {}),
    ...(item.branding ? { branding: item.branding } : {}),
    ...(item.cardsPrinted ? { cardsPrinted: item.cardsPrinted } : {}),
    createdAt: item.createdAt,
  };
}

/** The statistics item: every counter a number, those never added to absent. */
const countersItemSchema = v.object(
  Object.fromEntries(GALLERY_COUNTER_NAMES.map((name) => [name, v.optional(v.number())])) as Record<
    keyof GalleryCounters,
    v.OptionalSchema<v.NumberSchema<undefined>, undefined>
  >,
);

/** The gallery's counters from its statistics item; all 0 before the first count. */
export function fromCountersItem(stored: StoredItem | undefined): GalleryCounters {
  const item = stored ? parseItem('gallery statistics', countersItemSchema, stored) : undefined;
  const counters = {} as GalleryCounters;
  for (const name of GALLERY_COUNTER_NAMES) counters[name] = item?.[name] ?? 0;
  return counters;
}

/** A shooting day's item: what it was made with, and its own counter (day-bookings.ts moves it). */
function toShootingDayItem(
  scope: GalleryScope,
  day: Omit<ShootingDay, 'booked' | 'spotCounters' | 'cardsPrinted'>,
  spotShards: number,
): StoredItem {
  return {
    ...galleryKeys.shootingDay(scope.tenantId, scope.token, day.id),
    ...day,
    booked: 0,
    spotShards,
    spotShare: 0,
  };
}

/** The day an item and its shards' items hold; a CorruptItemError when they do not hold one. */
export function fromShootingDayItem(stored: StoredItem, shardItems: readonly StoredItem[]): ShootingDay {
  const item = parseShootingDayItem(stored);
  const spotCounters = spotCountersOf(item, shardItems.map(parseDaySpotShardItem));
  return {
    id: item.id,
    date: item.date,
    label: item.label,
    startTime: item.startTime,
    endTime: item.endTime,
    maxPersons: item.maxPersons ?? undefined,
    booked: spotCounters ? bookedOnCounters(spotCounters) : (item.booked ?? 0),
    ...(spotCounters ? { spotCounters } : {}),
    ...(item.cardsPrinted ? { cardsPrinted: item.cardsPrinted } : {}),
  };
}

const packageItemSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  price: v.number(),
  currency: v.string(),
  position: v.optional(v.number()),
});

/** The package an item holds; a CorruptItemError when it does not hold one. */
export function fromPackageItem(stored: StoredItem): GalleryPackage {
  const item = parseItem('package', packageItemSchema, stored);
  return {
    id: item.id,
    name: item.name,
    description: item.description ?? '',
    price: item.price,
    currency: item.currency,
    position: item.position ?? 0,
  };
}

const formFieldItemSchema = v.object({
  key: v.string(),
  label: v.string(),
  type: v.picklist(FORM_FIELD_TYPES),
  required: flag,
  enabled: flag,
  position: v.optional(v.number()),
  options: v.optional(v.array(v.object({ value: v.string(), label: v.string() }))),
});

/** The form field an item holds; a CorruptItemError when it does not hold one. */
export function fromFormFieldItem(stored: StoredItem): FormField {
  const item = parseItem('form field', formFieldItemSchema, stored);
  return {
    key: item.key,
    label: item.label,
    type: item.type,
    required: item.required === true,
    enabled: item.enabled !== false,
    position: item.position ?? 0,
    options: item.options,
  };
}

/** The keys of every item of the gallery's configuration partition (gallery, days, packages, form fields, statistics). */
export async function galleryConfigurationKeys(scope: GalleryScope): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(galleryKeys.galleryPartition(scope.tenantId, scope.token));
  return items.map(keyOfItem);
}

/**
 * Deletes what galleryConfigurationKeys found and the gallery's pointer, so that its token opens
 * nothing any more (a gallery older than pointers may have none); what is gone already is skipped.
 */
export function deleteGalleryConfiguration(
  scope: GalleryScope,
  configurationKeys: readonly { pk: string; sk: string }[],
): Promise<void> {
  return deleteItems([...configurationKeys, galleryKeys.galleryPointer(scope.tenantId, scope.token)]);
}
