import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '#lib/platform/table/client';
import { IDEMPOTENCY_KEY_PREFIX, SINGLE_SUBJECT_PREFIX, idempotencyKeys } from '#lib/idempotency/store/keys';
import { queryAll, setClause } from '#lib/platform/table/queries';
import { type PageVisitor, forEachQueryPage } from '#lib/platform/table/query-pages';
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

/** What the reads of a gallery's records project of a completed record. */
const recordOfGallerySchema = v.object({
  pk: v.string(),
  personIds: v.optional(v.set(v.string())),
  orderIds: v.optional(v.set(v.string())),
});

/**
 * Stores the first answer of a claimed key, sealed, and lists it under its gallery: under the one
 * person or the one order it names, when it names one alone (idempotencyKeys.recordInGallery).
 */
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
          [GSI1.sortKey]: idempotencyKeys.recordInGallery(scopeHash, record),
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

const RECORD_PROJECTION = {
  ProjectionExpression: 'pk, personIds, orderIds',
  ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
};

function fromRecordOfGallery(stored: Record<string, unknown>): IdempotencyRecordOfGallery {
  const item = parseItem('idempotency record', recordOfGallerySchema, stored);
  return {
    scopeHash: item.pk.slice(IDEMPOTENCY_KEY_PREFIX.length),
    personIds: [...(item.personIds ?? [])],
    orderIds: [...(item.orderIds ?? [])],
  };
}

/**
 * The completed Idempotency-Key records whose request concerned a gallery (GSI1, every page),
 * expired ones not yet removed by TTL included. Holds them all: for tests and small galleries;
 * erasure pages with forEachIdempotencyRecordPage.
 */
export async function listIdempotencyRecordsOfGallery(
  tenantId: string,
  token: string,
): Promise<IdempotencyRecordOfGallery[]> {
  const records: IdempotencyRecordOfGallery[] = [];
  await forEachIdempotencyRecordPage({ tenantId, token }, 1000, (page) => {
    records.push(...page);
  });
  return records;
}

/**
 * Every completed record of a gallery, a page of at most `pageSize` at a time (erasure of a
 * whole gallery deletes as it goes: the next page is read after `visit` has finished).
 */
export function forEachIdempotencyRecordPage(
  gallery: { tenantId: string; token: string },
  pageSize: number,
  visit: PageVisitor<IdempotencyRecordOfGallery>,
): Promise<void> {
  return forEachQueryPage(
    {
      ...RECORD_PROJECTION,
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeValues: {
        ':pk': idempotencyKeys.idempotencyRecordsOfGallery(gallery.tenantId, gallery.token),
      },
    },
    pageSize,
    (items) => visit(items.map(fromRecordOfGallery)),
  );
}

/**
 * The completed records of a gallery that may name these persons or orders: those listed under
 * each of them alone (one Query each), and those naming several persons or orders, which only
 * imports answer (and records written before the per-person listing; all expire after 24 hours),
 * read a page at a time. The caller keeps those that name what it erases.
 */
export async function idempotencyRecordsNaming(
  gallery: { tenantId: string; token: string },
  ids: { personIds: Iterable<string>; orderIds: Iterable<string> },
): Promise<IdempotencyRecordOfGallery[]> {
  const partition = idempotencyKeys.idempotencyRecordsOfGallery(gallery.tenantId, gallery.token);
  const inRange = (condition: string, value: string) =>
    queryAll({
      ...RECORD_PROJECTION,
      IndexName: GSI1.indexName,
      KeyConditionExpression: `#pk = :pk AND ${condition}`,
      ExpressionAttributeNames: { ...RECORD_PROJECTION.ExpressionAttributeNames, '#sk': GSI1.sortKey },
      ExpressionAttributeValues: { ':pk': partition, ':sk': value },
    });
  const prefixes = [
    ...[...ids.personIds].map((personId) => idempotencyKeys.recordsOfPerson(personId)),
    ...[...ids.orderIds].map((orderId) => idempotencyKeys.recordsOfOrder(orderId)),
  ];
  const single = await Promise.all(prefixes.map((prefix) => inRange('begins_with(#sk, :sk)', prefix)));
  const several = await inRange('#sk < :sk', SINGLE_SUBJECT_PREFIX);
  return [...single.flat(), ...several].map(fromRecordOfGallery);
}

/** Deletes an Idempotency-Key record (erasure); a later request with its key runs anew. */
export async function deleteIdempotencyRecord(scopeHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: idempotencyKeys.idempotencyKey(scopeHash) }));
}
