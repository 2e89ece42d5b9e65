import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { tenantKeys } from '#lib/tenants/store/keys';
import { queryAll, queryGsi1Page } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import * as v from 'valibot';
import { parseItem } from '#lib/platform/table/item-schema';

/** Slug and name of the tenant with this ID: the email names the studio, and the link the tenant. */
export interface TenantIdentity {
  slug: string;
  name: string;
}

// Slugs and IDs never change (the slug is the tenant's key), so what was found stays true.
const tenantsById = new Map<string, TenantIdentity>();

const pointerSchema = v.object({ slug: v.string() });
const profileSchema = v.object({ tenantId: v.string(), slug: v.string(), name: v.string() });

/**
 * The Put of a tenant's ID pointer (tenantKeys.tenantIdPointer: ID to slug), on condition that
 * it is new: in createTenant's transaction, and for tenants created before it existed.
 */
export function tenantIdPointerPut(tenantId: string, slug: string) {
  return {
    TableName: tableName,
    Item: { ...tenantKeys.tenantIdPointer(tenantId), tenantId, slug },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * The tenant with this ID: its pointer (one GetItem) names the slug, and the profile (one
 * GetItem) the name; undefined when there is none. A tenant created before the pointers existed
 * is found once in the tenant directory, which then writes its pointer (docs/data-model.md#tenant-id-pointers).
 * Found tenants are remembered for the process's life.
 */
export async function findTenantById(tenantId: string): Promise<TenantIdentity | undefined> {
  const known = tenantsById.get(tenantId);
  if (known) return known;
  const { Item: pointer } = await db.send(
    new GetCommand({ TableName: tableName, Key: tenantKeys.tenantIdPointer(tenantId) }),
  );
  const slug = pointer ? parseItem('tenant ID pointer', pointerSchema, pointer).slug : await slugInDirectory(tenantId);
  if (slug === undefined) return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: tenantKeys.tenant(slug) }));
  if (!Item) return undefined;
  const profile = parseItem('tenant', profileSchema, Item);
  if (profile.tenantId !== tenantId) return undefined;
  const found = { slug: profile.slug, name: profile.name };
  tenantsById.set(tenantId, found);
  return found;
}

/**
 * The slug of a tenant created before the pointers existed, from the tenant directory (read
 * once per such tenant: it writes the pointer, so that the next look-up is a GetItem).
 */
async function slugInDirectory(tenantId: string): Promise<string | undefined> {
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk',
    FilterExpression: 'tenantId = :tenantId',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
    ExpressionAttributeValues: { ':pk': tenantKeys.tenantDirectory(), ':tenantId': tenantId },
  });
  const profile = items[0];
  if (!profile) return undefined;
  const { slug } = parseItem('tenant', profileSchema, profile);
  await putTenantIdPointer(tenantId, slug);
  return slug;
}

/** Writes a tenant's pointer unless it has one; true when this call wrote it. */
function putTenantIdPointer(tenantId: string, slug: string): Promise<boolean> {
  return conditionalWrite(
    () => db.send(new PutCommand(tenantIdPointerPut(tenantId, slug))),
    // It has one already (another look-up's, or this write resent after its answer was lost).
    () => false,
  );
}

/**
 * Gives every tenant of the directory its ID pointer (tenants created before the pointers
 * existed), a page of the directory at a time. Safe to run again; answers how many it wrote.
 */
export async function putMissingTenantIdPointers(): Promise<number> {
  let written = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryGsi1Page(tenantKeys.tenantDirectory(), startKey, 100);
    for (const item of page.items) {
      const profile = parseItem('tenant', profileSchema, item);
      if (await putTenantIdPointer(profile.tenantId, profile.slug)) written += 1;
    }
    startKey = page.nextKey;
  } while (startKey);
  return written;
}
