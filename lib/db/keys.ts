/**
 * Every key prefix of the single table lives here. docs/data-model.md documents the
 * access pattern each key serves.
 */
export const keys = {
  tenant: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PROFILE' }),
  tenantPlan: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PLAN' }),
  tenantPartition: (slug: string) => `TENANT#${slug}`,
  tenantDirectory: () => 'TENANTS',

  apiKey: (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: 'APIKEY' }),
  apiKeysOfTenant: (tenantId: string) => `T#${tenantId}#APIKEYS`,

  rateLimit: (keyId: string) => ({ pk: `RATELIMIT#${keyId}`, sk: 'RATELIMIT' }),

  /** Gallery configuration: the gallery item, its shooting days, packages and form fields. */
  galleryPartition: (tenantId: string, token: string) => `T#${tenantId}#G#${token}`,
  gallery: (tenantId: string, token: string) => ({ pk: `T#${tenantId}#G#${token}`, sk: 'GALLERY' }),
  galleriesOfTenant: (tenantId: string) => `T#${tenantId}#GALLERIES`,
  shootingDay: (tenantId: string, token: string, dayId: string) => ({
    pk: `T#${tenantId}#G#${token}`,
    sk: `DAY#${dayId}`,
  }),
  galleryPackage: (tenantId: string, token: string, packageId: string) => ({
    pk: `T#${tenantId}#G#${token}`,
    sk: `PACKAGE#${packageId}`,
  }),
  formField: (tenantId: string, token: string, fieldKey: string) => ({
    pk: `T#${tenantId}#G#${token}`,
    sk: `FIELD#${fieldKey}`,
  }),
} as const;

/** Sort-key prefixes of the items in a gallery partition. */
export const GALLERY_ITEM = {
  gallery: 'GALLERY',
  shootingDay: 'DAY#',
  package: 'PACKAGE#',
  formField: 'FIELD#',
} as const;
