import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { GSI1 } from '#lib/platform/table/table-definition';
import { tenantKeys } from '#lib/tenants/store/keys';
import { tenantIdPointerPut } from '#lib/tenants/store/tenant-directory';
import { queryGsi1, queryPartition, updateExistingItem } from '#lib/platform/table/queries';
import type { PlanTier } from '#lib/tenants/rules/plans';
import type { Branding } from '#lib/tenants/rules/branding';
import type { TenantShare } from '#lib/tenants/rules/tenant-share';
import { isCancelledTransaction, isConditionFailure } from '#lib/platform/table/store-errors';
import { ExpiringCache } from '#lib/platform/expiring-cache';
import * as v from 'valibot';
import { type StoredItem, parseItem, storedObject } from '#lib/platform/table/item-schema';

export interface PlanRecord {
  /** Kept as read: an unknown tier is a state the plan check must notice, not a type error. */
  tier: string;
  updatedAt: string;
}

export interface Tenant {
  tenantId: string;
  slug: string;
  name: string;
  stripeAccountId?: string;
  paymentAccessApproved: boolean;
  /** Platform fee on paid packages, in basis points of the price (250 = 2.5 %). */
  platformFeeBps: number;
  /** Last known ability of a connected account to take card payments, and when it was read (ms). */
  stripeReadiness?: StripeReadiness;
  createdAt: string;
  /** Absent when no plan record exists (for example while billing has not synced yet). */
  plan?: PlanRecord;
  /**
   * Origins (`https://photos.example.com`) besides the check-in page's to which Stripe may send
   * participants back (lib/payments/checkout-urls.ts), sorted; absent when there are none.
   */
  allowedReturnOrigins?: string[];
  /** The logo and accent colour of its galleries' check-in pages, where a gallery sets none of its own. */
  branding?: Branding;
  /** Its own share of the check-in route, where the platform set one (else DEFAULT_TENANT_SHARE). */
  publicShare?: Partial<TenantShare>;
}

export interface StripeReadiness {
  accountId: string;
  ready: boolean;
  checkedAt: number;
}

export interface NewTenant {
  slug: string;
  name: string;
  plan: PlanTier;
  stripeAccountId?: string;
  paymentAccessApproved?: boolean;
  platformFeeBps?: number;
}

export class TenantExistsError extends Error {
  constructor(slug: string) {
    super(`A tenant with slug "${slug}" exists already`);
  }
}

/** Tenant profile and plan by slug: one Query over the tenant's partition. */
export async function getTenantBySlug(slug: string): Promise<Tenant | undefined> {
  const items = await queryPartition(tenantKeys.tenantPartition(slug));
  const profile = items.find((item) => item.sk === 'PROFILE');
  if (!profile) return undefined;
  const plan = items.find((item) => item.sk === 'PLAN');
  return fromTenantItems(profile, plan);
}

/** The profile's item, listed in the tenant directory (GSI1); the plan is an item of its own. */
function toTenantItem(profile: Omit<Tenant, 'plan'>): StoredItem {
  return {
    ...tenantKeys.tenant(profile.slug),
    [GSI1.partitionKey]: tenantKeys.tenantDirectory(),
    [GSI1.sortKey]: profile.slug,
    ...profile,
  };
}

const tenantItemSchema = v.object({
  tenantId: v.string(),
  slug: v.string(),
  name: v.string(),
  stripeAccountId: v.nullish(v.string()),
  paymentAccessApproved: v.nullish(v.boolean()),
  platformFeeBps: v.nullish(v.number()),
  stripeReadiness: v.nullish(v.object({ accountId: v.string(), ready: v.boolean(), checkedAt: v.number() })),
  createdAt: v.string(),
  // A string set (the document client reads it as a Set): one ADD or DELETE changes it.
  allowedReturnOrigins: v.nullish(v.set(v.string())),
  branding: v.nullish(storedObject<Branding>()),
  publicShare: v.nullish(v.object({ checkinsPerSecond: v.optional(v.number()) })),
});

/** The tier is kept as read: an unknown tier is a state the plan check must notice. */
const planItemSchema = v.object({ tier: v.unknown(), updatedAt: v.string() });

