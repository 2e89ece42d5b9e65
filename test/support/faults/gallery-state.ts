/**
 * The state of a gallery as stored: its persons, access-code items, days, statistics counters,
 * reservations, checkout-token items, photos and selfie objects, read consistently, so that a
 * test can compare it before and after a request and check what must hold of it.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { CHECKOUT_TOKEN_KEY_PREFIX, GALLERY_ITEM, keys } from '../table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { testS3 } from '../media';
import { lab } from './fault-lab';
import type { Fixture } from './galleries';

export interface GalleryState {
  persons: Map<
    string,
    { name: string; code: string; day: string | null; hasSelfie: boolean; photoCount: number; source: string }
  >;
  /** Access-code items: partition key → the person it names (null: no such item). */
  codes: Map<string, string | null>;
  days: Map<string, number>;
  counters: Record<string, number>;
  orders: Map<
    string,
    {
      status: string;
      sessionId: string | null;
      day: string | null;
      hasSelfie: boolean;
      personId: string;
      code: string | null;
    }
  >;
  /** Checkout-token items written by requests: partition key → order (null: no such item). */
  tokens: Map<string, string | null>;
  photos: Map<string, number>;
  selfies: string[];
}

/** The gallery's statistics counters (its STATS item). */
export const COUNTERS = [
  'personsImported',
  'personsCheckedIn',
  'personsWithSelfie',
  'personsWithPhotos',
  'photos',
  'ordersPending',
  'ordersPaid',
  'ordersExpired',
  'ordersCanceled',
];

/** One item, read consistently. */
export async function getItem(key: { pk: string; sk: string }): Promise<Record<string, any> | undefined> {
  return (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
}

/** The gallery as stored. `photos: false` skips counting each person's photos (for large galleries). */
export async function readState(f: Fixture, options: { photos?: boolean } = {}): Promise<GalleryState> {
  const galleryPartition = keys.galleryPartition(f.tenantId, f.token);
  const [personItems, configItems, orderItems, selfieObjects] = await Promise.all([
    // Read as the tests see the table: any attribute, unchecked (the stores' fromItem checks them).
    queryPartition(keys.personsOfGallery(f.tenantId, f.token)) as Promise<Record<string, any>[]>,
    queryPartition(galleryPartition) as Promise<Record<string, any>[]>,
    queryPartition(keys.order(f.tenantId, f.token, 'x').pk) as Promise<Record<string, any>[]>,
    testS3.send(
      new ListObjectsV2Command({ Bucket: process.env.MEDIA_BUCKET, Prefix: `selfies/${f.tenantId}/${f.token}/` }),
    ),
  ]);
  const persons: GalleryState['persons'] = new Map(
    personItems.map((item) => [
      item.personId as string,
      {
        name: item.name,
        code: item.code,
        day: item.shootingDayId ?? null,
        hasSelfie: item.hasSelfie === true,
        photoCount: item.photoCount ?? 0,
        source: item.source,
      },
    ]),
  );
  const codeKeys = new Set([
    ...[...persons.values()].map((person) => keys.accessCode(f.tenantId, f.token, person.code).pk),
    ...[...lab.written].filter((pk) => pk.startsWith(keys.accessCode(f.tenantId, f.token, '').pk)),
  ]);
  const tokenKeys = [...lab.written].filter((pk) => pk.startsWith(CHECKOUT_TOKEN_KEY_PREFIX));
  const [codeItems, tokenItems, photoCounts] = await Promise.all([
    Promise.all(
      [...codeKeys].map(
        async (pk) => [pk, ((await getItem({ pk, sk: 'CODE' }))?.personId as string | undefined) ?? null] as const,
      ),
    ),
    Promise.all(
      tokenKeys.map(async (pk) => {
        const item = await getItem({ pk, sk: 'TOKEN' });
        return [
          pk,
          item && item.galleryToken === f.token ? (item.orderId as string) : item ? 'other-gallery' : null,
        ] as const;
      }),
    ),
    options.photos === false
      ? Promise.resolve([] as (readonly [string, number])[])
      : Promise.all(
          [...persons.keys()].map(
            async (personId) =>
              [personId, (await queryPartition(keys.photosOfPerson(f.tenantId, f.token, personId))).length] as const,
          ),
        ),
  ]);
  const statsItem = configItems.find((item) => item.sk === 'STATS') ?? {};
  return {
    persons,
    codes: new Map(codeItems),
    days: bookedByDay(configItems),
    counters: Object.fromEntries(COUNTERS.map((name) => [name, (statsItem[name] as number | undefined) ?? 0])),
    orders: new Map(
      orderItems.map((item) => [
        item.orderId as string,
        {
          status: item.status,
          sessionId: item.sessionId ?? null,
          day: item.person?.shootingDayId ?? null,
          hasSelfie: item.person?.hasSelfie === true,
          personId: item.person?.personId,
          code: item.code ?? null,
        },
      ]),
    ),
    tokens: new Map(tokenItems.filter(([, orderId]) => orderId !== 'other-gallery')),
    photos: new Map(photoCounts),
    selfies: (selfieObjects.Contents ?? []).map((object) => object.Key!).sort(),
  };
}

/** What a failed request must leave as it was. */
export function projection(state: GalleryState) {
  return {
    persons: Object.fromEntries([...state.persons].map(([id, person]) => [id, person])),
    days: Object.fromEntries(state.days),
    counters: state.counters,
    orders: Object.fromEntries(
      [...state.orders].map(([id, order]) => [id, { status: order.status, sessionId: order.sessionId }]),
    ),
    photos: Object.fromEntries(state.photos),
    selfies: state.selfies,
  };
}

/** Each day's booked spots: summed over its item and its spot counters (`DAY#<dayId>…`), which name it `id` and `dayId`. */
function bookedByDay(configItems: readonly Record<string, any>[]): Map<string, number> {
  const days = new Map<string, number>();
  for (const item of configItems.filter((candidate) => String(candidate.sk).startsWith(GALLERY_ITEM.shootingDay))) {
    const dayId = (item.dayId ?? item.id) as string;
    days.set(dayId, (days.get(dayId) ?? 0) + ((item.booked as number) ?? 0));
  }
  return days;
}
