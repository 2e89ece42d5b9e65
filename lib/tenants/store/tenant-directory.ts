import { tenantKeys } from '#lib/tenants/store/keys';
import { queryAll } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';

/** Slug and name of the tenant with this ID: the email names the studio, and the link the tenant. */
export interface TenantIdentity {
  slug: string;
  name: string;
}

// Slugs and IDs never change (the slug is the tenant's key), so what was found stays true.
const tenantsById = new Map<string, TenantIdentity>();

/**
 * The tenant with this ID, from the tenant directory (GSI1), which holds the profile of every
 * tenant; undefined when there is none. Found tenants are remembered for the process's life.
 */
export async function findTenantById(tenantId: string): Promise<TenantIdentity | undefined> {
  const known = tenantsById.get(tenantId);
  if (known) return known;
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk',
    FilterExpression: 'tenantId = :tenantId',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
    ExpressionAttributeValues: { ':pk': tenantKeys.tenantDirectory(), ':tenantId': tenantId },
  });
  const profile = items[0];
  if (!profile) return undefined;
  const found = { slug: String(profile.slug), name: String(profile.name) };
  tenantsById.set(tenantId, found);
  return found;
}