/** The tenant its profile and plan items hold; a CorruptItemError when they do not hold one. */
export function fromTenantItems(storedProfile: StoredItem, storedPlan: StoredItem | undefined): Tenant {
  const profile = parseItem('tenant', tenantItemSchema, storedProfile);
  const plan = storedPlan ? parseItem('tenant plan', planItemSchema, storedPlan) : undefined;
  return {
    tenantId: profile.tenantId,
    slug: profile.slug,
    name: profile.name,
    stripeAccountId: profile.stripeAccountId ?? undefined,
    paymentAccessApproved: profile.paymentAccessApproved === true,
    platformFeeBps: profile.platformFeeBps ?? 0,
    stripeReadiness: profile.stripeReadiness ?? undefined,
    createdAt: profile.createdAt,
    plan: plan ? { tier: String(plan.tier), updatedAt: plan.updatedAt } : undefined,
    allowedReturnOrigins: profile.allowedReturnOrigins ? [...profile.allowedReturnOrigins].sort() : undefined,
    ...(profile.branding ? { branding: profile.branding } : {}),
    ...(profile.publicShare ? { publicShare: profile.publicShare } : {}),
  };
}

/** What the directory's listing needs of a tenant item (GSI1 projects all of it). */
const tenantSlugSchema = v.object({ slug: v.string() });

/** The item that leads from a connected Stripe account to its tenant's slug. */
const stripeAccountItemSchema = v.object({ slug: v.string() });

/**
 * How long a tenant read by slug is reused by routes that may see a slightly old profile and
 * plan (GET routes, lib/http/tenant-resolution.ts): a changed name, branding or plan reaches
 * an instance within this time. A slug's tenant ID never changes (tenants are never deleted and
 * a slug never moves), so what a cached read keys on is always right. Unknown slugs are never
 * cached: a tenant created a moment ago is found at once. docs/data-model.md#cached-values.
 */
export const TENANT_CACHE_MS = 60_000;

const recentTenants = new ExpiringCache<Tenant>(TENANT_CACHE_MS);

/**
 * The tenant of `slug` as this process read it less than TENANT_CACHE_MS ago, else read now
 * (and kept). For what may be that stale only; getTenantBySlug always reads.
 */
export async function getRecentTenantBySlug(slug: string): Promise<Tenant | undefined> {
  const recent = recentTenants.get(slug);
  if (recent) return recent;
  const tenant = await getTenantBySlug(slug);
  if (tenant) recentTenants.set(slug, tenant);
  return tenant;
}

/** Whether getRecentTenantBySlug would answer `slug` without a read (a slug as tenantResolution normalises it). */
export function hasRecentTenant(slug: string): boolean {
  return recentTenants.get(slug) !== undefined;
}

/** Forgets every tenant read (tests, and a process that changed a tenant itself). */
export function forgetRecentTenants(): void {
  recentTenants.clear();
}

export async function createTenant(input: NewTenant): Promise<Tenant> {
  const createdAt = nowIso();
  const tenant: Tenant = {
    tenantId: `ten_${ulid(undefined, pooledRandomFraction).toLowerCase()}`,
    slug: input.slug,
    name: input.name,
    stripeAccountId: input.stripeAccountId,
    paymentAccessApproved: input.paymentAccessApproved ?? false,
    platformFeeBps: input.platformFeeBps ?? 0,
    createdAt,
    plan: { tier: input.plan, updatedAt: createdAt },
  };
  const { plan, ...profile } = tenant;
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: toTenantItem(profile),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: tableName, Item: { ...tenantKeys.tenantPlan(input.slug), ...plan } } },
          { Put: tenantIdPointerPut(tenant.tenantId, input.slug) },
          ...(input.stripeAccountId ? [{ Put: stripeAccountMapping(input.stripeAccountId, input.slug) }] : []),
        ],
      }),
    );
  } catch (error) {
    if (isCancelledTransaction(error)) throw new TenantExistsError(input.slug);
    throw error;
  }
  return tenant;
}

