import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** One DynamoDB call: the low-level command's name and the document client's input. */
export interface RecordedCall {
  command: string;
  input: Record<string, unknown>;
  failed: boolean;
  /** Items DynamoDB read (a Query's or Scan's before any filter), the read units it reported, and the bytes of the items it answered (as JSON). */
  reads?: { items: number; units: number; bytes: number };
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
  let withCapacity = false;
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
      if (withCapacity) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      try {
        const result = await next(args);
        call.reads = readsOf(result.output as Record<string, unknown>);
        return result;
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
    /** Records the DynamoDB calls made while `request` runs, as counts and as the calls themselves; `capacity`: each asking for its ConsumedCapacity. */
    async measure<T>(request: () => Promise<T>, { capacity = false } = {}) {
      if (recording) throw new Error('Round-trip measurements cannot overlap');
      const work: RecordedWork = [];
      recording = work;
      withCapacity = capacity;
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
    ...(['items', 'units', 'bytes'] as const).reduce(
      (sums, name) => ({ ...sums, [`${name}Read`]: calls.reduce((sum, call) => sum + (call.reads?.[name] ?? 0), 0) }),
      {} as Record<'itemsRead' | 'unitsRead' | 'bytesRead', number>,
    ),
  };
}

/** What one answer read: its items (a Query's or Scan's scanned ones), its read units (where DynamoDB reported them) and its items' bytes as JSON. */
function readsOf(output: Record<string, unknown>) {
  type Items = Record<string, unknown>[];
  const batches = (responses: unknown) => Object.values((responses ?? {}) as Record<string, Items>).flat();
  const answered: Items =
    'Items' in output
      ? (output.Items as Items)
      : 'Item' in output && output.Item
        ? [output.Item as Record<string, unknown>]
        : Array.isArray(output.Responses)
          ? (output.Responses as { Item?: Record<string, unknown> }[]).flatMap((response) =>
              response.Item ? [response.Item] : [],
            )
          : batches(output.Responses);
  const consumed = [output.ConsumedCapacity ?? []].flat() as { ReadCapacityUnits?: number; CapacityUnits?: number }[];
  const isRead = 'Items' in output || 'Item' in output || 'Responses' in output;
  return {
    items: typeof output.ScannedCount === 'number' ? output.ScannedCount : answered.length,
    units: isRead ? consumed.reduce((sum, entry) => sum + (entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0), 0) : 0,
    bytes: answered.reduce((sum, item) => sum + JSON.stringify(item).length, 0),
  };
}
