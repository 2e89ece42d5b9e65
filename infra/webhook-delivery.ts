import type { DynamoDBRecord } from 'aws-lambda';
import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { filterRule } from './filter-rules';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { outboxKeys } from '../lib/events/store/keys';
import { webhookKeys } from '../lib/webhooks/store/keys';
import { TABLE_KEYS } from '../lib/platform/table/table-definition';
import type { DeliveryStatus } from '../lib/webhooks/rules/webhook-delivery';
import { thresholdAlarm } from './threshold-alarm';
import { generatedKeySecret } from './generated-secret';
import { FailureQueue, STREAM_MAX_RECORD_AGE, STREAM_RETRY_ATTEMPTS } from './failure-queue';

/**
 * Most delivery functions the queue runs at once (Lambda's `MaximumConcurrency` of the queue's
 * event source): each holds up to 10 outbound requests, so this bounds the service's requests to
 * tenants' endpoints. Tunable; 2 to 1,000. More drains a backlog faster after an outage. It stays
 * above twice a tenant's attempt slots (lib/webhooks/rules/delivery-capacity.ts), so that a
 * tenant whose endpoints hang holds fewer than half the functions. The local stack's queue runs
 * the same (scripts/local/local-delivery-queue.ts); these are plain constants so that it can.
 */
export const WEBHOOK_DELIVERY_CONCURRENCY = 50;

/** Messages the delivery function takes at once; they are delivered concurrently. */
export const WEBHOOK_DELIVERY_BATCH_SIZE = 10;

/** Stream records the dispatcher takes at once, and how many batches of one shard run side by side. */
export const EVENT_DISPATCH_BATCH_SIZE = 100;
export const EVENT_DISPATCH_PARALLELIZATION = 4;

/** Receives of one message before it goes to the dead-letter queue (each is a delivery function that failed it). */
export const WEBHOOK_MAX_RECEIVES = 5;

/**
 * The log line the delivery function writes when it disables an endpoint that failed too long,
 * and the custom metric it is counted in.
 */
export const ENDPOINT_DISABLED_MESSAGE = 'webhook endpoint disabled';
export const ENDPOINT_DISABLED_METRIC = { namespace: 'GroupShoot', metricName: 'WebhookEndpointsDisabled' } as const;

/** How far behind the table's stream the dispatcher may fall before an alarm: records leave the stream after 24 hours. */
export const EVENT_DISPATCH_MAX_LAG = Duration.hours(1);

const REPLAY_REQUESTED: DeliveryStatus = 'replay_requested';
/** The sort-key prefixes of an outbox event and of a delivery: what the dispatcher's filter looks at. */
const EVENT_SORT_KEY_PREFIX = outboxKeys.event('', '', '').sk;
const DELIVERY_SORT_KEY_PREFIX = webhookKeys.webhookDelivery('', '', '').sk;

/**
 * What the dispatcher's event-source filter passes (the filters below): a new event, and a
 * delivery whose replay was asked for. The local stream reader filters by it too
 * (scripts/local/event-pipeline.ts), as Lambda does before it batches.
 */
export function passesDispatchFilter(record: DynamoDBRecord): boolean {
  const sortKey = record.dynamodb?.Keys?.[TABLE_KEYS.sortKey]?.S ?? '';
  if (record.eventName === 'INSERT' && sortKey.startsWith(EVENT_SORT_KEY_PREFIX)) return true;
  return sortKey.startsWith(DELIVERY_SORT_KEY_PREFIX) && record.dynamodb?.NewImage?.status?.S === REPLAY_REQUESTED;
}

/**
 * The secret that seals (AES-256-GCM) the tenants' webhook signing secrets in the table:
 * generated at deployment, 64 letters and digits, read by the delivery function only. It lives
 * as long as the table (kept when the stack goes): without it no sealed secret opens again.
 * Changing the generation settings would replace it with a new value, so they stay as they are.
 */
