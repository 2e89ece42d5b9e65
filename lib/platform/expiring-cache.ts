import { now } from '#lib/platform/clock';

/**
 * Values this process read recently, each trusted for `maxAgeMs` after it was stored (by the
 * replaceable clock, lib/platform/clock.ts) and then forgotten. Bounded: past `maxEntries`
 * the oldest entry goes. For data whose staleness is documented (docs/data-model.md#cached-values);
 * never for what must be read fresh (a key's status, capacity).
 */
export class ExpiringCache<Value> {
  private readonly entries = new Map<string, { value: Value; storedAt: number }>();

  constructor(
    readonly maxAgeMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  /** The value stored under `key` less than maxAgeMs ago, or undefined. */
  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = now() - entry.storedAt;
    if (age >= this.maxAgeMs || age < 0) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: Value): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, storedAt: now() });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
