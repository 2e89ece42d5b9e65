import { marshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../support/table-keys';
import { FUNCTION_PERMISSIONS } from '../../infra/function-permissions';
import { REFERENCE_FACE_HANDLER } from '#lib/http/handlers';
import { REFERENCE_FACE_BATCH_SIZE } from '../../infra/reference-faces';
import { PARTITIONS } from '../../infra/table-access';
import { allows, asText, roleStatements } from './iam-evaluation';
import { filterPatternsOf, matchesPattern } from './stream-filters';
import { nagFindings, unbundledStack } from './unbundled-stack';
import { STREAM_RETRY_ATTEMPTS } from '../../infra/failure-queue';

const TENANT_ID = 'ten_01j9zk3v6q8x4m2n7p5r1s0t9w';
const TOKEN = 'abcdefghjkmnpqrs';
const PERSON_ID = 'per_01j9zk3v6q8x4m2n7p5r1s0t9x';
const PERSON = keys.person(TENANT_ID, TOKEN, PERSON_ID);

let built: ReturnType<typeof unbundledStack>;

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
}, 120_000);

const functionId = () => built.functionIds.get(REFERENCE_FACE_HANDLER)!;
const functionOf = () => built.template.findResources('AWS::Lambda::Function')[functionId()]!.Properties;
const tableArn = () => `\${${Object.keys(built.template.findResources('AWS::DynamoDB::Table'))[0]}.Arn}`;
const failureQueueId = () =>
  Object.keys(built.template.findResources('AWS::SQS::Queue')).find((id) =>
    id.startsWith('ReferenceFacesFailureQueue'),
  )!;

function mapping(): Record<string, any> {
  const mappings = Object.values(built.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (candidate) => candidate.Properties.FunctionName.Ref === functionId(),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0]!.Properties;
}

/** A stream record as DynamoDB writes it: keys and new image in DynamoDB's typed JSON. */
function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  key: { pk: string; sk: string },
  attributes?: Record<string, unknown>,
) {
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: marshall(key),
      ...(attributes ? { NewImage: marshall({ ...key, ...attributes }, { removeUndefinedValues: true }) } : {}),
    },
  };
}

/** A person item's attributes as the persons store writes them (consents a map of booleans or nulls). */
const person = (hasSelfie: boolean, faceConsent: boolean | null) => ({
  personId: PERSON_ID,
  name: 'Alex Example',
  hasSelfie,
  consents: { consentGiven: true, faceConsent, notificationConsent: null, hrExportConsent: null },
});