export function webhookSealingKey(scope: Construct): Secret {
  return generatedKeySecret(
    scope,
    'WebhookSealingKey',
    'Seals the webhook signing secrets stored in the table (generated; read by webhooks/deliver-webhooks)',
    'A new sealing key must re-seal every stored signing secret first; a rotation Lambda cannot do that alone.',
  );
}

export interface WebhookDeliveryProps {
  /** The single table; it must have a stream with new images. */
  table: ITable;
  /** webhooks/dispatch-events: started by the table's stream. */
  dispatcher: LambdaFunction;
  /** webhooks/deliver-webhooks: started by the queue, which hides a received message six times its timeout, as Lambda advises. */
  worker: LambdaFunction;
  /** The dispatcher's handler name, which its failure queue is kept for. */
  dispatcherHandler: string;
}

/**
 * Webhook delivery (docs/events.md): the table's stream starts the dispatcher for each new event
 * and each replay request; the dispatcher records a delivery per subscription and queues it; the
 * queue starts the delivery function, which makes one signed attempt per message and queues a
 * retry itself. Messages failed five times go to a dead-letter queue, which alarms.
 */
export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Where stream records the dispatcher failed to the end are kept, for `ops replay`. */
  readonly dispatchFailures: FailureQueue;
  /** The delivery path's alarms, for the stack to send to its alarm topic. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { table, dispatcher, worker, dispatcherHandler }: WebhookDeliveryProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's default timeout is 3 s (ServiceFunction always sets one).
      visibilityTimeout: Duration.seconds((worker.timeout ?? Duration.seconds(3)).toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
    });
    const deadLetters = this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    });
    this.alarms.push(thresholdAlarm(this, 'DeadLettersAlarm', deadLetters, 1));

    this.dispatchFailures = new FailureQueue(this, 'DispatchFailures', { handler: dispatcherHandler });
    this.alarms.push(this.dispatchFailures.alarm);
    const sortKey = TABLE_KEYS.sortKey;
    dispatcher.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: EVENT_DISPATCH_BATCH_SIZE,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // Retried a bounded time, so that one record that always fails does not hold back its shard;
        // then kept on the failure queue (shard and sequence numbers) for `ops replay`, which alarms.
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.dispatchFailures.queue),
        parallelizationFactor: EVENT_DISPATCH_PARALLELIZATION,
        filters: [
          // A new event in a gallery's outbox (a coalesced photos.assigned or photos.withheld event only when its window's first photo creates it).
          FilterCriteria.filter({
            eventName: filterRule.isEqual('INSERT'),
            dynamodb: { Keys: { [sortKey]: { S: filterRule.beginsWith(EVENT_SORT_KEY_PREFIX) } } },
          }),
          // A delivery whose replay an operator asked for.
          FilterCriteria.filter({
            dynamodb: {
              Keys: { [sortKey]: { S: filterRule.beginsWith(DELIVERY_SORT_KEY_PREFIX) } },
              NewImage: { status: { S: filterRule.isEqual(REPLAY_REQUESTED) } },
            },
          }),
        ],
      }),
    );
    worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_DELIVERY_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: WEBHOOK_DELIVERY_CONCURRENCY,
      }),
    );
    for (const fn of [dispatcher, worker]) {
      fn.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
      this.queue.grantSendMessages(fn);
    }
    const lag = dispatcher.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' });
    this.alarms.push(thresholdAlarm(this, 'DispatchLagAlarm', lag, EVENT_DISPATCH_MAX_LAG.toMilliseconds()));

    const disabled = new MetricFilter(this, 'EndpointsDisabled', {
      logGroup: worker.logGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', ENDPOINT_DISABLED_MESSAGE),
      metricNamespace: ENDPOINT_DISABLED_METRIC.namespace,
      metricName: ENDPOINT_DISABLED_METRIC.metricName,
      metricValue: '1',
    });
    this.alarms.push(
      thresholdAlarm(
        this,
        'EndpointsDisabledAlarm',
        disabled.metric({ period: Duration.minutes(5), statistic: 'Sum' }),
        1,
      ),
    );
  }
}
