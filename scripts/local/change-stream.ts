import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { STREAM_RETRY_ATTEMPTS } from '../../infra/failure-queue';
import type { LocalFailureStore } from './local-failure-store';

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/** The longest wait between two retries of a failing record (they start at `pollMs` and double). */
const MAX_RETRY_WAIT_MS = 1_000;

export interface RunningChangeStream {
  stop(): Promise<void>;
  /** Resolves once every record written so far has been handled. */
  caughtUp(): Promise<void>;
  /** How many times the handler failed a batch (it is handed over again from the failed record). */
  failedHandovers(): number;
  /** The records given up on after their retries, in the order they were set aside. */
  setAside(): DynamoDBRecord[];
}

/**
 * Plays Lambda's DynamoDB stream event source locally, with the stack's policy
 * (infra/failure-queue.ts): reads DynamoDB Local's real stream of the table, shard by shard, and
 * hands each batch to the handler in Lambda's event shape. A batch the handler throws on is
 * halved (bisecting) until the record that fails is alone; a batch that reports failed records is
 * passed again from the first of them, so a handler that dies half-way through a batch loses
 * nothing. A record that fails more than `retries` times (default STREAM_RETRY_ATTEMPTS) is set
 * aside, into `failures` when given (as Lambda sends it to the failure queue), and the shard goes
 * on with the next record.
 */
export async function startChangeStream(options: {
  endpoint: string;
  tableName: string;
  handler: StreamHandler;
  pollMs?: number;
  batchSize?: number;
  /**
   * The event source's filter: only the records it passes are handed over, in batches of
   * `batchSize` of them, as Lambda filters before it batches; the others count as handled.
   */
  filter?: (record: DynamoDBRecord) => boolean;
  /** Retries of a failing record before it is set aside. */
  retries?: number;
  /** Where set-aside records are kept for `ops replay`, under `handlerName`. */
  failures?: LocalFailureStore;
  handlerName?: string;
}): Promise<RunningChangeStream> {
  const retries = options.retries ?? STREAM_RETRY_ATTEMPTS;
  const pollMs = options.pollMs ?? 50;
  const batchSize = options.batchSize ?? 100;
  // With a filter, more is read at once (GetRecords' most), so that a batch fills with passed records.
  const readLimit = options.filter ? 1000 : batchSize;
  const tables = new DynamoDBClient({ endpoint: options.endpoint });
  const { Table } = await tables.send(new DescribeTableCommand({ TableName: options.tableName }));
  tables.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint });

  /** Per shard: the iterator to read next, or null once the shard is closed and read to its end. */
  const iterators = new Map<string, string | null>();
  let stopped = false;
  let failedHandovers = 0;
  const setAside: DynamoDBRecord[] = [];
  /** Failures of each record (by sequence number) that failed alone or first. */
  const failuresOf = new Map<string, number>();
  let idleWaiters: (() => void)[] = [];
  let sweepRunning: Promise<void> = Promise.resolve();

  const discoverShards = async () => {
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
        // A child shard is read once its parent is read to the end, so records keep their order per item.
        if (shard.ParentShardId && iterators.has(shard.ParentShardId) && iterators.get(shard.ParentShardId) !== null)
          continue;
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shard.ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }),
        );
        iterators.set(shard.ShardId, ShardIterator ?? null);
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
  };

  /** Keeps a record that failed more than `retries` times, and forgets its count. */
  const putAside = (record: DynamoDBRecord, reason: string) => {
    const sequence = record.dynamodb!.SequenceNumber!;
    options.failures?.keep({
      handler: options.handlerName ?? 'unknown',
      source: 'stream',
      failedAt: new Date().toISOString(),
      attempts: failuresOf.get(sequence) ?? retries + 1,
      reason,
      event: { Records: [record] },
    });
    failuresOf.delete(sequence);
    setAside.push(record);
  };

  /**
   * Hands `records` to the handler until it takes them all, bisecting a batch it throws on and
   * setting aside a record that failed more than `retries` times.
   */
  const deliver = async (records: DynamoDBRecord[]): Promise<void> => {
    let remaining = records;
    while (remaining.length > 0 && !stopped) {
      let failedAt: string | undefined;
      let threw = false;
      try {
        const response = await options.handler({ Records: remaining });
        failedAt = response?.batchItemFailures?.[0]?.itemIdentifier;
      } catch {
        threw = true;
      }
      if (!threw && failedAt === undefined) return;
      failedHandovers += 1;
      if (threw && remaining.length > 1) {
        // Lambda's bisecting: each half on its own, in order, until the record that fails is alone.
        const half = Math.ceil(remaining.length / 2);
        await deliver(remaining.slice(0, half));
        remaining = remaining.slice(half);
        continue;
      }
      const index = threw
        ? 0
        : Math.max(
            0,
            remaining.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt),
          );
      remaining = remaining.slice(index);
      const sequence = remaining[0]!.dynamodb!.SequenceNumber!;
      const failures = (failuresOf.get(sequence) ?? 0) + 1;
      failuresOf.set(sequence, failures);
      if (failures > retries) {
        putAside(remaining[0]!, threw ? 'Error' : 'batchItemFailures');
        remaining = remaining.slice(1);
        continue;
      }
      // Backing off as Lambda does, so that a short outage (DynamoDB Local busy) is outlasted, not set aside.
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs * 2 ** (failures - 1), MAX_RETRY_WAIT_MS)));
    }
  };

  /** Per shard: the last record handed over, so that a lost iterator resumes after it. */
  const lastSequence = new Map<string, string>();

  /**
   * The next records of a shard. An iterator that DynamoDB Local no longer takes (expired, or
   * "trimmed" while two readers read the same shard) is replaced by a new one after the last
   * record handed over, as Lambda's event source would resume.
   */
  const readShard = async (shardId: string, iterator: string) => {
    try {
      return await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: readLimit }));
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'TrimmedDataAccessException' && name !== 'ExpiredIteratorException') throw error;
      const after = lastSequence.get(shardId);
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand(
          after === undefined
            ? { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }
            : {
                StreamArn: streamArn,
                ShardId: shardId,
                ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
                SequenceNumber: after,
              },
        ),
      );
      return { Records: [], NextShardIterator: ShardIterator };
    }
  };

  /** One pass over every shard; true when some shard had records. */
  const sweep = async (): Promise<boolean> => {
    await discoverShards();
    let sawRecords = false;
    for (const [shardId, iterator] of iterators) {
      if (iterator === null || stopped) continue;
      const { Records = [], NextShardIterator } = await readShard(shardId, iterator);
      if (Records.length > 0) {
        sawRecords = true;
        const passed = Records.map(toLambdaRecord).filter(options.filter ?? (() => true));
        for (let start = 0; start < passed.length; start += batchSize)
          await deliver(passed.slice(start, start + batchSize));
        lastSequence.set(shardId, Records.at(-1)!.dynamodb!.SequenceNumber!);
      }
      iterators.set(shardId, NextShardIterator ?? null);
    }
    return sawRecords;
  };

  const loop = async () => {
    while (!stopped) {
      // A pass that failed (DynamoDB Local busy, or stopping) is not idle: it may have left records unread.
      const pass = sweep().then(
        (saw) => (saw ? 'records' : 'idle'),
        () => 'failed',
      );
      sweepRunning = pass.then(() => undefined);
      const outcome = await pass;
      if (outcome === 'idle') {
        const waiting = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiting) resolve();
      }
      if (outcome !== 'records') await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  void loop();

  return {
    async stop() {
      stopped = true;
      await sweepRunning;
      streams.destroy();
      for (const resolve of idleWaiters) resolve();
    },
    failedHandovers: () => failedHandovers,
    setAside: () => [...setAside],
    caughtUp: () =>
      new Promise<void>((resolve) => {
        // Two idle passes: the first may have started before the caller's last write.
        let passes = 0;
        const wait = () => {
          idleWaiters.push(() => (++passes >= 2 ? resolve() : wait()));
        };
        wait();
      }),
  };
}

