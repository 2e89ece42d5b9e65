/**
 * The one retry backoff of the service: exponential with full jitter. Every retry loop of the
 * code (the table's transient errors, contended photo assignments, unprocessed batch deletes)
 * waits here, so that a test can observe the waits of all of them in one place.
 */
export interface BackoffOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Waits before attempt `attempt + 1`: a random time up to base × 2^attempt, capped. */
export function waitBeforeRetry(
  attempt: number,
  options: Pick<BackoffOptions, 'baseDelayMs' | 'maxDelayMs'>,
): Promise<void> {
  const delay = Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, delay));
}

/**
 * Runs `operation` until it succeeds, `shouldRetry` refuses its error, or the attempts are used
 * up; the last error is thrown.
 */
export async function retryWithBackoff<T>(
  operation: () => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  options: BackoffOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= options.attempts || !shouldRetry(error)) throw error;
      await waitBeforeRetry(attempt, options);
    }
  }
}
