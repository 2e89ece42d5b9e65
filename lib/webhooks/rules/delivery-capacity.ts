import { jittered } from '#lib/webhooks/rules/delivery-schedule';

/**
 * Each tenant's fair share of the delivery capacity (docs/events.md#isolation). Every attempt
 * holds one of its tenant's slots while it waits for the endpoint; with all of them taken for
 * about a second, a delivery goes back to the queue for a while instead of holding a delivery
 * function, so that a
 * tenant whose endpoints hang holds at most TENANT_ATTEMPTS_IN_FLIGHT functions, each for at
 * most one attempt's timeout, and leaves the rest to the others.
 */

/** Attempts of one tenant in flight at once, across every delivery function (hard: one slot item each). */
export const TENANT_ATTEMPTS_IN_FLIGHT = 8;
/**
 * Attempts of one subscription in flight at once, so that one hanging endpoint leaves its
 * tenant's other endpoints some slots. Checked on the same read as the free slots, so two
 * attempts starting together may both pass it; the tenant's bound holds all the same.
 */
export const SUBSCRIPTION_ATTEMPTS_IN_FLIGHT = 4;
/**
 * How long a slot stays taken when its attempt never gives it back (a function that died):
 * the delivery function's timeout (infra/function-permissions.ts), which no attempt outlives.
 */
export const ATTEMPT_SLOT_HOLD_MS = 30_000;

/**
 * How an attempt waits for a slot before its message goes back to the queue: 6 tries, the waits
 * between them random up to 100, 200, 400, 800 and 800 ms (about a second in all). A healthy
 * endpoint's burst frees slots within milliseconds; a hanging one's holds a function that long.
 */
export const SLOT_TRIES = 6;
export const SLOT_WAIT = { baseDelayMs: 100, maxDelayMs: 800 } as const;

const FIRST_DEFERRAL_MS = 1_000;
const LONGEST_DEFERRAL_MS = 300_000;

/** A slot in use: which subscription's attempt holds it, and until when at the latest. */
export interface HeldSlot {
  slot: number;
  subscriptionId: string;
  heldUntil: number;
}

/**
 * The slots an attempt of `subscriptionId` may take at `at`, in random order (so that attempts
 * starting together try different ones): none when the tenant or the subscription has its
 * share in flight. A slot held past its time counts as free.
 */
export function freeSlotsFor(
  held: readonly HeldSlot[],
  subscriptionId: string,
  at: number,
  random: () => number = Math.random,
): number[] {
  const live = held.filter((slot) => slot.heldUntil > at);
  if (live.filter((slot) => slot.subscriptionId === subscriptionId).length >= SUBSCRIPTION_ATTEMPTS_IN_FLIGHT)
    return [];
  const taken = new Set(live.map((slot) => slot.slot));
  const free = Array.from({ length: TENANT_ATTEMPTS_IN_FLIGHT }, (_, slot) => slot).filter((slot) => !taken.has(slot));
  for (let index = free.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [free[index], free[other]] = [free[other]!, free[index]!];
  }
  return free;
}

/**
 * How long a delivery waits in the queue after it found no free slot `deferrals` times before:
 * 1 s, doubling up to 5 minutes, jittered by ±25 %, so that a long backlog of a hanging tenant
 * costs fewer receives the longer it lasts.
 */
export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  return jittered(Math.min(LONGEST_DEFERRAL_MS, FIRST_DEFERRAL_MS * 2 ** deferrals), random);
}
