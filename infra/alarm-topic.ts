import { Duration, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { SubscriptionProtocol } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { isPlausibleEmail } from '../lib/platform/email-address';

/** The services that publish to the alarm topic: CloudWatch alarms alone. */
export const ALARM_PUBLISHERS = ['cloudwatch.amazonaws.com'] as const;

/** Who receives the alarms: an email address (confirmed by a link SNS sends) or an HTTPS endpoint. */
export type AlarmSubscription = { email: string } | { httpsUrl: string };

/**
 * Reads the alarm subscription from the app's context value: an email address, or an
 * `https://` URL; undefined when none is set. Throws on anything else, at synth.
 */
export function alarmSubscriptionOf(value: string | undefined): AlarmSubscription | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.startsWith('https://')) return { httpsUrl: value };
  if (isPlausibleEmail(value)) return { email: value };
  throw new Error(`alarmSubscription must be an email address or an https:// URL; got ${value}`);
}

export interface AlarmTopicProps {
  /** Where alarms go; without it the topic has no subscriber (docs/deployment.md#alarms). */
  subscription?: AlarmSubscription;
}

/**
 * The topic every alarm of the stack publishes to, and its subscriber. SNS encrypts it with a
 * key of the stack (rotated yearly) whose policy lets the publishing services use it: the AWS
 * managed key alias/aws/sns cannot be used by CloudWatch, whose alarms would then fail to
 * publish without a word. The topic policy lets CloudWatch publish for alarms of this account
 * only (aws:SourceAccount), beside the deny of requests without TLS.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    const account = Stack.of(this).account;
    this.key = new Key(this, 'Key', {
      description: 'Encrypts the alarm topic; CloudWatch may use it to publish alarms',
      enableKeyRotation: true,
      pendingWindow: Duration.days(7),
    });
    // The account's administrators keep the key (CDK's default statement); the publishers may
    // make and open data keys for SNS, for this account's alarms only.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowAlarmPublishers',
        effect: Effect.ALLOW,
        principals: ALARM_PUBLISHERS.map((service) => new ServicePrincipal(service)),
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    this.topic = new Topic(this, 'Topic', { enforceSSL: true, masterKey: this.key });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowAlarmPublishers',
        effect: Effect.ALLOW,
        principals: ALARM_PUBLISHERS.map((service) => new ServicePrincipal(service)),
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    const subscription = props.subscription;
    if (subscription && 'email' in subscription) this.topic.addSubscription(new EmailSubscription(subscription.email));
    if (subscription && 'httpsUrl' in subscription) {
      this.topic.addSubscription(new UrlSubscription(subscription.httpsUrl, { protocol: SubscriptionProtocol.HTTPS }));
    }
  }
}
