import { CorruptItemError } from '#lib/platform/table/store-errors';
import { type StoredItem, keyOfItem, parseItem } from '#lib/platform/table/item-schema';
import { loggableError } from '#lib/platform/logger';
import * as v from 'valibot';
import {
  fromCountersItem,
  fromFormFieldItem,
  fromGalleryItem,
  fromPackageItem,
  fromShootingDayItem,
} from '#lib/galleries/store/galleries';
import { parseDaySpotShardItem, parseShootingDayItem } from '#lib/galleries/store/day-bookings';
import { fromGalleryPointerItem } from '#lib/galleries/store/gallery-pointers';
import { fromPersonItem } from '#lib/persons/store/persons';
import { fromTenantItems } from '#lib/tenants/store/tenants';
import { fromApiKeyItem } from '#lib/tenants/store/api-keys';
import { fromCounterItem } from '#lib/rate-limits/store/rate-limit-counters';
import { fromReferenceFaceItem } from '#lib/faces/store/reference-faces';
import { fromPhotoItem } from '#lib/photos/common/store/photos';
import { fromShootItem } from '#lib/photos/sorting/store/shoot-photos';
import { fromHrExportItem } from '#lib/hr-exports/store/hr-exports';
import { fromOrderItem } from '#lib/payments/store/orders';
import { fromCheckoutTokenItem } from '#lib/payments/store/checkout-tokens';
import { eventFromItem } from '#lib/events/store/outbox';
import { fromDeliveryItem } from '#lib/webhooks/store/webhook-deliveries';
import { fromSubscriptionItem } from '#lib/webhooks/store/webhook-subscriptions';
import { fromAttemptSlotItem } from '#lib/webhooks/store/attempt-slots';
import { fromErasableOrderItem } from '#lib/payments/store/order-erasure';

/**
 * Every entity's fromItem checks the item where it comes back from the table: a sound item reads,
 * and one with a wrong attribute is a CorruptItemError that names the entity and the attribute
 * (never a TypeError deep in a use case). Each row: the entity's fromItem, a sound item, and the
 * attribute a corrupt copy gets wrong (set to a value of the wrong type).
 */
const keys = { pk: 'partition', sk: 'sort' };
const createdAt = '2026-01-02T03:04:05.000Z';
const person = {
  ...keys,
  personId: 'per_1',
  name: 'Ada',
  email: 'ada@example.com',
  employeeId: null,
  code: 'ABCD1234',
  consents: { consentGiven: true, faceConsent: null, notificationConsent: null, hrExportConsent: null },
  customFields: { 'custom-1': 'x' },
  source: 'checkin',
  createdAt,
  hasSelfie: true,
  photoCount: 2,
};
const order = {
  ...keys,
  orderId: 'ord_1',
  tenantId: 'ten_1',
  galleryToken: 'tok',
  status: 'pending',
  person: { personId: 'ord_1', name: 'Ada', email: null, employeeId: null, hasSelfie: false },
  packageId: 'pkg_1',
  packageName: 'Portrait',
  amount: 1500,
  currency: 'eur',
  accountId: 'acct_1',
  createdAt,
  updatedAt: createdAt,
  tokenHashes: ['h1', 'h2'],
};
const shootFacts = {
  ...keys,
  photoId: 'pho_1',
  objectKey: 'inbox/a.jpg',
  path: 'a.jpg',
  fileName: 'a.jpg',
  camera: null,
  capturedAt: null,
  width: 10,
  height: 10,
  uploadedAt: createdAt,
};

