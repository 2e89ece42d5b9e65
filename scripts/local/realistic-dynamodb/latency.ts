import type { LatencyShape } from './assumptions';

/** z of the 99th percentile of the standard normal distribution. */
const Z_99 = 2.326_347_874;

/**
 * A sampler of a log-normal delay with the shape's median and 99th percentile; `random` gives
 * uniform numbers in [0, 1).
 */
export function logNormalSampler(shape: LatencyShape, random: () => number): () => number {
  const mu = Math.log(shape.p50Ms);
  const sigma = Math.log(shape.p99Ms / shape.p50Ms) / Z_99;
  return () => Math.exp(mu + sigma * standardNormal(random));
}

/** Box–Muller: one standard normal number from two uniform ones. */
function standardNormal(random: () => number): number {
  const u = 1 - random(); // (0, 1]: the logarithm needs a positive number
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
