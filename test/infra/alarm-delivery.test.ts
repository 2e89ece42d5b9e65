import { Match } from 'aws-cdk-lib/assertions';
import { ALARM_PUBLISHERS, alarmSubscriptionOf } from '../../infra/alarm-topic';
import { DASHBOARD_SECTIONS } from '../../infra/operations-dashboard';
import { nagFindings, unbundledStack } from './unbundled-stack';

type Statement = {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

const built = unbundledStack({ alarmSubscription: { email: 'alarms@studio.example' } });
const resources = built.template.toJSON().Resources as Record<
  string,
  { Type: string; Properties: Record<string, any> }
>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const [topicId, topic] = ofType('AWS::SNS::Topic')[0]!;

describe('alarms reach someone (docs/deployment.md#alarms)', () => {
  it('encrypts the alarm topic with a key of the stack that rotates, not with alias/aws/sns', () => {
    // Prepare
    const keys = ofType('AWS::KMS::Key');
    // Act
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt']?.[0];
    // Assess
    expect(ofType('AWS::SNS::Topic')).toHaveLength(1);
    expect(keys.map(([id]) => id)).toContain(keyId);
    expect(resources[keyId]!.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(topic.Properties)).not.toContain('alias/aws/sns');
  });

  it("lets CloudWatch use the key for this account's alarms: data keys and decrypt, nothing more", () => {
    // Prepare
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    const statements = resources[keyId]!.Properties.KeyPolicy.Statement as Statement[];
    // Act
    const forServices = statements.filter((statement) => JSON.stringify(statement.Principal ?? '').includes('Service'));
    // Assess
    expect(forServices).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    ]);
    expect(ALARM_PUBLISHERS).toEqual(['cloudwatch.amazonaws.com']);
  });

  it('lets CloudWatch publish to the topic for this account only, and still refuses publishing without TLS', () => {
    // Prepare
    const [, policy] = ofType('AWS::SNS::TopicPolicy')[0]!;
    // Act
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    // Assess
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Principal: '*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    );
    expect(statements.filter((statement) => statement.Effect === 'Allow')).toHaveLength(1);
  });

  it('sends every alarm of the stack to the topic', () => {
    // Prepare
    const alarms = ofType('AWS::CloudWatch::Alarm');
    // Act
    const withoutTopic = alarms
      .filter(([, alarm]) => !JSON.stringify(alarm.Properties.AlarmActions ?? []).includes(topicId))
      .map(([id]) => id);
    // Assess
    expect(alarms.length).toBeGreaterThan(40);
    expect(withoutTopic).toEqual([]);
  });

  it('subscribes the configured email address to the topic', () => {
    // Act, Assess
    built.template.resourceCountIs('AWS::SNS::Subscription', 1);
    built.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'alarms@studio.example',
      TopicArn: { Ref: topicId },
    });
  });

  it('subscribes a configured HTTPS endpoint instead, and nothing when none is configured', () => {
    // Prepare
    const url = 'https://alerts.studio.example/hooks/groupshoot';
    // Act
    const https = unbundledStack({ alarmSubscription: alarmSubscriptionOf(url) }).template;
    const none = unbundledStack({ alarmSubscription: alarmSubscriptionOf(undefined) }).template;
    // Assess
    https.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'https', Endpoint: url });
    none.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('reads the context value as an email address or an https:// URL, and refuses anything else', () => {
    // Act, Assess
    expect(alarmSubscriptionOf('ops@studio.example')).toEqual({ email: 'ops@studio.example' });
    expect(alarmSubscriptionOf('https://hooks.example/x')).toEqual({ httpsUrl: 'https://hooks.example/x' });
    expect(alarmSubscriptionOf('')).toBeUndefined();
    expect(() => alarmSubscriptionOf('http://hooks.example/x')).toThrow(/email address or an https/);
    expect(() => alarmSubscriptionOf('not-an-address')).toThrow(/email address or an https/);
  });

  it('stays clean under cdk-nag AwsSolutions', () => {
    // Act, Assess
    expect(nagFindings(built.stack)).toEqual([]);
  });
});

describe('the operations dashboard (docs/deployment.md#dashboard)', () => {
  const [, dashboard] = ofType('AWS::CloudWatch::Dashboard')[0]!;
  /** The body as text, references written as ${Id}. */
  const body = JSON.stringify(dashboard.Properties.DashboardBody);

  it('has a section for API answers, check-ins, delivery, ingest, retention and throttles', () => {
    // Act, Assess
    for (const section of DASHBOARD_SECTIONS) expect(body).toContain(`## ${section}`);
  });

  it("counts 4xx and 5xx per route from the stage's access logs", () => {
    // Prepare
    const [accessLogsId] = Object.keys(built.template.findResources('AWS::Logs::LogGroup')).filter((id) =>
      id.startsWith('ApiAccessLogs'),
    );
    // Act, Assess
    expect(body).toContain(accessLogsId!);
    expect(body).toMatch(/filter status like \/\^\[45\]\/.*stats count\(\*\) as answers by routeKey, status/);
  });

  it('shows dispatch lag, delivery failures, ingest failures, retention runs and every function throttle', () => {
    // Prepare
    const id = (handler: string) => built.functionIds.get(handler)!;
    // Act, Assess
    expect(body).toMatch(/IteratorAge.*EventsDispatchEvents/);
    expect(body).toContain('WebhookEndpointsDisabled');
    expect(body).toMatch(/IngestFailuresQueue/);
    expect(body).toContain(id('privacy/plan-retention'));
    expect(body).toContain(id('checkin/post-group-shoot'));
    for (const handler of built.functionIds.keys()) expect(body).toContain(id(handler));
    expect(body).toMatch(/Throttles/);
  });

  it('is one dashboard of the stack', () => {
    // Act, Assess
    built.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    built.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardBody: Match.anyValue() });
  });
});