describe('the reference-face function', () => {
  it("reads the table's stream from its oldest record, five at a time, halving a failed batch, retrying 10 times within six hours before the failure queue", () => {
    const properties = mapping();
    expect(properties.EventSourceArn).toEqual({
      'Fn::GetAtt': [Object.keys(built.template.findResources('AWS::DynamoDB::Table'))[0], 'StreamArn'],
    });
    expect(properties).toEqual(
      expect.objectContaining({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: REFERENCE_FACE_BATCH_SIZE,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
        MaximumRecordAgeInSeconds: 6 * 3600,
      }),
    );
    expect(properties.DestinationConfig).toEqual({
      OnFailure: { Destination: { 'Fn::GetAtt': [failureQueueId(), 'Arn'] } },
    });
    expect(REFERENCE_FACE_BATCH_SIZE).toBeLessThanOrEqual(10);
  });

  it('is invoked only for persons inserted with a selfie and face consent', () => {
    // Prepare
    const patterns = filterPatternsOf(mapping());
    const invokes = (record: unknown) => patterns.some((pattern) => matchesPattern(pattern, record));
    const records = {
      'a person with a selfie and face consent': streamRecord('INSERT', PERSON, person(true, true)),
      'a person with a selfie, face consent refused': streamRecord('INSERT', PERSON, person(true, false)),
      'a person with a selfie, face consent not asked': streamRecord('INSERT', PERSON, person(true, null)),
      'a person with face consent, no selfie': streamRecord('INSERT', PERSON, person(false, true)),
      'a person without consents': streamRecord('INSERT', PERSON, { personId: PERSON_ID, hasSelfie: true }),
      'a person changed': streamRecord('MODIFY', PERSON, person(true, true)),
      'a person removed': streamRecord('REMOVE', PERSON),
      'a reference face': streamRecord('INSERT', keys.referenceFace(TENANT_ID, TOKEN, PERSON_ID), person(true, true)),
      'an event naming the person': streamRecord(
        'INSERT',
        keys.event(TENANT_ID, TOKEN, 'evt_01j9zk3v6q8x4m2n7p5r1s0t9v'),
        person(true, true),
      ),
    };
    // Act
    const invoking = Object.entries(records)
      .filter(([, record]) => invokes(record))
      .map(([name]) => name);
    // Assess
    expect(invoking).toEqual(['a person with a selfie and face consent']);
  });

  it('reads the gallery and the person, reads and puts reference faces only on condition of the person and the gallery, and reads selfies', () => {
    // Prepare
    const statements = roleStatements(built.template, functionId());
    const can = (action: string, key: string) =>
      allows(statements, { action: `dynamodb:${action}`, on: 'table', leadingKeys: [key] }, tableArn());
    const faces = keys.referenceFacesOfGallery(TENANT_ID, TOKEN);
    // Assess
    expect(
      FUNCTION_PERMISSIONS[REFERENCE_FACE_HANDLER]!.table.flatMap((access) =>
        access.actions.map((action) => `${action} ${access.partitions.join()}`),
      ).sort(),
    ).toEqual(
      [
        `Query ${PARTITIONS.galleryConfig}`,
        `GetItem ${PARTITIONS.persons}`,
        `ConditionCheckItem ${PARTITIONS.persons},${PARTITIONS.galleryConfig}`,
        `GetItem ${PARTITIONS.referenceFaces}`,
        `PutItem ${PARTITIONS.referenceFaces}`,
      ].sort(),
    );
    expect([
      can('Query', keys.galleryPartition(TENANT_ID, TOKEN)),
      can('GetItem', PERSON.pk),
      can('ConditionCheckItem', PERSON.pk),
      can('ConditionCheckItem', keys.galleryPartition(TENANT_ID, TOKEN)),
      can('GetItem', faces),
      can('PutItem', faces),
    ]).toEqual([true, true, true, true, true, true]);
    expect(['PutItem', 'UpdateItem', 'DeleteItem'].filter((action) => can(action, PERSON.pk))).toEqual([]);
    expect(['Query', 'UpdateItem', 'DeleteItem'].filter((action) => can(action, faces))).toEqual([]);
    const s3 = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
    expect(s3.map((statement) => [[statement.Action].flat(), [statement.Resource].flat().map(asText)])).toEqual([
      [['s3:GetObject'], [expect.stringMatching(/\/selfies\/\*$/)]],
    ]);
  });

  it('may send to its failure queue and no other queue', () => {
    const sends = roleStatements(built.template, functionId()).filter((statement) =>
      [statement.Action].flat().includes('sqs:SendMessage'),
    );
    expect(sends.flatMap((statement) => [statement.Resource].flat().map(asText))).toEqual([
      `\${${failureQueueId()}.Arn}`,
    ]);
  });

  it('keeps failed batches 14 days in an encrypted, TLS-only queue', () => {
    const queue = built.template.findResources('AWS::SQS::Queue')[failureQueueId()]!.Properties;
    expect([queue.MessageRetentionPeriod, queue.SqsManagedSseEnabled]).toEqual([14 * 24 * 3600, true]);
    const policies = Object.values(built.template.findResources('AWS::SQS::QueuePolicy')).filter((policy) =>
      JSON.stringify(policy.Properties.Queues).includes(failureQueueId()),
    );
    expect(JSON.stringify(policies)).toContain('"aws:SecureTransport":"false"');
  });

  it('runs for up to 60 s with 1024 MB, and alarms when it falls an hour behind the stream or a batch reaches the failure queue', () => {
    expect([functionOf().Timeout, functionOf().MemorySize]).toEqual([60, 1024]);
    const alarms = Object.values(built.template.findResources('AWS::CloudWatch::Alarm'));
    const lag = alarms.filter(
      (alarm) =>
        alarm.Properties.MetricName === 'IteratorAge' && alarm.Properties.Dimensions?.[0]?.Value?.Ref === functionId(),
    );
    const failures = alarms.filter(
      (alarm) =>
        alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        JSON.stringify(alarm.Properties.Dimensions).includes(failureQueueId()),
    );
    expect(
      [...lag, ...failures].map((alarm) => [
        alarm.Properties.MetricName,
        alarm.Properties.Threshold,
        alarm.Properties.AlarmActions?.length,
      ]),
    ).toEqual([
      ['IteratorAge', 3_600_000, 1],
      ['ApproximateNumberOfMessagesVisible', 1, 1],
    ]);
  });

  it('leaves cdk-nag nothing unsuppressed about the function, its role, its event source or its queue', () => {
    expect(
      nagFindings(built.stack).filter((finding) => /ReferenceFaces|FacesDescribeReferenceFaces/.test(finding)),
    ).toEqual([]);
  });
});
