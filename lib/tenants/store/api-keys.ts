import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { nowIso } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '#lib/platform/table/keys';
import { queryGsi1 } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { displayPrefixOf, generateApiKeySecret, hashApiKey } from '#lib/tenants/rules/api-key-secret';
import { isConditionFailure } from '#lib/platform/table/store-errors';

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
    keyId: `key_${ulid().toLowerCase()}`,
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
      Item: {
        ...keys.apiKey(secretHash),
        [GSI1.partitionKey]: keys.apiKeysOfTenant(tenantId),
        [GSI1.sortKey]: record.keyId,
        secretHash,
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { record, secret };
}

/** The key record for a presented secret, by its hash: one GetItem. */
export async function findApiKeyBySecret(secret: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(hashApiKey(secret)) }));
  return Item ? toRecord(Item) : undefined;
}

export async function listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
  return (await queryGsi1(keys.apiKeysOfTenant(tenantId))).map(toRecord);
}

export type StatusChange = 'changed' | 'not_found' | 'revoked_already';

/**
 * Revokes or disables a key of the tenant. Revocation is final; a disabled key can be
 * enabled again.
 */
export async function setApiKeyStatus(tenantId: string, keyId: string, status: ApiKeyStatus): Promise<StatusChange> {
  const [item] = await queryGsi1(keys.apiKeysOfTenant(tenantId), keyId);
  if (!item) return 'not_found';
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(item.secretHash),
        ConditionExpression: 'tenantId = :tenantId AND #status <> :revoked',
        UpdateExpression: 'SET #status = :status, updatedAt = :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':tenantId': tenantId, ':revoked': 'revoked', ':status': status, ':now': nowIso() },
      }),
    );
    return 'changed';
  } catch (error) {
    if (isConditionFailure(error)) return 'revoked_already';
    throw error;
  }
}

function toRecord(item: Record<string, any>): ApiKeyRecord {
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
