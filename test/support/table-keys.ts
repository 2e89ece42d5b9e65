import { tenantKeys } from '#lib/tenants/store/keys';
import { RATE_LIMIT_KEY_PREFIX, rateLimitKeys } from '#lib/rate-limits/store/keys';
import { GALLERY_ITEM, GALLERY_POINTER_KEY_PREFIX, galleryKeys } from '#lib/galleries/store/keys';
import { PERSON_ITEM_PREFIX, galleryOfPersonItem, personKeys } from '#lib/persons/store/keys';
import { checkinKeys } from '#lib/checkin/store/keys';
import { CHECKOUT_TOKEN_KEY_PREFIX, ORDER_ITEM_PREFIX, paymentKeys } from '#lib/payments/store/keys';
import { IDEMPOTENCY_KEY_PREFIX, idempotencyKeys } from '#lib/idempotency/store/keys';
import { EVENT_ITEM_PREFIX, outboxKeys } from '#lib/events/store/keys';
import { faceKeys } from '#lib/faces/store/keys';
import { HR_EXPORT_ITEM_PREFIX, hrExportKeys } from '#lib/hr-exports/store/keys';
import { DELIVERY_ITEM_PREFIX, webhookKeys } from '#lib/webhooks/store/keys';
import { photoKeys } from '#lib/photos/common/store/keys';
import { shootKeys } from '#lib/photos/sorting/store/keys';

/**
 * Every key of the table in one place, for tests that read or plant items directly: each
 * feature's own keys (its store/keys.ts), composed. Tests never build a key by hand.
 */
export const keys = {
  ...tenantKeys,
  ...rateLimitKeys,
  ...galleryKeys,
  ...personKeys,
  ...checkinKeys,
  ...paymentKeys,
  ...idempotencyKeys,
  ...outboxKeys,
  ...faceKeys,
  ...hrExportKeys,
  ...webhookKeys,
  ...photoKeys,
  ...shootKeys,
} as const;

/** Sort-key prefixes of the items tests find by kind. */
export const ITEM_PREFIX = {
  person: PERSON_ITEM_PREFIX,
  order: ORDER_ITEM_PREFIX,
  event: EVENT_ITEM_PREFIX,
  delivery: DELIVERY_ITEM_PREFIX,
  hrExport: HR_EXPORT_ITEM_PREFIX,
} as const;

export {
  CHECKOUT_TOKEN_KEY_PREFIX,
  GALLERY_ITEM,
  GALLERY_POINTER_KEY_PREFIX,
  IDEMPOTENCY_KEY_PREFIX,
  RATE_LIMIT_KEY_PREFIX,
  galleryOfPersonItem,
};
export { galleryPartitionPrefix } from '#lib/platform/table/keys';
export { positionOfShootItem, shootCardsOfSequence } from '#lib/photos/sorting/store/keys';
