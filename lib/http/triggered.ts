import middy from '@middy/core';
import { BatchProcessor, type EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { logger } from '#lib/platform/logger';

/**
 * The preset of every triggered function (lib/http/handlers.ts lists them): what endpoint.ts is
 * to the HTTP functions. Each invocation's log lines carry the Lambda context (function name,
 * request ID, cold start), and its appended keys are reset after it, as requestLogging does for
 * a request. Batches of a queue or of the table's stream go through Powertools' BatchProcessor,
 * which answers the failed records as Lambda expects (ReportBatchItemFailures).
 *
 * A handler is called with the Lambda context in AWS; the local stack, the failure replay and the
 * tests call it with the event alone.
 */
export type TriggeredFunction<TEvent, TResult, TContext = Context> = (
  event: TEvent,
  context?: TContext,
) => Promise<TResult>;

/**
 * A triggered function of any event: a schedule's, S3's, or a queue's read whole (the retention
 * planner). `TContext`: the part of the Lambda context the body reads, where it reads one.
 */
export function triggered<TEvent, TResult, TContext extends Partial<Context> = Context>(
  body: (event: TEvent, context: TContext) => Promise<TResult>,
): TriggeredFunction<TEvent, TResult, TContext> {
  const handler = middy<TEvent, TResult, Error, Context>()
    .use(logger.lambdaContext() as middy.MiddlewareObj<TEvent, TResult, Error, Context>)
    .handler((event, context) => body(event, context as Partial<Context> as TContext));
  // Without a context (the local stack, the tests) the log lines simply lack its fields.
  return (event, context) => handler(event, (context ?? {}) as Context);
}

/**
 * A standard SQS queue's batch: each message through `recordHandler`; a message whose handler
 * throws is reported failed, and the queue hands it back after its visibility timeout (until its
 * dead-letter queue takes it). The others are done. `inParallel`: all messages at once (the
 * webhook deliveries, each a slow HTTP call) rather than one after another.
 */
export function sqsBatch(
  recordHandler: (record: SQSRecord) => Promise<void>,
  options: { inParallel: boolean },
): TriggeredFunction<SQSEvent, SQSBatchResponse> {
  return triggered((event: SQSEvent, context) =>
    processPartialResponse(event, recordHandler, batchProcessor('SQS'), {
      context,
      processInParallel: options.inParallel,
      // Answer a batch that failed whole as failed records too, rather than throw: the error
      // Powertools would throw carries every record's error, which the runtime would log.
      throwOnFullBatchFailure: false,
    }),
  );
}

/**
 * A batch of the table's stream, in order: each record through `recordHandler`, made for this
 * batch (`newRecordHandler`), so that it may keep what the batch's records share. At the first
 * record that fails the batch stops: that record is reported, and Lambda sends the batch again
 * from it, the records after it included (records of one item must keep their order). Those
 * before it are done.
 */
export function streamBatch(
  newRecordHandler: () => (record: DynamoDBRecord) => Promise<void>,
): TriggeredFunction<DynamoDBStreamEvent, DynamoDBBatchResponse> {
  return triggered(async (event: DynamoDBStreamEvent, context) => {
    const recordHandler = newRecordHandler();
    let stopped = false;
    const inOrder = async (record: DynamoDBRecord) => {
      if (stopped) throw new SkippedAfterFailure();
      try {
        await recordHandler(record);
      } catch (error) {
        stopped = true;
        throw error;
      }
    };
    const { batchItemFailures } = await processPartialResponse(event, inOrder, batchProcessor('DynamoDBStreams'), {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    });
    // The first failed record is where Lambda resumes; the skipped ones after it add nothing.
    return { batchItemFailures: batchItemFailures.slice(0, 1) };
  });
}

/**
 * A batch of the table's stream handled as one unit by `body` (the webhook dispatcher, which
 * reads each tenant's subscriptions once a batch and queues its deliveries in one call): when it
 * throws, the batch's first record is reported, so Lambda sends the whole batch again. The body
 * must be idempotent.
 */
export function streamBatchAsOne(
  body: (records: DynamoDBRecord[]) => Promise<void>,
): TriggeredFunction<DynamoDBStreamEvent, DynamoDBBatchResponse> {
  return triggered(async (event: DynamoDBStreamEvent) => {
    const first = event.Records[0]?.dynamodb?.SequenceNumber;
    try {
      await body(event.Records);
      return { batchItemFailures: [] };
    } catch {
      // The body logged what failed, as a record handler does.
      return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] };
    }
  });
}

/** A record after the one that failed, not processed: it comes again with the batch. */
class SkippedAfterFailure extends Error {
  constructor() {
    super('An earlier record of the batch failed');
    this.name = 'SkippedAfterFailure';
  }
}

/**
 * A processor per invocation: one holds the records of the batch it processes, and the local
 * stack may run a handler's batches side by side. It logs only when parsing records, which we do
 * not ask of it; should it ever, its messages go through our logger without their text.
 */
function batchProcessor(eventType: keyof typeof EventType): BatchProcessor {
  return new BatchProcessor(eventType, {
    logger: {
      debug: () => undefined,
      warn: () => logger.warn('batch processor warning'),
      error: () => logger.error('batch processor error'),
    },
  });
}
