import {
  EVENT_DISPATCH_HANDLER,
  PHOTO_INGEST_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
} from '#lib/http/handlers';
import {
  ASYNC_MAX_EVENT_AGE,
  ASYNC_RETRY_ATTEMPTS,
  FAILURE_RETENTION,
  STREAM_MAX_RECORD_AGE,
  STREAM_RETRY_ATTEMPTS,
} from '../../infra/failure-queue';
import { asText, roleStatements } from './iam-evaluation';
import { nagFindings, unbundledStack } from './unbundled-stack';

type Resource = { Type: string; Properties: Record<string, any> };

const built = unbundledStack();
const resources = built.template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const queueId = (prefix: string) => {
  const found = ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one queue starting with ${prefix}`);
  return found[0]![0];
};
const failureQueues = {
  ingest: queueId('IngestFailuresQueue'),
  dispatch: queueId('WebhooksDispatchFailures'),
  notices: queueId('PhotoNoticesFailures'),
};
const streamMappingOf = (handler: string) =>
  ofType('AWS::Lambda::EventSourceMapping')
    .map(([, mapping]) => mapping.Properties)
    .find(
      (mapping) =>
        mapping.FunctionName.Ref === built.functionIds.get(handler) &&
        JSON.stringify(mapping.EventSourceArn).includes('StreamArn'),
    )!;

describe('failures kept (docs/deployment.md#failure-replay)', () => {
  it("keeps the photo ingest's asynchronous events that failed after Lambda's retries on its failure queue", () => {
    // Prepare
    const [, config] = ofType('AWS::Lambda::EventInvokeConfig')[0]!;
    // Act, Assess
    expect(ofType('AWS::Lambda::EventInvokeConfig')).toHaveLength(1);
    expect(config.Properties).toEqual(
      expect.objectContaining({
        FunctionName: { Ref: built.functionIds.get(PHOTO_INGEST_HANDLER) },
        MaximumRetryAttempts: ASYNC_RETRY_ATTEMPTS,
        MaximumEventAgeInSeconds: ASYNC_MAX_EVENT_AGE.toSeconds(),
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueues.ingest, 'Arn'] } } },
      }),
    );
    // Lambda sends the failure with the function's role: it may send to that queue, to no other.
    const sends = roleStatements(built.template, built.functionIds.get(PHOTO_INGEST_HANDLER)!).filter((statement) =>
      [statement.Action].flat().includes('sqs:SendMessage'),
    );
    expect(sends.flatMap((statement) => [statement.Resource].flat().map(asText))).toEqual([
      `\${${failureQueues.ingest}.Arn}`,
    ]);
  });

  it.each([
    [EVENT_DISPATCH_HANDLER, 'dispatch'],
    [PHOTO_NOTICE_HANDLER, 'notices'],
  ] as const)(
    'gives the stream mapping of %s bisecting, bounded retries and record age, and its failure queue',
    (handler, queue) => {
      // Act
      const mapping = streamMappingOf(handler);
      // Assess
      expect(mapping).toEqual(
        expect.objectContaining({
          BisectBatchOnFunctionError: true,
          MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
          MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE.toSeconds(),
          DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueues[queue], 'Arn'] } } },
        }),
      );
      expect(STREAM_RETRY_ATTEMPTS).toBeGreaterThanOrEqual(0);
    },
  );

  it('leaves no stream mapping of the stack without a failure destination', () => {
    // Act
    const streamMappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) =>
      JSON.stringify(mapping.Properties.EventSourceArn).includes('StreamArn'),
    );
    // Assess
    expect(streamMappings.length).toBe(3);
    for (const [, mapping] of streamMappings) expect(mapping.Properties.DestinationConfig?.OnFailure).toBeDefined();
  });

  it('keeps failures 14 days on encrypted, TLS-only queues, each in alarm as soon as it holds one', () => {
    for (const id of Object.values(failureQueues)) {
      // Act
      const queue = resources[id]!.Properties;
      const alarm = ofType('AWS::CloudWatch::Alarm').find(([, candidate]) =>
        JSON.stringify(candidate.Properties.Dimensions ?? []).includes(id),
      );
      // Assess
      expect([queue.MessageRetentionPeriod, queue.SqsManagedSseEnabled]).toEqual([FAILURE_RETENTION.toSeconds(), true]);
      expect(alarm?.[1].Properties).toEqual(
        expect.objectContaining({
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        }),
      );
      expect(JSON.stringify(alarm?.[1].Properties.AlarmActions)).toMatch(/AlarmsTopic/);
    }
    const policies = ofType('AWS::SQS::QueuePolicy').map(([, policy]) => JSON.stringify(policy.Properties));
    for (const id of Object.values(failureQueues))
      expect(policies.some((policy) => policy.includes(id) && policy.includes('aws:SecureTransport'))).toBe(true);
  });

  it('names every failure queue by handler in the FailureQueues output that `ops replay` reads', () => {
    // Act
    const output = JSON.stringify(built.template.toJSON().Outputs.FailureQueues.Value);
    // Assess
    for (const handler of [PHOTO_INGEST_HANDLER, EVENT_DISPATCH_HANDLER, PHOTO_NOTICE_HANDLER, REFERENCE_FACE_HANDLER])
      expect(output).toContain(handler);
    for (const id of Object.values(failureQueues)) expect(output).toContain(id);
  });

  it('stays clean under cdk-nag AwsSolutions', () => {
    expect(nagFindings(built.stack)).toEqual([]);
  });
});