const entities: [string, (item: StoredItem) => unknown, StoredItem, string][] = [
  [
    'gallery',
    fromGalleryItem,
    { ...keys, tenantId: 'ten_1', token: 'tok', galleryName: 'G', createdAt },
    'galleryName',
  ],
  ['gallery statistics', fromCountersItem, { ...keys, photos: 3, ordersPaid: 1 }, 'photos'],
  [
    'shooting day',
    (item) => fromShootingDayItem(item, []),
    { ...keys, id: 'day_1', date: '2026-05-01', label: 'Day', startTime: '09:00', endTime: '17:00', booked: 1 },
    'booked',
  ],
  [
    'shooting day',
    parseShootingDayItem,
    { ...keys, id: 'day_1', date: '2026-05-01', label: 'Day', startTime: '09:00', endTime: '17:00', maxPersons: 5 },
    'maxPersons',
  ],
  ['day spot shard', parseDaySpotShardItem, { ...keys, dayId: 'day_1', shard: 0, booked: 2, spotShare: 3 }, 'shard'],
  ['package', fromPackageItem, { ...keys, id: 'pkg_1', name: 'P', price: 1500, currency: 'eur', position: 1 }, 'price'],
  [
    'form field',
    fromFormFieldItem,
    { ...keys, key: 'phone', label: 'Phone', type: 'text', required: true, enabled: true, position: 0 },
    'type',
  ],
  [
    'gallery pointer',
    fromGalleryPointerItem,
    { ...keys, tenantId: 'ten_1', publicLimits: { lookups: 3 } },
    'publicLimits',
  ],
  ['person', fromPersonItem, person, 'consents.consentGiven'],
  [
    'tenant',
    (item) => fromTenantItems(item, undefined),
    {
      ...keys,
      tenantId: 'ten_1',
      slug: 'acme',
      name: 'Acme',
      createdAt,
      allowedReturnOrigins: new Set(['https://a.example']),
    },
    'allowedReturnOrigins',
  ],
  [
    'api key',
    fromApiKeyItem,
    {
      ...keys,
      keyId: 'key_1',
      tenantId: 'ten_1',
      name: 'CRM',
      status: 'active',
      displayPrefix: 'gs_live_ab',
      createdAt,
      updatedAt: createdAt,
      secretHash: 'h',
      tat: 5,
    },
    'status',
  ],
  ['rate limit counter', fromCounterItem, { ...keys, tat: 1000, lastWrite: 'w1' }, 'tat'],
  [
    'reference face',
    fromReferenceFaceItem,
    { ...keys, personId: 'per_1', descriptor: new Uint8Array(8) },
    'descriptor',
  ],
  [
    'photo',
    fromPhotoItem,
    { ...keys, photoId: 'pho_1', personId: 'per_1', fileName: 'a.jpg', objectKey: 'k', width: 1, height: 1, createdAt },
    'width',
  ],
  ['shoot item', fromShootItem, { ...shootFacts, kind: 'photo', reason: 'unknown_code' }, 'candidates'],
  ['shoot item', fromShootItem, { ...shootFacts, kind: 'card', code: 'ABCD1234', cardPersonId: 'per_1' }, 'code'],
  [
    'hr export',
    fromHrExportItem,
    {
      ...keys,
      exportId: 'hrx_1',
      tenantId: 'ten_1',
      galleryToken: 'tok',
      status: 'ready',
      shootingDayId: null,
      size: 648,
      createdAt,
      updatedAt: createdAt,
      personIds: ['per_1'],
    },
    'personIds',
  ],
  ['order', fromOrderItem, order, 'amount'],
  ['order', fromErasableOrderItem, order, 'tokenHashes'],
  [
    'checkout token',
    fromCheckoutTokenItem,
    { ...keys, purpose: 'status', tenantId: 'ten_1', galleryToken: 'tok', orderId: 'ord_1', expiresAt: 1 },
    'purpose',
  ],
  [
    'event',
    eventFromItem,
    {
      ...keys,
      eventId: 'evt_1',
      type: 'photos.assigned',
      createdAt,
      tenantId: 'ten_1',
      galleryToken: 'tok',
      personId: 'per_1',
      photosAdded: 2,
      deliverAfter: 5,
    },
    'photosAdded',
  ],
  [
    'webhook delivery',
    fromDeliveryItem,
    {
      ...keys,
      tenantId: 'ten_1',
      subscriptionId: 'sub_1',
      eventId: 'evt_1',
      eventType: 'person.created',
      galleryToken: 'tok',
      status: 'pending',
      createdAt,
      attempts: 0,
      roundFailures: 0,
      nextAttemptAt: 1,
    },
    'nextAttemptAt',
  ],
  [
    'webhook subscription',
    fromSubscriptionItem,
    {
      ...keys,
      subscriptionId: 'sub_1',
      tenantId: 'ten_1',
      tenantSlug: 'acme',
      url: 'https://hooks.example',
      eventTypes: ['*'],
      enabled: true,
      secrets: [{ sealed: 's', addedAt: createdAt }],
      description: null,
      createdAt,
    },
    'secrets',
  ],
  [
    'webhook attempt slot',
    fromAttemptSlotItem,
    { ...keys, slot: 1, subscriptionId: 'sub_1', heldUntil: 5 },
    'heldUntil',
  ],
];

