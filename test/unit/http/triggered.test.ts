/**
 * @logLevel INFO
 */
import type { Context, DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsBatch, streamBatch, streamBatchAsOne, triggered } from '#lib/http/triggered';
import { logger } from '#lib/platform/logger';
import { captureLogs } from '../../support/log-capture';

const lambdaContext = (awsRequestId: string): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'groupshoot-deliver-webhooks',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:groupshoot-deliver-webhooks',
  memoryLimitInMB: '256',
  awsRequestId,
  logGroupName: '/aws/lambda/groupshoot-deliver-webhooks',
  logStreamName: 'unit',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

const sqsRecord = (messageId: string, body: string): SQSRecord => ({ messageId, body }) as SQSRecord;
const sqsEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const streamRecord = (sequenceNumber: string): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: sequenceNumber, Keys: { pk: { S: sequenceNumber } } },
});
const streamEvent = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

describe('triggered: the Lambda context in every log line', () => {
  it('puts the function name, the request ID and the cold start in the lines of an invocation', async () => {
    // Prepare
    const handler = triggered(async () => logger.info('retention planned', { counts: { galleries: 2 } }));
    // Act
    const lines = await captureLogs(() => handler({}, lambdaContext('invocation-1')));
    // Assess
    expect(lines).toEqual([
      expect.objectContaining({
        message: 'retention planned',
        function_name: 'groupshoot-deliver-webhooks',
        function_request_id: 'invocation-1',
        cold_start: expect.any(Boolean),
      }),
    ]);
  });

  it('gives each invocation its own request ID', async () => {
    // Prepare
    const handler = triggered(async () => logger.info('reservations swept'));
    // Act
    const lines = await captureLogs(async () => {
      await handler({}, lambdaContext('first'));
      await handler({}, lambdaContext('second'));
    });
    // Assess
    expect(lines.map((line) => line.function_request_id)).toEqual(['first', 'second']);
  });

  it('runs without a context, as the local stack and the failure replay call it', async () => {
    // Prepare
    const handler = triggered(async (event: { value: number }) => event.value * 2);
    // Act
    const answer = await handler({ value: 21 });
    // Assess
    expect(answer).toBe(42);
  });
});

describe('sqsBatch: partial failures as Lambda expects them', () => {
  it.each([true, false])(
    'reports the message whose handler threw, and only it (in parallel: %s)',
    async (inParallel) => {
      // Prepare
      const handled: string[] = [];
      const handler = sqsBatch(
        async (record) => {
          if (record.body === 'bad') throw new Error('attempt not recorded');
          handled.push(record.messageId);
        },
        { inParallel },
      );
      // Act
      const answer = await handler(sqsEvent(sqsRecord('m1', 'ok'), sqsRecord('m2', 'bad'), sqsRecord('m3', 'ok')));
      // Assess
      expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
      expect(handled.sort()).toEqual(['m1', 'm3']);
    },
  );

  it('answers a batch that failed whole with every message, rather than throwing', async () => {
    // Prepare
    const handler = sqsBatch(
      async () => {
        throw new Error('table unavailable');
      },
      { inParallel: true },
    );
    // Act
    const answer = await handler(sqsEvent(sqsRecord('m1', 'a'), sqsRecord('m2', 'b')));
    // Assess
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
  });

  it('answers no failure for a batch that went through', async () => {
    // Prepare
    const handler = sqsBatch(async () => undefined, { inParallel: false });
    // Act
    const answer = await handler(sqsEvent(sqsRecord('m1', 'a')));
    // Assess
    expect(answer).toEqual({ batchItemFailures: [] });
  });

  it('puts the Lambda context in the lines its records log', async () => {
    // Prepare
    const handler = sqsBatch(async () => logger.info('webhook delivery', { outcome: 'delivered' }), {
      inParallel: true,
    });
    // Act
    const lines = await captureLogs(() => handler(sqsEvent(sqsRecord('m1', 'a')), lambdaContext('batch-1')));
    // Assess
    expect(lines).toEqual([expect.objectContaining({ message: 'webhook delivery', function_request_id: 'batch-1' })]);
  });
});

describe("streamBatch: the table's stream, in order, stopped at the first failure", () => {
  it('reports the first failed record, leaves the ones after it for the retry, and keeps those before it', async () => {
    // Prepare
    const handled: string[] = [];
    const handler = streamBatch(() => async (record) => {
      const sequence = record.dynamodb!.SequenceNumber!;
      if (sequence === '200') throw new Error('SES unavailable');
      handled.push(sequence);
    });
    // Act
    const answer = await handler(streamEvent(streamRecord('100'), streamRecord('200'), streamRecord('300')));
    // Assess
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
    expect(handled).toEqual(['100']);
  });

  it("makes a record handler per batch, so that what it keeps is the batch's own", async () => {
    // Prepare
    const batches: string[][] = [];
    const handler = streamBatch(() => {
      const seen: string[] = [];
      batches.push(seen);
      return async (record) => {
        seen.push(record.dynamodb!.SequenceNumber!);
      };
    });
    // Act
    await handler(streamEvent(streamRecord('1'), streamRecord('2')));
    await handler(streamEvent(streamRecord('3')));
    // Assess
    expect(batches).toEqual([['1', '2'], ['3']]);
  });
});

describe('streamBatchAsOne: a batch handled as one unit', () => {
  it("reports the batch's first record when the body throws, so that the whole batch comes again", async () => {
    // Prepare
    const handler = streamBatchAsOne(async () => {
      throw new Error('queue unavailable');
    });
    // Act
    const answer = await handler(streamEvent(streamRecord('7'), streamRecord('8')));
    // Assess
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '7' }] });
  });

  it('answers no failure when the body went through', async () => {
    // Prepare
    const received: number[] = [];
    const handler = streamBatchAsOne(async (records) => {
      received.push(records.length);
    });
    // Act
    const answer = await handler(streamEvent(streamRecord('7'), streamRecord('8')));
    // Assess
    expect([answer, received]).toEqual([{ batchItemFailures: [] }, [2]]);
  });
});
