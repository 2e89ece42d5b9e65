/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `work` took, by the monotonic clock, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; milliseconds: number }> {
  const startedAt = process.hrtime.bigint();
  const result = await work();
  return { result, milliseconds: Number(process.hrtime.bigint() - startedAt) / 1e6 };
}

/** `value` rounded to `digits` decimals, for tables and JSON a reader can scan. */
export function rounded(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The `p`th percentile of `values` by nearest rank, as load tools report it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
