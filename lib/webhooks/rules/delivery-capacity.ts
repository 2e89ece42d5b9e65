import { jittered } from '#lib/webhooks/rules/delivery-schedule';

/**
 * Each tenant's fair share of the delivery capacity (docs/events.md#isolation). Every attempt
 * holds one of its tenant's slots while it waits for the endpoint. A delivery finding none free
 * waits in its function only while a slot is likely to free soon (some holder started moments
 * ago); when every holder has been waiting a while (endpoints that hang), it goes back to the
 * queue at once. A tenant whose endpoints hang thus keeps at most TENANT_ATTEMPTS_IN_FLIGHT
 * delivery functions busy, each for at most one attempt's timeout, and leaves the rest to the
 * others; a healthy endpoint's attempts end in milliseconds and free their slots as fast.
 */

/**
 * Attempts of one tenant in flight at once, across every delivery function (hard: one slot item
 * each). Under half the stack's 50 delivery functions (infra/webhook-delivery.ts), so that a
 * tenant whose every endpoint hangs, with each attempt in a batch of its own, leaves most
 * functions to the other tenants; a test holds the two in that order.
 */
export const TENANT_ATTEMPTS_IN_FLIGHT = 24;
/**
 * Attempts of one subscription in flight at once, so that one hanging endpoint leaves its
 * tenant's other endpoints some slots. Checked on the same read as the free slots, so two
 * attempts starting together may both pass it; the tenant's bound holds all the same.
 * 16 at once is ~450 deliveries a second to an endpoint answering in 35 ms, 160 at 100 ms.
 */
export const SUBSCRIPTION_ATTEMPTS_IN_FLIGHT = 16;
/**
 * How long a slot stays taken when its attempt never gives it back (a function that died):
 * the delivery function's timeout (infra/function-permissions.ts), which no attempt outlives.
 */
export const ATTEMPT_SLOT_HOLD_MS = 30_000;
/**
 * A slot holder younger than this is expected to give its slot back soon (a healthy endpoint
 * answers in milliseconds); while one is, a delivery finding no slot waits for it in process.
 */
export const SLOT_FREES_SOON_MS = 1_000;

/**
 * How an attempt waits for a slot before its message goes back to the queue: up to 10 tries,
 * the waits between them random up to 20, 40, 80, 160, then 200 ms (1.3 s at most),
 * and only while some holder is younger than SLOT_FREES_SOON_MS.
 */
export const SLOT_TRIES = 10;
/** Free slots an attempt tries to take after one read of the slots, before it reads them again. */
export const SLOT_PUTS_PER_READ = 2;
export const SLOT_WAIT = { baseDelayMs: 20, maxDelayMs: 200 } as const;

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
 * Whether a slot that keeps `subscriptionId` out is likely to free soon: some attempt holding
 * one of the slots in its way (its subscription's when that one has its share in flight, else
 * any of the tenant's) started less than SLOT_FREES_SOON_MS before `at`.
 */
export function slotFreesSoon(held: readonly HeldSlot[], subscriptionId: string, at: number): boolean {
  const live = held.filter((slot) => slot.heldUntil > at);
  const own = live.filter((slot) => slot.subscriptionId === subscriptionId);
  const inTheWay = own.length >= SUBSCRIPTION_ATTEMPTS_IN_FLIGHT ? own : live;
  return inTheWay.some((slot) => slot.heldUntil - ATTEMPT_SLOT_HOLD_MS > at - SLOT_FREES_SOON_MS);
}

/**
 * How long a delivery waits in the queue after it found no free slot `deferrals` times before:
 * 1 s, doubling up to 5 minutes, jittered by ±25 %, so that a long backlog of a hanging tenant
 * costs fewer receives the longer it lasts.
 */
export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  return jittered(Math.min(LONGEST_DEFERRAL_MS, FIRST_DEFERRAL_MS * 2 ** deferrals), random);
}
