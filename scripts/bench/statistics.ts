/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `work` took, by the monotonic clock, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; milliseconds: number }> {
  const startedAt = performance.now();
  const result = await work();
  return { result, milliseconds: performance.now() - startedAt };
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

/** Latency and throughput of a load side. */
export interface LoadFigures {
  p50Milliseconds: number;
  p99Milliseconds: number;
  requestsPerSecond: number;
}

/** The figures of `latencies` answered over `seconds`. */
export function loadFiguresOf(latencies: readonly number[], seconds: number): LoadFigures {
  return {
    p50Milliseconds: rounded(percentile(latencies, 50)),
    p99Milliseconds: rounded(percentile(latencies, 99)),
    requestsPerSecond: rounded(latencies.length / seconds, 1),
  };
}
