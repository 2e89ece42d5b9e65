import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import { itemOfFailedCondition } from '#lib/db/retry';

/** How long a key's first answer is kept (Stripe's convention). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/** A claim whose request has not finished in this time is considered abandoned (crashed function). */
const CLAIM_TIMEOUT_MS = 60_000;

export interface StoredAnswer {
  statusCode: number;
  members: Record<string, unknown>;
}

export type Claim =
  | { claimed: true }
  | { claimed: false; requestHash: string; answer?: StoredAnswer };

/**
 * Claims a key for this request with one conditional write: free, expired or abandoned keys
 * are taken; otherwise the current record comes back with the failed condition. The claim
 * carries an ID of its own: when the SDK resends a claim whose answer was lost, the resend
 * fails its condition on our own record, which is still ours.
 */
export async function claimIdempotencyKey(scopeHash: string, requestHash: string, nowMs: number): Promise<Claim> {
  const claimId = randomUUID();
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.idempotencyKey(scopeHash),
          requestHash,
          claimId,
          state: 'in_progress',
          claimedUntil: nowMs + CLAIM_TIMEOUT_MS,
          expiresAt: Math.floor(nowMs / 1000) + IDEMPOTENCY_WINDOW_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :nowSeconds OR (#state = :inProgress AND claimedUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(nowMs / 1000), ':inProgress': 'in_progress', ':now': nowMs },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const item = itemOfFailedCondition(error) ?? {};
    if (item.claimId === claimId) return { claimed: true };
    return { claimed: false, requestHash: item.requestHash, answer: item.answer ? JSON.parse(item.answer) : undefined };
  }
}

export async function completeIdempotencyKey(scopeHash: string, answer: StoredAnswer): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.idempotencyKey(scopeHash),
      UpdateExpression: 'SET #state = :completed, answer = :answer REMOVE claimedUntil',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':completed': 'completed', ':answer': JSON.stringify(answer) },
    }),
  );
}

/** Frees a key whose request failed on the server's side, so that the client's retry runs. */
export async function releaseIdempotencyKey(scopeHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: keys.idempotencyKey(scopeHash) }));
}
