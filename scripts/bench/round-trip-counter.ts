import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** One DynamoDB call: the low-level command's name and the document client's input. */
export interface RecordedCall {
  command: string;
  input: Record<string, unknown>;
  failed: boolean;
}

/** The calls of one request, grouped into the waves it waited for one after another. */
export type RecordedWork = RecordedCall[][];

export type RoundTripCounter = ReturnType<typeof installRoundTripCounter>;
export type RoundTripCount = ReturnType<typeof countOf>;

/**
 * Records the calls sent through the shared document client, in the `initialize` step, which runs
 * once per `send` (a call the SDK retries is one round trip). A call that starts while no earlier
 * one is in flight opens a new wave; overlapping calls share one (docs/benchmarks/round-trips.md).
 * One measurement at a time: calls are attributed to whichever request is being measured.
 */
export function installRoundTripCounter(client: DynamoDBDocumentClient) {
  let recording: RecordedWork | undefined;
  let inFlight = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const work = recording;
      if (!work) return next(args);
      if (inFlight === 0) work.push([]);
      const call: RecordedCall = {
        command: String(context.commandName),
        input: structuredClone(args.input as Record<string, unknown>),
        failed: false,
      };
      work.at(-1)!.push(call);
      inFlight += 1;
      try {
        return await next(args);
      } catch (error) {
        call.failed = true;
        throw error;
      } finally {
        inFlight -= 1;
      }
    },
    { step: 'initialize', name: 'count-calls' },
  );
  return {
    /** Records the DynamoDB calls made while `request` runs, as counts and as the calls themselves. */
    async measure<T>(request: () => Promise<T>) {
      if (recording) throw new Error('Round-trip measurements cannot overlap');
      const work: RecordedWork = [];
      recording = work;
      inFlight = 0;
      try {
        const result = await request();
        return { result, count: countOf(work), work };
      } finally {
        recording = undefined;
      }
    },
  };
}

function countOf(work: RecordedWork) {
  const calls = work.flat();
  return {
    /** Calls sent; a transaction cancelled by an access-code collision and sent again counts twice, once failed. */
    calls: calls.length,
    failedCalls: calls.filter((call) => call.failed).length,
    /** Sequential waves (see installRoundTripCounter). */
    depth: work.length,
    /** The operations in the order they started, e.g. `Query`, `TransactWriteItems`. */
    operations: calls.map((call) => call.command.replace(/Command$/, '')),
  };
}
