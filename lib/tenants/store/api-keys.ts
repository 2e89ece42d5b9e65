import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { tenantKeys } from '#lib/tenants/store/keys';
import { queryGsi1 } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { displayPrefixOf, generateApiKeySecret, hashApiKey } from '#lib/tenants/rules/api-key-secret';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import { type CounterGuard, consumeGuardedRateLimit } from '#lib/rate-limits/store/rate-limit-counters';
import type { RateLimitPolicy, RateLimitVerdict } from '#lib/rate-limits/rules/rate-limit';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

export type ApiKeyStatus = 'active' | 'revoked' | 'disabled';

export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  name: string;
  status: ApiKeyStatus;
  displayPrefix: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Creates a key and returns its value: the only time the value exists outside the caller's
 * hands. The table keeps its SHA-256 hash as the item key.
 */
export async function createApiKey(tenantId: string, name: string): Promise<{ record: ApiKeyRecord; secret: string }> {
  const secret = generateApiKeySecret();
  const secretHash = hashApiKey(secret);
  const createdAt = nowIso();
  const record: ApiKeyRecord = {
    keyId: `key_${ulid(undefined, pooledRandomFraction).toLowerCase()}`,
    tenantId,
    name,
    status: 'active',
    displayPrefix: displayPrefixOf(secret),
    createdAt,
    updatedAt: createdAt,
  };
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: toApiKeyItem(secretHash, record),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { record, secret };
}

/** The key record for a presented secret, by its hash: one GetItem (strongly consistent with `consistent`). */
export async function findApiKeyBySecret(secret: string, consistent = false): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: tenantKeys.apiKey(hashApiKey(secret)), ConsistentRead: consistent }),
  );
  return Item ? fromApiKeyItem(Item) : undefined;
}

/** What a request's key check found: the key, if it is an active key of the tenant, and the rate limit's verdict, if one was taken. */
export interface KeyAdmission {
  record?: ApiKeyRecord;
  verdict?: RateLimitVerdict;
}

/**
 * Checks the presented key and, with `policy`, takes the request from the key's rate-limit
 * counter, which lives on the key's own item (`tat`), in one conditional write: the key must
 * exist, be active and belong to `tenantId`. A key that fails writes nothing; DynamoDB's answer
 * (the item as it was) tells which it is, so a refusal costs no further read. Without `policy`
 * (a request the plan check will refuse) nothing is written: the key is read, strongly
 * consistent, so a revoked key is refused on the very next request either way.
 */
export async function admitApiKeyRequest(
  secret: string,
  tenantId: string,
  policy: RateLimitPolicy | undefined,
  now: number,
): Promise<KeyAdmission> {
  const secretHash = hashApiKey(secret);
  const isTenantsActiveKey = (item: { status?: unknown; tenantId?: unknown } | undefined) =>
    item?.status === 'active' && item.tenantId === tenantId;
  if (!policy) {
    const record = await findApiKeyBySecret(secret, true);
    return { record: record && isTenantsActiveKey(record) ? record : undefined };
  }
  const guard: CounterGuard = {
    condition: 'attribute_exists(pk) AND #status = :active AND tenantId = :tenantId',
    names: { '#status': 'status' },
    values: { ':active': 'active', ':tenantId': tenantId },
    holds: isTenantsActiveKey,
    read: async () => {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: tenantKeys.apiKey(secretHash), ConsistentRead: true }),
      );
      return Item;
    },
  };
  const outcome = await consumeGuardedRateLimit(
    tenantKeys.apiKey(secretHash).pk,
    tenantKeys.apiKey(secretHash),
    guard,
    policy,
    now,
  );
  if ('guardFailed' in outcome) return {};
  return { record: fromApiKeyItem(outcome.item), verdict: outcome.verdict };
}

export async function listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
  return (await queryGsi1(tenantKeys.apiKeysOfTenant(tenantId))).map(fromApiKeyItem);
}

export type StatusChange = 'changed' | 'not_found' | 'revoked_already';

/**
 * Revokes or disables a key of the tenant. Revocation is final; a disabled key can be
 * enabled again.
 */
export async function setApiKeyStatus(tenantId: string, keyId: string, status: ApiKeyStatus): Promise<StatusChange> {
  const [item] = await queryGsi1(tenantKeys.apiKeysOfTenant(tenantId), keyId);
  if (!item) return 'not_found';
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: tenantKeys.apiKey(parseItem('api key', apiKeyItemSchema, item).secretHash),
        ConditionExpression: 'tenantId = :tenantId AND #status <> :revoked',
        UpdateExpression: 'SET #status = :status, updatedAt = :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':tenantId': tenantId,
          ':revoked': 'revoked',
          ':status': status,
          ':now': nowIso(),
        },
      }),
    );
    return 'changed';
  } catch (error) {
    if (isConditionFailure(error)) return 'revoked_already';
    throw error;
  }
}

/** The key's item, under the hash of its value, listed under its tenant (GSI1) by key ID. */
function toApiKeyItem(secretHash: string, record: ApiKeyRecord): StoredItem {
  return {
    ...tenantKeys.apiKey(secretHash),
    [GSI1.partitionKey]: tenantKeys.apiKeysOfTenant(record.tenantId),
    [GSI1.sortKey]: record.keyId,
    secretHash,
    ...record,
  };
}

const apiKeyItemSchema = v.object({
  keyId: v.string(),
  tenantId: v.string(),
  name: v.string(),
  status: v.picklist(['active', 'revoked', 'disabled']),
  displayPrefix: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
  secretHash: v.string(),
});

/** The key record an item holds (its hash and rate-limit counter aside); a CorruptItemError when it does not hold one. */
export function fromApiKeyItem(stored: StoredItem): ApiKeyRecord {
  const item = parseItem('api key', apiKeyItemSchema, stored);
  return {
    keyId: item.keyId,
    tenantId: item.tenantId,
    name: item.name,
    status: item.status,
    displayPrefix: item.displayPrefix,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
