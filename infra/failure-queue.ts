import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { thresholdAlarm } from './threshold-alarm';

/** How long a kept failure waits for `npm run admin -- ops replay`: SQS's longest, 14 days. */
export const FAILURE_RETENTION = Duration.days(14);

/**
 * Stream consumers' retry policy (webhook dispatch, photo-ready emails): a failing batch is halved
 * to find the record that fails, each half retried up to STREAM_RETRY_ATTEMPTS times, and a
 * record older than STREAM_MAX_RECORD_AGE is not retried again. Then its shard and sequence
 * numbers go to the consumer's failure queue and the shard goes on. The local change stream
 * (scripts/local/change-stream.ts) keeps the same count.
 */
export const STREAM_RETRY_ATTEMPTS = 10;
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);

/** Lambda's own retries of an asynchronous invocation (S3 → photo ingest) before the failure queue; at most 2. */
export const ASYNC_RETRY_ATTEMPTS = 2;
/** How long an asynchronous event may wait for its function before it goes to the failure queue. */
export const ASYNC_MAX_EVENT_AGE = Duration.hours(6);

export interface FailureQueueProps {
  /** The handler whose failures it keeps (function-permissions.ts), for its description and `ops replay`. */
  handler: string;
}

/**
 * Where one function's failed events are kept (docs/deployment.md#failure-replay): the
 * on-failure destination of its stream mapping or of its asynchronous invocations. Encrypted,
 * TLS only, kept 14 days, and in alarm as soon as it holds a message.
 */
export class FailureQueue extends Construct {
  readonly queue: Queue;
  readonly handler: string;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, { handler }: FailureQueueProps) {
    super(scope, id);
    this.handler = handler;
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: FAILURE_RETENTION,
    });
    NagSuppressions.addResourceSuppressions(this.queue, [
      {
        id: 'AwsSolutions-SQS3',
        reason: `It is itself a dead-letter queue: the on-failure destination of ${handler}.`,
      },
    ]);
    const waiting = this.queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    });
    this.alarm = thresholdAlarm(this, 'NotEmptyAlarm', waiting, 1);
  }
}
