/**
 * Each partition's write capacity as a token bucket: `unitsPerSecond` refilled continuously, at
 * most one second's worth held. `take` admits all of a request's items or none.
 */
export class PartitionThroughput {
  private readonly buckets = new Map<string, { units: number; at: number }>();

  constructor(
    private readonly unitsPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The partitions of `demands` without room; where all have room, their units are taken. */
  take(demands: readonly { partitionId: string; writeUnits: number }[]): Set<string> {
    const needed = new Map<string, number>();
    for (const { partitionId, writeUnits } of demands)
      if (writeUnits > 0) needed.set(partitionId, (needed.get(partitionId) ?? 0) + writeUnits);
    const at = this.now();
    const short = new Set<string>();
    for (const [partitionId, units] of needed) if (this.available(partitionId, at) < units) short.add(partitionId);
    if (short.size > 0) return short;
    for (const [partitionId, units] of needed)
      this.buckets.set(partitionId, { units: this.available(partitionId, at) - units, at });
    return short;
  }

  private available(partitionId: string, at: number): number {
    const bucket = this.buckets.get(partitionId);
    if (!bucket) return this.unitsPerSecond;
    return Math.min(this.unitsPerSecond, bucket.units + ((at - bucket.at) / 1000) * this.unitsPerSecond);
  }
}