/** A value of no attribute's type: no schema takes a symbol. */
const WRONG = Symbol('corrupt');

function corrupted(item: StoredItem, attribute: string): StoredItem {
  const [first, ...rest] = attribute.split('.');
  if (rest.length === 0) return { ...item, [first!]: WRONG };
  return { ...item, [first!]: corrupted(item[first!] as StoredItem, rest.join('.')) };
}

function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe.each(entities)('the %s item read back', (entity, fromItem, sound, attribute) => {
  it('reads when it has the stored shape', () => {
    // Act
    const read = thrownBy(() => fromItem(sound));

    // Assess
    expect(read).toBeUndefined();
  });

  it(`is a CorruptItemError naming the entity and ${attribute} when that attribute is wrong`, () => {
    // Act
    const error = thrownBy(() => fromItem(corrupted(sound, attribute)));

    // Assess
    expect(error).toBeInstanceOf(CorruptItemError);
    expect(error).toMatchObject({
      name: 'CorruptItemError',
      code: 'corrupt_item',
      type: entity.replaceAll(' ', '_'),
      attribute,
    });
  });

  it('is a CorruptItemError when a required attribute is missing, or the item is not an object', () => {
    // Prepare
    const required = Object.keys(sound).find((name) => {
      const { [name]: _gone, ...rest } = sound;
      return name !== 'pk' && name !== 'sk' && thrownBy(() => fromItem(rest)) !== undefined;
    });

    // Act
    const withoutIt =
      required === undefined ? undefined : thrownBy(() => fromItem({ ...sound, [required]: undefined }));
    const none = thrownBy(() => fromItem('not an item' as unknown as StoredItem));

    // Assess
    if (required !== undefined) expect(withoutIt).toBeInstanceOf(CorruptItemError);
    expect(none).toBeInstanceOf(CorruptItemError);
  });
});

describe('parseItem', () => {
  const schema = v.object({ name: v.string(), nested: v.object({ count: v.number() }) });

  it('gives the dotted path of the first wrong attribute and what was expected, never the value', () => {
    // Act
    const error = thrownBy(() => parseItem('sample', schema, { name: 'Ada', nested: { count: 'secret@example.com' } }));

    // Assess
    expect(error).toBeInstanceOf(CorruptItemError);
    expect((error as CorruptItemError).attribute).toBe('nested.count');
    expect((error as CorruptItemError).message).toBe(
      'Corrupt sample item read from the table, at nested.count: expected number',
    );
    expect((error as CorruptItemError).message).not.toContain('secret@example.com');
  });

  it('is logged by its name, code and entity, as every error is: no message, no value', () => {
    // Prepare
    const error = thrownBy(() => parseItem('api key', schema, { name: 'secret@example.com' }));

    // Act
    const logged = loggableError(error);

    // Assess
    expect(logged).toMatchObject({ name: 'CorruptItemError', code: 'corrupt_item', type: 'api_key' });
    expect(JSON.stringify(logged)).not.toContain('secret@example.com');
  });
});

describe('keyOfItem', () => {
  it('gives the item key, and a CorruptItemError for an item without one', () => {
    // Act
    const key = keyOfItem({ pk: 'P', sk: 'S', other: 1 });
    const error = thrownBy(() => keyOfItem({ pk: 'P' }));

    // Assess
    expect(key).toEqual({ pk: 'P', sk: 'S' });
    expect(error).toMatchObject({ name: 'CorruptItemError', type: 'item_key', attribute: 'sk' });
  });
});
