import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { GALLERY_ITEM, keys } from '#lib/platform/table/keys';
import {
  existingItemUpdate,
  queryGsi1,
  queryGsi1Page,
  queryPartition,
  updateExistingItem,
} from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { pooledRandomFraction, randomToken } from '#lib/platform/secret-values';
import { DEFAULT_PHOTO_ACCESS, GALLERY_COUNTER_NAMES, type PhotoAccess } from '#lib/galleries/rules/gallery-model';
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
import { spotCountersOf } from '#lib/galleries/store/day-bookings';
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
  const items = await queryPartition(keys.galleryPartition(tenantId, token));
  const galleryItem = items.find((item) => item.sk === GALLERY_ITEM.gallery);
  if (!galleryItem) return undefined;
  const withPrefix = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix));
  const dayItems = withPrefix(GALLERY_ITEM.shootingDay);
  const shardsOf = (dayItem: Record<string, any>) =>
    dayItems.filter((item) => String(item.sk).startsWith(`${dayItem.sk}${GALLERY_ITEM.daySpotShard}`));
  return {
    gallery: toGallery(galleryItem),
    shootingDays: dayItems
      .filter((item) => !String(item.sk).includes(GALLERY_ITEM.daySpotShard))
      .map((item) => toShootingDay(item, shardsOf(item))),
    packages: withPrefix(GALLERY_ITEM.package).map(toPackage),
    formFields: withPrefix(GALLERY_ITEM.formField).map(toFormField),
    counters: toCounters(items.find((item) => item.sk === GALLERY_ITEM.stats)),
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
        Item: {
          ...keys.gallery(tenantId, gallery.token),
          [GSI1.partitionKey]: keys.galleriesOfTenant(tenantId),
          [GSI1.sortKey]: `${gallery.createdAt}#${gallery.token}`,
          ...gallery,
        },
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
  if (settings.publicLimits === undefined) return updateExistingItem(keys.gallery(tenantId, token), settings);
  return transactIfConditionsHold([
    { Update: existingItemUpdate(keys.gallery(tenantId, token), settings) },
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
  return updateExistingItem(dayId === null ? keys.gallery(tenantId, token) : keys.shootingDay(tenantId, token, dayId), {
    cardsPrinted: printed,
  });
}

/** The tenant's galleries, oldest first, through GSI1 (admin use). */
export async function listGalleries(tenantId: string): Promise<Gallery[]> {
  return (await queryGsi1(keys.galleriesOfTenant(tenantId))).map(toGallery);
}

/** Up to `limit` of a tenant's galleries after `startKey`, and the key to go on from (retention's planner). */
export async function listGalleriesPage(
  tenantId: string,
  startKey: Record<string, unknown> | undefined,
  limit: number,
): Promise<{ galleries: Gallery[]; nextKey?: Record<string, unknown> }> {
  const page = await queryGsi1Page(keys.galleriesOfTenant(tenantId), startKey, limit);
  return { galleries: page.items.map(toGallery), nextKey: page.nextKey };
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
        Key: keys.gallery(tenantId, token),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.shootingDay(tenantId, token, id),
          ...day,
          id,
          booked: 0,
          spotShards: shares.length,
          spotShare: 0,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...shares.map((share, shard) => ({
      Put: {
        TableName: tableName,
        Item: {
          ...keys.daySpotShard(tenantId, token, id, shard),
          dayId: id,
          shard,
          booked: 0,
          ...(share === undefined ? {} : { spotShare: share }),
        },
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
  await putInGallery(keys.galleryPackage(tenantId, token, created.id), created);
  return created;
}

/** Creates or replaces a form field; `custom` asks for a new `custom-<uuid>` key. */
export async function putFormField(
  tenantId: string,
  token: string,
  field: Omit<FormField, 'key'> & { key: string | 'custom' },
): Promise<FormField> {
  const saved: FormField = { ...field, key: field.key === 'custom' ? `custom-${randomUUID()}` : field.key };
  await putInGallery(keys.formField(tenantId, token, saved.key), saved, { replace: true });
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

function toGallery(item: Record<string, any>): Gallery {
  return {
    tenantId: item.tenantId,
    token: item.token,
    galleryName: item.galleryName,
    isGroupShoot: item.isGroupShoot === true,
    selfieEnabled: item.selfieEnabled === true,
    selfieRequired: item.selfieRequired === true,
    consentRequired: item.consentRequired === true,
    consentText: item.consentText,
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
    ...(isLanguage(item.defaultLanguage) ? { defaultLanguage: item.defaultLanguage } : {}),
    ...(item.consentTexts ? { consentTexts: item.consentTexts } : {}),
    ...(typeof item.termsUrl === 'string' ? { termsUrl: item.termsUrl } : {}),
    ...(item.branding ? { branding: item.branding } : {}),
    ...(item.cardsPrinted ? { cardsPrinted: item.cardsPrinted } : {}),
    createdAt: item.createdAt,
  };
}

function toCounters(item: Record<string, any> | undefined): GalleryCounters {
  const counters = {} as GalleryCounters;
  for (const name of GALLERY_COUNTER_NAMES) counters[name] = typeof item?.[name] === 'number' ? item[name] : 0;
  return counters;
}

function toShootingDay(item: Record<string, any>, shardItems: readonly Record<string, any>[]): ShootingDay {
  const spotCounters = spotCountersOf(item, shardItems);
  return {
    id: item.id,
    date: item.date,
    label: item.label,
    startTime: item.startTime,
    endTime: item.endTime,
    maxPersons: typeof item.maxPersons === 'number' ? item.maxPersons : undefined,
    booked: spotCounters ? bookedOnCounters(spotCounters) : typeof item.booked === 'number' ? item.booked : 0,
    ...(spotCounters ? { spotCounters } : {}),
    ...(item.cardsPrinted ? { cardsPrinted: item.cardsPrinted } : {}),
  };
}

function toPackage(item: Record<string, any>): GalleryPackage {
  return {
    id: item.id,
    name: item.name,
    description: item.description ?? '',
    price: item.price,
    currency: item.currency,
    position: item.position ?? 0,
  };
}

function toFormField(item: Record<string, any>): FormField {
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
