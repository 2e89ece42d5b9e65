/**
 * The items of tenants: profiles, plans, the directory, API keys and connected Stripe accounts.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
export const tenantKeys = {
  tenant: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PROFILE' }),
  tenantPlan: (slug: string) => ({ pk: `TENANT#${slug}`, sk: 'PLAN' }),
  tenantPartition: (slug: string) => `TENANT#${slug}`,
  tenantDirectory: () => 'TENANTS',
  /** A tenant's ID to its slug: how a background job that knows only the ID finds the tenant with one GetItem. */
  tenantIdPointer: (tenantId: string) => ({ pk: `TENANTID#${tenantId}`, sk: 'TENANT' }),
  stripeAccount: (accountId: string) => ({ pk: `STRIPEACCOUNT#${accountId}`, sk: 'TENANT' }),
  apiKey: (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: 'APIKEY' }),
  apiKeysOfTenant: (tenantId: string) => `T#${tenantId}#APIKEYS`,
} as const;
