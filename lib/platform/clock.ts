/**
 * The time source of everything time-dependent (rate limits, timestamps, expiries).
 * Tests replace it with `setClock` so they never sleep.
 */
export type Clock = () => number;

const systemClock: Clock = () => Date.now();
let current: Clock = systemClock;

/** Milliseconds since the Unix epoch. */
export function now(): number {
  return current();
}

export function nowIso(): string {
  return new Date(current()).toISOString();
}

export function setClock(clock: Clock): void {
  current = clock;
}

export function resetClock(): void {
  current = systemClock;
}
