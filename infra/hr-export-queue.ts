import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { HR_EXPORT_MAX_RECEIVES } from '../lib/hr-exports/rules/hr-export-model';
import { thresholdAlarm } from './threshold-alarm';

/** Most builders at once: each streams one export, so a burst of exports never takes the account's concurrency. */
export const HR_EXPORT_BUILDER_CONCURRENCY = 2;

export interface HrExportQueueProps {
  /** hr-exports/create-hr-export: queues one message per export. */
  creator: LambdaFunction;
  /** hr-exports/build-hr-export: builds one export per message. */
  builder: LambdaFunction;
}

/**
 * The HR export queue (docs/hr-export.md#how-it-runs): the create endpoint queues one message per
 * export, the builder takes one at a time. A message received HR_EXPORT_MAX_RECEIVES times goes to
 * the dead-letter queue, which alarms (the last attempt has marked its export failed already).
 */
export class HrExportQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { creator, builder }: HrExportQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Hidden six times the builder's timeout once received, as Lambda advises.
      visibilityTimeout: Duration.seconds((builder.timeout ?? Duration.seconds(3)).toSeconds() * 6),
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: HR_EXPORT_MAX_RECEIVES },
    });
    const deadLetters = this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    });
    this.alarms.push(thresholdAlarm(this, 'DeadLettersAlarm', deadLetters, 1));
    builder.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: HR_EXPORT_BUILDER_CONCURRENCY,
      }),
    );
    this.queue.grantSendMessages(creator);
    creator.addEnvironment('HR_EXPORT_QUEUE_URL', this.queue.queueUrl);
  }
}