type AttributeValue = Record<string, unknown>;

/**
 * The Streams client reads an empty map attribute (`{"M":{}}` on the wire) as `{}`, which no
 * unmarshaller accepts; Lambda hands it over as `{ M: {} }`. This puts the map back, at any depth.
 */
function withEmptyMaps(image: Record<string, AttributeValue> | undefined): Record<string, AttributeValue> | undefined {
  if (!image) return image;
  const repair = (value: AttributeValue): AttributeValue => {
    if (Object.keys(value).length === 0) return { M: {} };
    if (value.M) return { M: withEmptyMaps(value.M as Record<string, AttributeValue>) };
    if (Array.isArray(value.L)) return { L: (value.L as AttributeValue[]).map(repair) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, repair(value)]));
}

/** A record of the Streams API in the shape Lambda hands to a stream function (`ops replay` reads records back in it too). */
export function toLambdaRecord(record: StreamRecord): DynamoDBRecord {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  const images = record.dynamodb as
    { NewImage?: Record<string, AttributeValue>; OldImage?: Record<string, AttributeValue> } | undefined;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    dynamodb: {
      ...(record.dynamodb as NonNullable<DynamoDBRecord['dynamodb']>),
      NewImage: withEmptyMaps(images?.NewImage) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      OldImage: withEmptyMaps(images?.OldImage) as NonNullable<DynamoDBRecord['dynamodb']>['OldImage'],
      ApproximateCreationDateTime: created ? Math.floor(new Date(created).getTime() / 1000) : undefined,
    },
  };
}
