import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '#lib/platform/table/client';
import { idempotencyKeys } from '#lib/idempotency/store/keys';
import { queryAll, setClause } from '#lib/platform/table/queries';
import * as v from 'valibot';
import { parseItem } from '#lib/platform/table/item-schema';
import { itemOfFailedCondition } from '#lib/platform/table/retry';
import { GSI1 } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';

/** How long a key's first answer is kept (Stripe's convention). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/** A claim whose request has not finished in this time is considered abandoned (crashed function). */
const CLAIM_TIMEOUT_MS = 60_000;

export type Claim =
  | { claimed: true }
  | {
      claimed: false;
      requestHash: string;
      /** The claim the record belongs to; naming it lets a later claim take an unreadable record over. */
      claimId?: string;
      /** The first answer, sealed (lib/idempotency/rules/idempotency-sealing.ts); absent while its request runs. */
      sealedAnswer?: Uint8Array;
    };

/**
 * Claims a key for this request with one conditional write: free, expired or abandoned keys
 * are taken; otherwise the current record comes back with the failed condition. The claim
 * carries an ID of its own: when the SDK resends a claim whose answer was lost, the resend
 * fails its condition on our own record, which is still ours. `takeOverClaimId` also takes the
 * record of that claim, and only that one (a completed record whose answer does not open).
 */
export async function claimIdempotencyKey(
  scopeHash: string,
  requestHash: string,
  nowMs: number,
  takeOverClaimId?: string,
): Promise<Claim> {
  const claimId = randomUUID();
  const takeOver = takeOverClaimId === undefined ? '' : ' OR claimId = :takeOver';
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...idempotencyKeys.idempotencyKey(scopeHash),
          requestHash,
          claimId,
          state: 'in_progress',
          claimedUntil: nowMs + CLAIM_TIMEOUT_MS,
          expiresAt: Math.floor(nowMs / 1000) + IDEMPOTENCY_WINDOW_SECONDS,
        },
        ConditionExpression: `attribute_not_exists(pk) OR expiresAt < :nowSeconds OR (#state = :inProgress AND claimedUntil < :now)${takeOver}`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':nowSeconds': Math.floor(nowMs / 1000),
          ':inProgress': 'in_progress',
          ':now': nowMs,
          ...(takeOverClaimId === undefined ? {} : { ':takeOver': takeOverClaimId }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The condition failed, so the record exists and came back with the failure.
    const item = parseItem('idempotency record', claimedRecordSchema, itemOfFailedCondition(error) ?? {});
    if (item.claimId === claimId) return { claimed: true };
    return { claimed: false, requestHash: item.requestHash, claimId: item.claimId, sealedAnswer: item.sealedAnswer };
  }
}

/** A completed record: the sealed answer, and what erasure needs to find it. */
export interface CompletedRecord {
  sealedAnswer: Uint8Array;
  /** The gallery the request concerned: the record is then listed under it (GSI1). */
  gallery?: { tenantId: string; token: string };
  /** The persons and orders the answer carries (string sets; left out when empty). */
  personIds: readonly string[];
  orderIds: readonly string[];
}

/** What completing a record sets on it (the string sets are left out when empty: DynamoDB stores no empty set). */
interface CompletedRecordAttributes {
  state: 'completed';
  sealedAnswer: Uint8Array;
  [GSI1.partitionKey]?: string;
  [GSI1.sortKey]?: string;
  personIds?: Set<string>;
  orderIds?: Set<string>;
}

/** What a claim that lost learns of the record it found. */
const claimedRecordSchema = v.object({
  requestHash: v.string(),
  claimId: v.optional(v.string()),
  sealedAnswer: v.optional(v.instance(Uint8Array)),
});

/** What listIdempotencyRecordsOfGallery projects of a completed record. */
const recordOfGallerySchema = v.object({
  [GSI1.sortKey]: v.string(),
  personIds: v.optional(v.set(v.string())),
  orderIds: v.optional(v.set(v.string())),
});

/** Stores the first answer of a claimed key, sealed, and lists it under its gallery. */
export async function completeIdempotencyKey(scopeHash: string, record: CompletedRecord): Promise<void> {
  const attributes: CompletedRecordAttributes = {
    state: 'completed',
    sealedAnswer: record.sealedAnswer,
    ...(record.gallery
      ? {
          [GSI1.partitionKey]: idempotencyKeys.idempotencyRecordsOfGallery(
            record.gallery.tenantId,
            record.gallery.token,
          ),
          [GSI1.sortKey]: scopeHash,
        }
      : {}),
    ...(record.personIds.length > 0 ? { personIds: new Set(record.personIds) } : {}),
    ...(record.orderIds.length > 0 ? { orderIds: new Set(record.orderIds) } : {}),
  };
  const set = setClause(attributes);
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: idempotencyKeys.idempotencyKey(scopeHash),
      UpdateExpression: `${set.expression} REMOVE claimedUntil`,
      ExpressionAttributeNames: set.names,
      ExpressionAttributeValues: set.values,
    }),
  );
}

/** Frees a key whose request failed on the server's side, so that the client's retry runs. */
export async function releaseIdempotencyKey(scopeHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: idempotencyKeys.idempotencyKey(scopeHash) }));
}

/** A completed record listed under a gallery, with the IDs its answer carries. */
export interface IdempotencyRecordOfGallery {
  scopeHash: string;
  personIds: string[];
  orderIds: string[];
}

/**
 * The completed Idempotency-Key records whose request concerned a gallery (GSI1, every page),
 * expired ones not yet removed by TTL included: what erasure deletes.
 */
export async function listIdempotencyRecordsOfGallery(
  tenantId: string,
  token: string,
): Promise<IdempotencyRecordOfGallery[]> {
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk',
    ProjectionExpression: '#sk, personIds, orderIds',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
    ExpressionAttributeValues: { ':pk': idempotencyKeys.idempotencyRecordsOfGallery(tenantId, token) },
  });
  return items.map((stored) => {
    const item = parseItem('idempotency record', recordOfGallerySchema, stored);
    return {
      scopeHash: item[GSI1.sortKey],
      personIds: [...(item.personIds ?? [])],
      orderIds: [...(item.orderIds ?? [])],
    };
  });
}

/** Deletes an Idempotency-Key record (erasure); a later request with its key runs anew. */
export async function deleteIdempotencyRecord(scopeHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: idempotencyKeys.idempotencyKey(scopeHash) }));
}
