import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { itemOfFailedCondition } from '#lib/platform/table/retry';
import { ExpiringCache } from '#lib/platform/expiring-cache';
import { rateLimitKeys } from '#lib/rate-limits/store/keys';
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
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

const MAX_ATTEMPTS = 5;

/**
 * A counter's attributes, on an item of its own or on the item it is kept on (an API key's):
 * the theoretical arrival time (ms) and the ID of the last write, absent before the first.
 */
const counterItemSchema = v.object({ tat: v.optional(v.number()), lastWrite: v.optional(v.string()) });

/** The counter an item carries; a CorruptItemError when its attributes are not a counter's. */
export function fromCounterItem(item: StoredItem): v.InferOutput<typeof counterItemSchema> {
  return parseItem('rate limit counter', counterItemSchema, item);
}

/**
 * Last TAT this process saw per key: a hint for which write to try first, never trusted. Past
 * 10,000 keys the one written longest ago goes, so that a busy key keeps its hint.
 */
const lastSeenTat = new ExpiringCache<number>(Number.POSITIVE_INFINITY, 10_000);

/**
 * Takes one request from the key's GCRA counter with conditional writes and no read: the
 * write for the expected state is tried first; when its condition fails, DynamoDB returns
 * the current item (ReturnValuesOnConditionCheckFailure), which decides the next step.
 * Usually one write; two when the state was not the expected one; exact under concurrency.
 */
export async function consumeRateLimit(keyId: string, policy: RateLimitPolicy, now: number): Promise<RateLimitVerdict> {
  const outcome = await consumeOnItem(keyId, { key: rateLimitKeys.rateLimit(keyId), expires: true }, policy, now);
  if ('guardFailed' in outcome) throw new Error('a counter of its own has no guard');
  return outcome.verdict;
}

/**
 * An item whose own attributes must hold before a request may be taken from the counter it
 * carries (the API key's item: active, of the tenant). `condition` is the DynamoDB form,
 * `holds` the same test over an item as read; `consistentRead` reads the item when no write is tried.
 */
export interface CounterGuard {
  condition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
  holds: (item: StoredItem | undefined) => boolean;
  read: () => Promise<StoredItem | undefined>;
}

export type GuardedOutcome =
  { verdict: RateLimitVerdict; item: StoredItem } | { guardFailed: true; item: StoredItem | undefined };

/**
 * Takes one request from a GCRA counter kept on another item, `key`, in the same conditional
 * write that checks `guard` on it: a request the guard refuses writes nothing, and its answer
 * says so with the item as it was. Known exhausted (this process saw the TAT), nothing is
 * written: the guard is checked by reading the item. The item gets no expiry (it is not the
 * counter's own). `counterId` names the counter for the process's TAT hints.
 */
export async function consumeGuardedRateLimit(
  counterId: string,
  key: Record<string, string>,
  guard: CounterGuard,
  policy: RateLimitPolicy,
  now: number,
): Promise<GuardedOutcome> {
  return consumeOnItem(counterId, { key, expires: false, guard }, policy, now);
}

interface CounterPlace {
  key: Record<string, string>;
  /** Whether the write sets the TTL attribute: only on items that are counters and nothing else. */
  expires: boolean;
  guard?: CounterGuard;
}

async function consumeOnItem(
  counterId: string,
  place: CounterPlace,
  policy: RateLimitPolicy,
  now: number,
): Promise<GuardedOutcome> {
  const interval = emissionInterval(policy);
  const tolerance = burstTolerance(policy);
  const expiry: { update: string; values: Record<string, number> } = place.expires
    ? { update: ', expiresAt = :expiresAt', values: { ':expiresAt': counterExpiry(policy, now) } }
    : { update: '', values: {} };
  let knownTat = lastSeenTat.get(counterId);
  let item: StoredItem | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (knownTat !== undefined && knownTat - tolerance > now) {
      if (place.guard) {
        const current = await place.guard.read();
        if (!place.guard.holds(current)) return { guardFailed: true, item: current };
        item = current;
      }
      return { verdict: refusedVerdict(policy, knownTat, now), item: item ?? {} };
    }
    const idle = knownTat === undefined || knownTat <= now;
    const outcome = idle
      ? await writeTat(place, {
          update: `SET tat = :fresh${expiry.update}`,
          condition: 'attribute_not_exists(tat) OR tat <= :now',
          values: { ':fresh': now + interval, ':now': now, ...expiry.values },
        })
      : await writeTat(place, {
          update: `SET tat = tat + :interval${expiry.update}`,
          condition: 'tat > :now AND tat <= :latest',
          values: { ':interval': interval, ':now': now, ':latest': now + tolerance, ...expiry.values },
        });
    if (place.guard && !outcome.written && !place.guard.holds(outcome.item))
      return { guardFailed: true, item: outcome.item };
    item = outcome.item;
    knownTat = outcome.tat;
    rememberLaterTat(counterId, outcome.tat);
    if (outcome.written && outcome.tat !== undefined)
      return { verdict: admittedVerdict(policy, outcome.tat, now), item: item ?? {} };
  }
  // Only reachable under extreme contention on one key: refusing is the safe answer.
  return { verdict: refusedVerdict(policy, (knownTat ?? now) + interval, now), item: item ?? {} };
}

