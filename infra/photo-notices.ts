import { Duration, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { generatedKeySecret } from './generated-secret';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { filterRule } from './filter-rules';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { outboxKeys } from '../lib/events/store/keys';
import { TABLE_KEYS } from '../lib/platform/table/table-definition';
import type { EventType } from '../lib/events/rules/event-catalogue';
import { isPlausibleEmail } from '../lib/platform/email-address';
import { thresholdAlarm } from './threshold-alarm';
import { rolePolicyOf } from './service-function';
import { FailureQueue, STREAM_MAX_RECORD_AGE, STREAM_RETRY_ATTEMPTS } from './failure-queue';

/**
 * Stream records the photo-ready email function takes at once. It handles them one after another
 * (one SES call each at most), well within its 60 s timeout.
 */
export const PHOTO_NOTICE_BATCH_SIZE = 10;

/** How far behind the table's stream the email function may fall before an alarm (records leave the stream after 24 hours). */
export const PHOTO_NOTICE_MAX_LAG = Duration.hours(1);

const PHOTOS_ASSIGNED: EventType = 'photos.assigned';

export interface PhotoNoticesProps {
  /** The single table; it must have a stream with new images. */
  table: ITable;
  /** photos/notices/send-photo-notices. */
  sender: LambdaFunction;
  /** checkin/post-group-shoot, which emails photo links on request: the same sender address and permission. */
  linkSender: LambdaFunction;
  /**
   * The From address of the emails (PHOTO_NOTICE_FROM): an SES identity of the account in the
   * stack's region, or an address of a verified domain. Without it the function sends nothing.
   */
  fromAddress?: string;
  /** The sender's handler name, which its failure queue is kept for. */
  senderHandler: string;
  /**
   * The API's public base address, ending in /v1 (PUBLIC_API_URL): every email's one-click
   * unsubscribe link is under it (lib/photos/links/unsubscribe-links.ts).
   */
  publicApiUrl: string;
}

/**
 * Photo-ready emails (docs/photos.md#photo-ready-emails): the table's stream starts the email
 * function for each photos.assigned event item, created by a window's first photo (INSERT) or
 * counted up by the others (MODIFY); the function may send through SES from the configured
 * address only.
 */
export class PhotoNotices extends Construct {
  /** The stream lag alarm, for the stack to send to its alarm topic. */
  readonly alarms: Alarm[] = [];
  /** Where stream records the sender failed to the end are kept, for `ops replay`. */
  readonly failures: FailureQueue;

  constructor(
    scope: Construct,
    id: string,
    { table, sender, linkSender, fromAddress, senderHandler, publicApiUrl }: PhotoNoticesProps,
  ) {
    super(scope, id);
    this.failures = new FailureQueue(this, 'Failures', { handler: senderHandler });
    this.alarms.push(this.failures.alarm);
    if (fromAddress !== undefined && !isPlausibleEmail(fromAddress))
      throw new Error(`photoNoticeSender is not an email address: ${fromAddress}`);
    sender.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: PHOTO_NOTICE_BATCH_SIZE,
        reportBatchItemFailures: true,
        // A crash or a timeout fails the whole batch: halves find the record that causes it. The
        // claim on the person keeps a retry from sending twice. Retried a bounded time, then kept
        // on the failure queue for `ops replay` (which alarms), so that the shard goes on.
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.failures.queue),
        filters: [
          FilterCriteria.filter({
            eventName: filterRule.or('INSERT', 'MODIFY'),
            dynamodb: {
              Keys: { [TABLE_KEYS.sortKey]: { S: filterRule.beginsWith(outboxKeys.event('', '', '').sk) } },
              NewImage: { type: { S: filterRule.isEqual(PHOTOS_ASSIGNED) } },
            },
          }),
        ],
      }),
    );
    for (const fn of [sender, linkSender]) fn.addEnvironment('PUBLIC_API_URL', publicApiUrl);
    if (fromAddress !== undefined) {
      for (const fn of [sender, linkSender]) {
        fn.addEnvironment('PHOTO_NOTICE_FROM', fromAddress);
        // SES authorises a send against the sender's identity (and in the sandbox the recipient's
        // too), so the resource is the account's identities; the condition holds the From address.
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['ses:SendEmail'],
            resources: [Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
            conditions: { StringEquals: { 'ses:FromAddress': fromAddress } },
          }),
        );
        NagSuppressions.addResourceSuppressions(
          rolePolicyOf(fn),
          [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                "ses:SendEmail on the account's identities in this region, only from the configured From address (ses:FromAddress).",
              // Region and account are tokens, or written out when the stack has an env.
              appliesTo: [
                {
                  regex:
                    '/^Resource::arn:<AWS::Partition>:ses:(<AWS::Region>|[a-z0-9-]+):(<AWS::AccountId>|\\d{12}):identity\\/\\*$/',
                },
              ],
            },
          ],
          true,
        );
      }
    }
    const lag = sender.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' });
    this.alarms.push(thresholdAlarm(this, 'LagAlarm', lag, PHOTO_NOTICE_MAX_LAG.toMilliseconds()));
  }
}

/**
 * The key photo links are signed with (lib/photos/links/rules/photo-link-token.ts): generated at deployment,
 * 64 letters and digits, read by the check-in and photo-email functions. Replacing it ends every
 * photo link sent so far (participants ask for a new one), so it is kept with the stack's data.
 */
export function photoLinkKey(scope: Construct): Secret {
  return generatedKeySecret(
    scope,
    'PhotoLinkKey',
    'Signs the photo links of participant emails (generated; read by checkin/post-group-shoot and photos/notices/send-photo-notices)',
    'Rotating it ends every photo link sent so far; it is rotated by hand (a new value), when a link key may have leaked.',
  );
}
