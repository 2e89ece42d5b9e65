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

/** `work` on each of `items`, one at a time, `rounds` times: each call's milliseconds, the last round's results, CPU per call. */
export async function timeEach<Item, Result>(
  items: readonly Item[],
  rounds: number,
  work: (item: Item) => Promise<Result>,
) {
  const milliseconds: number[] = [];
  let results: Result[] = [];
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < rounds; round += 1) {
    results = [];
    for (const item of items) {
      const call = await timed(() => work(item));
      results.push(call.result);
      milliseconds.push(call.milliseconds);
    }
  }
  return { milliseconds, results, cpuMillisecondsPerCall: cpuMillisecondsSince(cpuBefore) / milliseconds.length };
}

/** CPU milliseconds (all threads) this process spent since `before`. */
export function cpuMillisecondsSince(before: NodeJS.CpuUsage): number {
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / 1000;
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

/** The median and the 99th percentile of `latencies`, rounded. */
export function latencyPercentiles(latencies: readonly number[]) {
  return { p50Milliseconds: rounded(percentile(latencies, 50)), p99Milliseconds: rounded(percentile(latencies, 99)) };
}

/** Latency and throughput of `latencies` answered over `seconds`: a load side's figures. */
export function loadFiguresOf(latencies: readonly number[], seconds: number) {
  return { ...latencyPercentiles(latencies), requestsPerSecond: rounded(latencies.length / seconds, 1) };
}

/**
 * `count` calls of `start` begun at `ratePerSecond` whatever the answers, each given the time it
 * was due (so that a start the busy thread delayed counts against it); the seconds until all ended.
 */
export async function startAtRate(
  count: number,
  ratePerSecond: number,
  start: (index: number, due: number) => Promise<void>,
): Promise<number> {
  const running: Promise<void>[] = [];
  const startedAt = performance.now();
  for (let index = 0; index < count; index += 1) {
    const due = startedAt + (index * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(start(index, due));
  }
  await Promise.all(running);
  return (performance.now() - startedAt) / 1000;
}
