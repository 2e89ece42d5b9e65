import { Duration, Stack } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RETENTION_SCHEDULE } from './function-permissions';
import { thresholdAlarm } from './threshold-alarm';

/** Receives of a gallery's message before it goes to the dead-letter queue: each a worker that failed that gallery. */
export const RETENTION_MAX_RECEIVES = 3;

/**
 * Receives of a planner continuation before the dead-letter queue: more than a gallery's, as the
 * planner runs one at a time and a continuation arriving while the schedule's run holds it is
 * throttled, which counts as a receive too.
 */
export const RETENTION_PLAN_MAX_RECEIVES = 5;

/** Most worker functions the gallery queue runs at once: galleries erase side by side without taking the account's concurrency. */
export const RETENTION_WORKER_CONCURRENCY = 5;

export interface RetentionFanOutProps {
  /** privacy/plan-retention: started by the schedule and by its own continuations. */
  planner: LambdaFunction;
  /** privacy/apply-gallery-retention: started by the gallery queue, one gallery per message. */
  worker: LambdaFunction;
  /** The photo CDN, which the worker invalidates for the photos it erases. */
  photoCdn: IDistribution;
}

/**
 * The retention run (docs/personal-data.md#who-carries-it-out): once a day a schedule starts the
 * planner, which queues one message per gallery on the gallery queue and, when its time runs
 * short, its continuation on the plan queue; the worker takes one gallery per message. A message
 * failed RETENTION_MAX_RECEIVES times (a gallery) or RETENTION_PLAN_MAX_RECEIVES times (a
 * continuation) goes to the dead-letter queue, which alarms.
 */
export class RetentionFanOut extends Construct {
  readonly queue: Queue;
  readonly planQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { planner, worker, photoCdn }: RetentionFanOutProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    // Hidden six times the consumer's timeout once received, as Lambda advises.
    const queueFor = (queueId: string, consumer: LambdaFunction, maxReceiveCount: number) =>
      new Queue(this, queueId, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds((consumer.timeout ?? Duration.seconds(3)).toSeconds() * 6),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
      });
    this.queue = queueFor('Queue', worker, RETENTION_MAX_RECEIVES);
    this.planQueue = queueFor('PlanQueue', planner, RETENTION_PLAN_MAX_RECEIVES);
    const deadLetters = this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    });
    this.alarms.push(thresholdAlarm(this, 'DeadLettersAlarm', deadLetters, 1));

    new Rule(this, 'Schedule', {
      description: 'Starts the retention planner (docs/personal-data.md, who carries it out)',
      schedule: Schedule.cron(RETENTION_SCHEDULE),
      targets: [new LambdaTarget(planner, { retryAttempts: 0 })],
    });
    planner.addEventSource(new SqsEventSource(this.planQueue, { batchSize: 1 }));
    worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: RETENTION_WORKER_CONCURRENCY,
      }),
    );
    for (const queue of [this.queue, this.planQueue]) queue.grantSendMessages(planner);
    planner.addEnvironment('RETENTION_QUEUE_URL', this.queue.queueUrl);
    planner.addEnvironment('RETENTION_PLAN_QUEUE_URL', this.planQueue.queueUrl);

    worker.addEnvironment('PHOTO_CDN_DISTRIBUTION_ID', photoCdn.distributionId);
    worker.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['cloudfront:CreateInvalidation'],
        resources: [
          Stack.of(this).formatArn({
            service: 'cloudfront',
            region: '',
            resource: 'distribution',
            resourceName: photoCdn.distributionId,
          }),
        ],
      }),
    );
  }
}
