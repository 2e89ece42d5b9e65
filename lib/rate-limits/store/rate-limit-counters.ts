import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { itemOfFailedCondition } from '#lib/platform/table/retry';
import { keys } from '#lib/platform/table/keys';
import {
  type RateLimitPolicy,
  type RateLimitVerdict,
  admittedVerdict,
  burstTolerance,
  counterExpiry,
  emissionInterval,
  refusedVerdict,
} from '#lib/rate-limits/rules/rate-limit';
import { isConditionFailure } from '#lib/platform/table/store-errors';

const MAX_ATTEMPTS = 5;

/** Last TAT this process saw per key: a hint for which write to try first, never trusted. */
const lastSeenTat = new Map<string, number>();

/**
 * Takes one request from the key's GCRA counter with conditional writes and no read: the
 * write for the expected state is tried first; when its condition fails, DynamoDB returns
 * the current item (ReturnValuesOnConditionCheckFailure), which decides the next step.
 * Usually one write; two when the state was not the expected one; exact under concurrency.
 */
export async function consumeRateLimit(keyId: string, policy: RateLimitPolicy, now: number): Promise<RateLimitVerdict> {
  const interval = emissionInterval(policy);
  const tolerance = burstTolerance(policy);
  let knownTat = lastSeenTat.get(keyId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (knownTat !== undefined && knownTat - tolerance > now) {
      return refusedVerdict(policy, knownTat, now);
    }
    const idle = knownTat === undefined || knownTat <= now;
    const outcome = idle
      ? await writeTat(keyId, {
          update: 'SET tat = :fresh, expiresAt = :expiresAt',
          condition: 'attribute_not_exists(tat) OR tat <= :now',
          values: { ':fresh': now + interval, ':now': now, ':expiresAt': counterExpiry(policy, now) },
        })
      : await writeTat(keyId, {
          update: 'SET tat = tat + :interval, expiresAt = :expiresAt',
          condition: 'tat > :now AND tat <= :latest',
          values: { ':interval': interval, ':now': now, ':latest': now + tolerance, ':expiresAt': counterExpiry(policy, now) },
        });
    knownTat = outcome.tat;
    rememberTat(keyId, outcome.tat);
    if (outcome.written && outcome.tat !== undefined) return admittedVerdict(policy, outcome.tat, now);
  }
  // Only reachable under extreme contention on one key: refusing is the safe answer.
  return refusedVerdict(policy, (knownTat ?? now) + interval, now);
}

/**
 * One conditional write of the TAT, marked with an ID of its own. When the SDK resends a write
 * whose answer was lost, the mark makes the resend fail its condition instead of taking a
 * second token, and the returned item shows the write was ours.
 */
async function writeTat(
  keyId: string,
  write: { update: string; condition: string; values: Record<string, number> },
): Promise<{ written: boolean; tat?: number }> {
  const writeId = randomUUID();
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.rateLimit(keyId),
        UpdateExpression: `${write.update}, lastWrite = :writeId`,
        ConditionExpression: `(${write.condition}) AND (attribute_not_exists(lastWrite) OR lastWrite <> :writeId)`,
        ExpressionAttributeValues: { ...write.values, ':writeId': writeId },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { written: true, tat: Attributes?.tat as number };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const item = itemOfFailedCondition(error);
    const tat = typeof item?.tat === 'number' ? item.tat : undefined;
    return { written: item?.lastWrite === writeId, tat };
  }
}

/**
 * Gives back one request taken from the key's counter: a lookup is charged before it is known
 * whether it counts (lib/http/public-rate-limit.ts, wrong photo lookups) and refunded when it
 * does not. The TAT moves back one interval where it is at least that far ahead of `now`;
 * nearer, the bucket is all but full and nothing is given back. Marked like writeTat, so a
 * resent refund gives back nothing twice.
 */
export async function refundRateLimit(keyId: string, policy: RateLimitPolicy, now: number): Promise<void> {
  const interval = emissionInterval(policy);
  const { tat } = await writeTat(keyId, {
    update: 'SET tat = tat - :interval',
    condition: 'tat >= :floor',
    values: { ':interval': interval, ':floor': now + interval },
  });
  // Refused (the bucket all but full), the TAT is as it was, and writeTat reports that one.
  rememberTat(keyId, tat);
}

function rememberTat(keyId: string, tat: number | undefined): void {
  if (lastSeenTat.size > 10_000) lastSeenTat.clear();
  if (tat === undefined) lastSeenTat.delete(keyId);
  else lastSeenTat.set(keyId, tat);
}

/** The ID of a public budget's counter in a gallery, for one client (or a code, a person, every client). */
export function publicCounterId(tenantId: string, galleryToken: string, budget: string, client: string): string {
  return keys.publicRateLimitCounter(tenantId, galleryToken, budget, client);
}
