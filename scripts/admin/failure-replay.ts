/**
 * `ops replay` (docs/deployment.md#failure-replay): runs what a stream consumer or the photo
 * ingest gave up on through its handler again, in this process, and forgets each failure once
 * the handler took it. Two sources: the local stack's failure store, and in AWS the functions'
 * failure queues (the stack's FailureQueues output, as FAILURE_QUEUES).
 */
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { REPLAYABLE_HANDLERS } from '#lib/http/handlers';
import { toLambdaRecord } from '../local/change-stream';
import { LocalFailureStore } from '../local/local-failure-store';
import { UsageError } from '../cli-kit/cli-errors';

export type LambdaHandler = (event: unknown) => Promise<unknown>;
/** Loads a function's handler by name; the CLI imports functions/<name>.ts, tests pass their own. */
export type HandlerLoader = (name: string) => Promise<LambdaHandler>;

export const loadFunctionHandler: HandlerLoader = async (name) => {
  if (!(REPLAYABLE_HANDLERS as readonly string[]).includes(name))
    throw new UsageError(`No failures are kept for ${name}`);
  return ((await import(`../../functions/${name}`)) as { handler: LambdaHandler }).handler;
};

/** What became of one failure. */
export interface ReplayOutcome {
  id: string;
  handler: string;
  source: 'stream' | 'async';
  /** replayed: the handler took it and it is gone; failed: kept for the next replay; expired: its records left the stream (24 hours). */
  outcome: 'replayed' | 'failed' | 'expired' | 'listed';
  detail?: string;
}

/** Runs the event through the handler; a stream handler that reports failed records has failed it too. */
async function runThrough(handler: LambdaHandler, event: unknown): Promise<string | undefined> {
  try {
    const response = (await handler(event)) as Partial<DynamoDBBatchResponse> | undefined;
    const failed = response?.batchItemFailures?.length ?? 0;
    return failed > 0 ? `${failed} record(s) reported failed` : undefined;
  } catch (error) {
    return (error as Error)?.name ?? 'Error';
  }
}

/** Replays (or with `dryRun` lists) every failure in the local store, oldest first, optionally of one handler only. */
export async function replayLocalFailures(
  directory: string,
  options: { only?: string; dryRun?: boolean; loadHandler?: HandlerLoader } = {},
): Promise<ReplayOutcome[]> {
  const store = new LocalFailureStore(directory);
  const loadHandler = options.loadHandler ?? loadFunctionHandler;
  const outcomes: ReplayOutcome[] = [];
  for (const failure of store.list()) {
    if (options.only && failure.handler !== options.only) continue;
    const base = { id: failure.id, handler: failure.handler, source: failure.source };
    if (options.dryRun) {
      outcomes.push({
        ...base,
        outcome: 'listed',
        detail: `${failure.reason}, ${failure.attempts} attempts, ${failure.failedAt}`,
      });
      continue;
    }
    const problem = await runThrough(await loadHandler(failure.handler), failure.event);
    if (problem === undefined) store.remove(failure.id);
    outcomes.push({ ...base, outcome: problem === undefined ? 'replayed' : 'failed', detail: problem });
  }
  return outcomes;
}

/** The on-failure record Lambda sends for a stream batch: where the records are, not the records. */
interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  streamArn: string;
  batchSize?: number;
}

/** Reads a failed batch's records back from the stream: from its first sequence number to its last. */
async function readBatch(streams: DynamoDBStreamsClient, batch: StreamBatchInfo): Promise<DynamoDBRecord[]> {
  const { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: batch.streamArn,
      ShardId: batch.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: batch.startSequenceNumber,
    }),
  );
  const records: DynamoDBRecord[] = [];
  const end = BigInt(batch.endSequenceNumber);
  let iterator = ShardIterator;
  // A shard's records come in order; a few empty reads end the search on a quiet shard.
  for (let emptyReads = 0; iterator && emptyReads < 5;) {
    const { Records = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }),
    );
    if (Records.length === 0) emptyReads += 1;
    for (const record of Records) {
      if (BigInt(record.dynamodb!.SequenceNumber!) > end) return records;
      records.push(toLambdaRecord(record));
    }
    if (records.length > 0 && BigInt(records.at(-1)!.dynamodb!.SequenceNumber!) >= end) return records;
    iterator = NextShardIterator;
  }
  return records;
}

/**
 * Replays (or with `dryRun` lists) the messages of the functions' failure queues, given as
 * `{ handler: queueUrl }` (the FailureQueues output). An asynchronous failure holds the event
 * itself (`requestPayload`); a stream failure names its records, which are read back from the
 * stream while it holds them (24 hours). A message is deleted once its handler took it; one that
 * failed again shows up after the queue's visibility timeout.
 */
export async function replayQueuedFailures(
  queues: Record<string, string>,
  options: { only?: string; dryRun?: boolean; loadHandler?: HandlerLoader; maxMessages?: number } = {},
): Promise<ReplayOutcome[]> {
  const sqs = new SQSClient({});
  const streams = new DynamoDBStreamsClient({});
  const loadHandler = options.loadHandler ?? loadFunctionHandler;
  const outcomes: ReplayOutcome[] = [];
  try {
    for (const [handlerName, queueUrl] of Object.entries(queues)) {
      if (options.only && handlerName !== options.only) continue;
      const seen = new Set<string>();
      for (let round = 0; round < Math.ceil((options.maxMessages ?? 100) / 10); round += 1) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            VisibilityTimeout: options.dryRun ? 1 : 300,
          }),
        );
        const fresh = Messages.filter((message) => !seen.has(message.MessageId!));
        if (fresh.length === 0) break;
        for (const message of fresh) {
          seen.add(message.MessageId!);
          const body = JSON.parse(message.Body ?? '{}') as {
            requestPayload?: unknown;
            DDBStreamBatchInfo?: StreamBatchInfo;
          };
          const source = body.DDBStreamBatchInfo ? 'stream' : 'async';
          const base = { id: message.MessageId!, handler: handlerName, source } as const;
          if (options.dryRun) {
            outcomes.push({ ...base, outcome: 'listed' });
            continue;
          }
          let event: unknown = body.requestPayload;
          if (body.DDBStreamBatchInfo) {
            const records = await readBatch(streams, body.DDBStreamBatchInfo).catch(() => []);
            if (records.length === 0) {
              outcomes.push({ ...base, outcome: 'expired', detail: 'its records are no longer in the stream' });
              continue;
            }
            event = { Records: records };
          }
          const problem = await runThrough(await loadHandler(handlerName), event);
          if (problem === undefined)
            await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
          outcomes.push({ ...base, outcome: problem === undefined ? 'replayed' : 'failed', detail: problem });
        }
      }
    }
  } finally {
    sqs.destroy();
    streams.destroy();
  }
  return outcomes;
}

/** FAILURE_QUEUES as the stack's output gives it: `{"photos/sorting/ingest-photo":"https://sqs…", …}`. */
export function parseFailureQueues(value: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError('FAILURE_QUEUES must be the JSON of the stack output FailureQueues');
  }
  if (parsed === null || typeof parsed !== 'object' || Object.values(parsed).some((url) => typeof url !== 'string')) {
    throw new UsageError('FAILURE_QUEUES must map handler names to queue URLs (the stack output FailureQueues)');
  }
  return parsed as Record<string, string>;
}
