/**
 * The items of galleries: configuration (the gallery, its days and their spot counters, packages, form fields, statistics), the tenant's list and the pointers by token.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** Gallery pointers' partition keys start so (galleryKeys.galleryPointer). */
export const GALLERY_POINTER_KEY_PREFIX = 'GALLERYTOKEN#';

export const galleryKeys = {
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
} as const;

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
