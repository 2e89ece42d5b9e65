import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB calls made while the counter was recording. */
export interface RoundTripCount {
  /** Calls sent (SDK-internal retries of one call are not counted again). */
  calls: number;
  /** Calls that failed, e.g. a transaction cancelled by an access-code collision and sent again. */
  failedCalls: number;
  /** Sequential waves: see `installRoundTripCounter`. */
  depth: number;
  /** The operations in the order they started, e.g. `Query`, `TransactWriteItems`. */
  operations: string[];
}

export interface RoundTripCounter {
  /** Records the DynamoDB calls made while `work` runs. */
  measure<T>(work: () => Promise<T>): Promise<{ result: T; count: RoundTripCount }>;
}

/**
 * Counts the calls sent through the shared document client. The middleware sits in the
 * `initialize` step, which runs once per `send`, so a call the SDK retries is one round trip.
 *
 * Depth counts waves: a call opens a new wave when it starts while no earlier call of the
 * same measurement is still in flight. Calls that overlap (Promise.all, a pool of parallel
 * transactions) share one wave, so depth is the number of round trips a request waits for
 * one after another. Only one measurement may run at a time: the API server runs in this
 * process, and calls are attributed to whichever request is being measured.
 */
export function installRoundTripCounter(client: DynamoDBDocumentClient): RoundTripCounter {
  let recording: RoundTripCount | undefined;
  let inFlight = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const count = recording;
      if (!count) return next(args);
      if (inFlight === 0) count.depth += 1;
      count.calls += 1;
      count.operations.push(String(context.commandName ?? 'unknown').replace(/Command$/, ''));
      inFlight += 1;
      try {
        return await next(args);
      } catch (error) {
        count.failedCalls += 1;
        throw error;
      } finally {
        inFlight -= 1;
      }
    },
    { step: 'initialize', name: 'count-calls' },
  );
  return {
    async measure(work) {
      if (recording) throw new Error('Round-trip measurements cannot overlap');
      const count: RoundTripCount = { calls: 0, failedCalls: 0, depth: 0, operations: [] };
      recording = count;
      inFlight = 0;
      try {
        const result = await work();
        return { result, count };
      } finally {
        recording = undefined;
      }
    },
  };
}