export async function setTenantPlan(slug: string, tier: PlanTier): Promise<void> {
  await db.send(
    new PutCommand({ TableName: tableName, Item: { ...tenantKeys.tenantPlan(slug), tier, updatedAt: nowIso() } }),
  );
  recentTenants.delete(slug);
}

export type TenantSettings = Partial<
  Pick<Tenant, 'name' | 'stripeAccountId' | 'paymentAccessApproved' | 'platformFeeBps' | 'branding' | 'publicShare'>
>;

/** Changes profile settings of an existing tenant; false when no such tenant exists. */
export async function updateTenantSettings(slug: string, settings: TenantSettings): Promise<boolean> {
  recentTenants.delete(slug);
  const updated = await updateExistingItem(tenantKeys.tenant(slug), settings);
  if (updated && settings.stripeAccountId) {
    await db.send(new PutCommand(stripeAccountMapping(settings.stripeAccountId, slug)));
  }
  return updated;
}

/** Records what Stripe said about the connected account's ability to take charges. */
export async function recordStripeReadiness(slug: string, readiness: StripeReadiness): Promise<void> {
  recentTenants.delete(slug);
  await updateExistingItem(tenantKeys.tenant(slug), { stripeReadiness: readiness });
}

/** What became of a change to a tenant's allowed return origins. */
export type ReturnOriginChange = 'changed' | 'unchanged' | 'no_tenant' | 'limit_reached';

/**
 * Allows a return origin for the tenant: one element more of the profile's string set
 * `allowedReturnOrigins`, added atomically, so concurrent changes never lose one. 'unchanged'
 * when it was allowed already; 'limit_reached' when the tenant has `limit` origins already.
 */
export async function allowReturnOrigin(slug: string, origin: string, limit: number): Promise<ReturnOriginChange> {
  recentTenants.delete(slug);
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: tenantKeys.tenant(slug),
        UpdateExpression: 'ADD allowedReturnOrigins :origins',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(allowedReturnOrigins) OR contains(allowedReturnOrigins, :origin) OR size(allowedReturnOrigins) < :limit)',
        ExpressionAttributeValues: { ':origins': new Set([origin]), ':origin': origin, ':limit': limit },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return (Attributes?.allowedReturnOrigins as Set<string> | undefined)?.has(origin) ? 'unchanged' : 'changed';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await getTenantBySlug(slug)) ? 'limit_reached' : 'no_tenant';
  }
}

/** Takes a return origin back; 'unchanged' when the tenant did not allow it. An emptied set goes away. */
export async function disallowReturnOrigin(slug: string, origin: string): Promise<ReturnOriginChange> {
  recentTenants.delete(slug);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: tenantKeys.tenant(slug),
        UpdateExpression: 'DELETE allowedReturnOrigins :origins',
        ConditionExpression: 'attribute_exists(pk) AND contains(allowedReturnOrigins, :origin)',
        ExpressionAttributeValues: { ':origins': new Set([origin]), ':origin': origin },
      }),
    );
    return 'changed';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await getTenantBySlug(slug)) ? 'unchanged' : 'no_tenant';
  }
}

/** Connect events name the connected account; this item leads from it to the tenant. */
function stripeAccountMapping(accountId: string, slug: string) {
  return { TableName: tableName, Item: { ...tenantKeys.stripeAccount(accountId), slug } };
}

/** The tenant whose connected Stripe account this is (for Connect webhooks). */
export async function getTenantByStripeAccount(accountId: string): Promise<Tenant | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: tenantKeys.stripeAccount(accountId) }));
  const tenant = Item
    ? await getTenantBySlug(parseItem('stripe account', stripeAccountItemSchema, Item).slug)
    : undefined;
  return tenant?.stripeAccountId === accountId ? tenant : undefined;
}

/** The tenant directory (admin use only): slugs in order, through GSI1. */
export async function listTenants(): Promise<Tenant[]> {
  const directory = await queryGsi1(tenantKeys.tenantDirectory());
  const tenants = await Promise.all(
    directory.map((item) => getTenantBySlug(parseItem('tenant', tenantSlugSchema, item).slug)),
  );
  return tenants.filter((tenant): tenant is Tenant => tenant !== undefined);
}