/**
 * One conditional write of the TAT, marked with an ID of its own. When the SDK resends a write
 * whose answer was lost, the mark makes the resend fail its condition instead of taking a
 * second token, and the returned item shows the write was ours. A guard, where the place has
 * one, is part of the condition; the answer is then the whole item, as written or as it was.
 */
async function writeTat(
  place: CounterPlace,
  write: { update: string; condition: string; values: Record<string, number> },
): Promise<{ written: boolean; tat?: number; item?: StoredItem }> {
  const writeId = randomUUID();
  const guard = place.guard;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: place.key,
        UpdateExpression: `${write.update}, lastWrite = :writeId`,
        ConditionExpression: `${guard ? `(${guard.condition}) AND ` : ''}(${write.condition}) AND (attribute_not_exists(lastWrite) OR lastWrite <> :writeId)`,
        ...(guard && Object.keys(guard.names).length > 0 ? { ExpressionAttributeNames: guard.names } : {}),
        ExpressionAttributeValues: { ...write.values, ...(guard?.values ?? {}), ':writeId': writeId },
        ReturnValues: guard ? 'ALL_NEW' : 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const item = Attributes ? fromCounterItem(Attributes) : undefined;
    return { written: true, tat: item?.tat, item: Attributes };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const item = itemOfFailedCondition(error);
    const counter = item ? fromCounterItem(item) : undefined;
    return { written: counter?.lastWrite === writeId, tat: counter?.tat, item };
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
  const { tat } = await writeTat(
    { key: rateLimitKeys.rateLimit(keyId), expires: false },
    {
      update: 'SET tat = tat - :interval',
      condition: 'tat >= :floor',
      values: { ':interval': interval, ':floor': now + interval },
    },
  );
  // Refused (the bucket all but full), the TAT is as it was, and writeTat reports that one.
  rememberTat(keyId, tat);
}

/**
 * The requests the key's counter has left at `now` as this process last saw it (its TAT), or
 * undefined when this process has not seen it. At 0 consumeRateLimit refuses without writing.
 */
export function knownRemaining(keyId: string, policy: RateLimitPolicy, now: number): number | undefined {
  const tat = lastSeenTat.get(keyId);
  if (tat === undefined) return undefined;
  if (tat <= now) return policy.limit;
  return Math.max(0, Math.floor((now + burstTolerance(policy) - tat) / emissionInterval(policy)) + 1);
}

function rememberTat(keyId: string, tat: number | undefined): void {
  if (tat === undefined) lastSeenTat.delete(keyId);
  else lastSeenTat.set(keyId, tat);
}

/**
 * Only a refund moves a TAT back, so of two takes' answers the later TAT is the newer state,
 * whichever answer arrived last: concurrent takes of one key may be answered out of order, and
 * a hint left behind would show room the counter no longer has (lib/http/rate-limit.ts takes
 * a client's counter and its tenant's share at once only where the hint shows room).
 */
function rememberLaterTat(keyId: string, tat: number | undefined): void {
  const known = lastSeenTat.get(keyId);
  rememberTat(keyId, tat !== undefined && known !== undefined ? Math.max(tat, known) : tat);
}

/** The ID of a public budget's counter in a gallery, for one client (or a code, a person, every client). */
export function publicCounterId(
  tenantId: string,
  galleryToken: string | undefined,
  budget: string,
  client: string,
): string {
  return rateLimitKeys.publicRateLimitCounter(tenantId, galleryToken, budget, client);
}

/** The ID of the Stripe platform account's counter (lib/payments/rules/stripe-call-limit.ts). */
export function stripePlatformCounterId(): string {
  return rateLimitKeys.stripePlatformCounter();
}

/** The ID of a tenant's share counter of check-in attempts (lib/tenants/rules/tenant-share.ts). */
export function tenantShareCounterId(tenantId: string): string {
  return rateLimitKeys.tenantShareCounter(tenantId);
}
