import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { filterRule } from './filter-rules';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { PERSON_ITEM_PREFIX } from '../lib/persons/store/keys';
import { TABLE_KEYS } from '../lib/platform/table/table-definition';
import { thresholdAlarm } from './threshold-alarm';
import { STREAM_RETRY_ATTEMPTS } from './failure-queue';

/**
 * Stream records the reference-face function takes at once. It describes them one after another:
 * a few seconds to load the face model on a cold start, then about a quarter of a second a selfie,
 * well within its 60 s timeout.
 */
export const REFERENCE_FACE_BATCH_SIZE = 5;

/**
 * How long a failing record is retried before it goes to the failure queue. A person's reference
 * face can be missing without harm to anything but the second opinion, while a record that always
 * fails holds back every person behind it in its shard: retried long enough to outlast an outage,
 * not until the stream drops it (24 hours).
 */
export const REFERENCE_FACE_MAX_RECORD_AGE = Duration.hours(6);

/** How far behind the table's stream the function may fall before an alarm: well before records go to the failure queue. */
export const REFERENCE_FACE_MAX_LAG = Duration.hours(1);

export interface ReferenceFacesProps {
  /** The single table; it must have a stream with new images. */
  table: ITable;
  /** faces/describe-reference-faces. */
  describer: LambdaFunction;
}

/**
 * Reference faces (lib/faces/reference-faces.ts): the table's stream starts the function for each
 * person inserted with a selfie and face consent. Batches that still fail after
 * REFERENCE_FACE_MAX_RECORD_AGE go to a failure queue (their shard and sequence numbers, not the
 * records), which alarms, as does a lag of an hour.
 */
export class ReferenceFaces extends Construct {
  readonly failureQueue: Queue;
  /** The stream lag and failure alarms, for the stack to send to its alarm topic. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { table, describer }: ReferenceFacesProps) {
    super(scope, id);
    this.failureQueue = new Queue(this, 'FailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    NagSuppressions.addResourceSuppressions(this.failureQueue, [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "It is itself a dead-letter queue: the on-failure destination of the reference-face function's stream records.",
      },
    ]);
    describer.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: REFERENCE_FACE_BATCH_SIZE,
        // A crash or a timeout fails the whole batch: halves find the record that causes it.
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // A finite count as well as the age: one record that always fails is set aside after these, not six hours of retries.
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        maxRecordAge: REFERENCE_FACE_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.failureQueue),
        filters: [
          FilterCriteria.filter({
            eventName: filterRule.isEqual('INSERT'),
            dynamodb: {
              Keys: { [TABLE_KEYS.sortKey]: { S: filterRule.beginsWith(PERSON_ITEM_PREFIX) } },
              // Stream images are typed: consents is a map (M) holding faceConsent as a boolean (BOOL).
              NewImage: {
                hasSelfie: { BOOL: filterRule.isEqual(true) },
                consents: { M: { faceConsent: { BOOL: filterRule.isEqual(true) } } },
              },
            },
          }),
        ],
      }),
    );
    const lag = describer.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' });
    this.alarms.push(thresholdAlarm(this, 'LagAlarm', lag, REFERENCE_FACE_MAX_LAG.toMilliseconds()));
    const failed = this.failureQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    });
    this.alarms.push(thresholdAlarm(this, 'FailuresAlarm', failed, 1));
  }
}
