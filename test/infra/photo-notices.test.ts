import { keys } from '../support/table-keys';
import { PHOTO_NOTICE_CLAIM_MS } from '#lib/persons/rules/photo-notice-state';
import { FUNCTION_PERMISSIONS } from '../../infra/function-permissions';
import { PHOTO_NOTICE_HANDLER } from '#lib/http/handlers';
import { PHOTO_NOTICE_BATCH_SIZE } from '../../infra/photo-notices';
import { STREAM_MAX_RECORD_AGE, STREAM_RETRY_ATTEMPTS } from '../../infra/failure-queue';
import { GSI1_PARTITIONS, PARTITIONS } from '../../infra/table-access';
import { type Statement, allows, asText, roleStatements } from './iam-evaluation';
import { filterPatternsOf, matchesPattern } from './stream-filters';
import { nagFindings, unbundledStack } from './unbundled-stack';

const SENDER = 'photos@studio.example';
const TENANT_ID = 'ten_01j9zk3v6q8x4m2n7p5r1s0t9w';
const TOKEN = 'abcdefghjkmnpqrs';
const PERSON = keys.person(TENANT_ID, TOKEN, 'per_01j9zk3v6q8x4m2n7p5r1s0t9x');
const EVENT = keys.event(TENANT_ID, TOKEN, 'evt_01j9zk3v6q8x4m2n7p5r1s0t9v');

type Built = ReturnType<typeof unbundledStack>;
let configured: Built;
let unconfigured: Built;

beforeAll(() => {
  // Prepare: the stack with a sender address, and as deployed without one (not bundled: the code is not under test here).
  configured = unbundledStack({ photoNoticeSender: SENDER });
  unconfigured = unbundledStack();
}, 120_000);

const functionOf = (built: Built) =>
  built.template.findResources('AWS::Lambda::Function')[built.functionIds.get(PHOTO_NOTICE_HANDLER)!]!.Properties;
const statementsOf = (built: Built) => roleStatements(built.template, built.functionIds.get(PHOTO_NOTICE_HANDLER)!);
const tableArnOf = (built: Built) => `\${${Object.keys(built.template.findResources('AWS::DynamoDB::Table'))[0]}.Arn}`;
const sesStatements = (built: Built) =>
  statementsOf(built).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')));

function mappingOf(built: Built): Record<string, any> {
  const mappings = Object.values(built.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (mapping) => mapping.Properties.FunctionName.Ref === built.functionIds.get(PHOTO_NOTICE_HANDLER),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0]!.Properties;
}

function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  key: { pk: string; sk: string },
  newImage?: Record<string, string>,
) {
  const typed = (item: Record<string, string>) =>
    Object.fromEntries(Object.entries(item).map(([name, value]) => [name, { S: value }]));
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: { Keys: typed(key), ...(newImage ? { NewImage: typed({ ...key, ...newImage }) } : {}) },
  };
}

describe('the photo-ready email function', () => {
  it("reads the table's stream from its oldest record, a few records at a time, reporting the first that failed, halving a batch that crashes, retrying a bounded time, then keeping the record", () => {
    const mapping = mappingOf(configured);
    expect(mapping.EventSourceArn).toEqual({
      'Fn::GetAtt': [Object.keys(configured.template.findResources('AWS::DynamoDB::Table'))[0], 'StreamArn'],
    });
    expect(mapping).toEqual(
      expect.objectContaining({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: PHOTO_NOTICE_BATCH_SIZE,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
        MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE.toSeconds(),
      }),
    );
    expect(JSON.stringify(mapping.DestinationConfig)).toMatch(/PhotoNoticesFailuresQueue/);
  });

  it('is invoked only for photos.assigned event items, created or counted up', () => {
    // Prepare
    const patterns = filterPatternsOf(mappingOf(configured));
    const invokes = (record: unknown) => patterns.some((pattern) => matchesPattern(pattern, record));
    const records = {
      "a window's first photo": streamRecord('INSERT', EVENT, { type: 'photos.assigned' }),
      "a window's next photo": streamRecord('MODIFY', EVENT, { type: 'photos.assigned' }),
      'another event': streamRecord('INSERT', EVENT, { type: 'person.created' }),
      // Withheld photos wait for the studio's review; nobody is told of photos they do not have.
      "a photos.withheld window's first photo": streamRecord('INSERT', EVENT, { type: 'photos.withheld' }),
      "a photos.withheld window's next photo": streamRecord('MODIFY', EVENT, { type: 'photos.withheld' }),
      'an event expired by TTL': streamRecord('REMOVE', EVENT),
      'a person': streamRecord('MODIFY', PERSON, { type: 'photos.assigned' }),
    };
    // Act
    const invoking = Object.entries(records)
      .filter(([, record]) => invokes(record))
      .map(([name]) => name);
    // Assess
    expect(invoking).toEqual(["a window's first photo", "a window's next photo"]);
  });

  it('may send email through SES only from the configured address, which it is given', () => {
    const statements = sesStatements(configured);
    expect(statements).toHaveLength(1);
    const [statement] = statements as [Statement];
    expect([statement.Effect, [statement.Action].flat()]).toEqual(['Allow', ['ses:SendEmail']]);
    expect([statement.Resource].flat().map(asText)).toEqual([
      'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*',
    ]);
    expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': SENDER } });
    expect(functionOf(configured).Environment.Variables).toEqual(
      expect.objectContaining({ PHOTO_NOTICE_FROM: SENDER, CHECKIN_PAGE_URL: expect.anything() }),
    );
  });

  it('may send no email and has no sender without a configured address', () => {
    expect(sesStatements(unconfigured)).toEqual([]);
    expect(functionOf(unconfigured).Environment.Variables.PHOTO_NOTICE_FROM).toBeUndefined();
    // Its records are still read (and pass): nothing waits in the stream for a sender.
    expect(mappingOf(unconfigured).FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('leaves cdk-nag nothing unsuppressed about the function, its role or its event source', () => {
    expect(
      nagFindings(configured.stack).filter((finding) => /PhotoNotices|PhotosSendPhotoNotices/.test(finding)),
    ).toEqual([]);
  });

  it('refuses a sender that is not an email address', () => {
    expect(() => unbundledStack({ photoNoticeSender: 'Photos <photos@studio.example>' })).toThrow(
      'photoNoticeSender is not an email address',
    );
  }, 60_000);

  it('reads gallery, the tenant by its ID pointer and profile (the directory only for a tenant without a pointer, whose pointer it then puts) and persons, and changes a person only in the notice attributes', () => {
    // Prepare
    const statements = statementsOf(configured);
    const can = (action: string, on: 'table' | 'gsi1', key: string, attributes?: string[], returnValues?: string) =>
      allows(
        statements,
        { action: `dynamodb:${action}`, on, leadingKeys: [key], attributes, returnValues },
        tableArnOf(configured),
      );
    // Assess
    expect(FUNCTION_PERMISSIONS[PHOTO_NOTICE_HANDLER]!.table.flatMap((access) => access.partitions).sort()).toEqual(
      [
        PARTITIONS.galleryConfig,
        PARTITIONS.tenantIdPointer,
        PARTITIONS.tenant,
        GSI1_PARTITIONS.tenantDirectory,
        PARTITIONS.persons,
        PARTITIONS.persons,
      ].sort(),
    );
    expect([
      can('Query', 'table', keys.galleryPartition(TENANT_ID, TOKEN)),
      can('GetItem', 'table', keys.tenantIdPointer(TENANT_ID).pk),
      can('PutItem', 'table', keys.tenantIdPointer(TENANT_ID).pk),
      can('GetItem', 'table', keys.tenant('acme-photo').pk),
      can('Query', 'gsi1', keys.tenantDirectory()),
      can('GetItem', 'table', PERSON.pk),
    ]).toEqual([true, true, true, true, true, true]);
    expect(
      ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'].filter((action) =>
        can(action, 'table', keys.tenant('acme-photo').pk),
      ),
    ).toEqual([]);
    expect(can('UpdateItem', 'table', PERSON.pk, ['pk', 'sk', 'photoNoticeClaimedAt', 'photoNoticeSentAt'])).toBe(true);
    // The claim's condition names the notification consent (a withdrawal stops the email), and IAM
    // cannot tell an attribute a condition names from one the update sets: both are granted.
    expect(
      can('UpdateItem', 'table', PERSON.pk, ['pk', 'sk', 'photoNoticeClaimedAt', 'consents', 'notificationConsent']),
    ).toBe(true);
    for (const attribute of ['email', 'photoCount', 'code', 'name', 'faceConsent', 'hrExportConsent'])
      expect([attribute, can('UpdateItem', 'table', PERSON.pk, ['pk', 'sk', attribute])]).toEqual([attribute, false]);
    expect(can('UpdateItem', 'table', PERSON.pk)).toBe(false);
    expect(can('UpdateItem', 'table', PERSON.pk, ['pk', 'sk', 'photoNoticeSentAt'], 'ALL_NEW')).toBe(false);
    expect(['PutItem', 'DeleteItem', 'Query'].filter((action) => can(action, 'table', PERSON.pk))).toEqual([]);
    expect(['GetItem', 'Query', 'PutItem', 'UpdateItem'].filter((action) => can(action, 'table', EVENT.pk))).toEqual(
      [],
    );
    expect(
      ['GetItem', 'Query'].filter((action) =>
        can(action, 'table', keys.photosOfPerson(TENANT_ID, TOKEN, 'per_01j9zk3v6q8x4m2n7p5r1s0t9x')),
      ),
    ).toEqual([]);
  });

  it('runs for up to 60 s, half the time a claim holds, with 256 MB, and alarms when it falls an hour behind the stream', () => {
    expect([functionOf(configured).Timeout, functionOf(configured).MemorySize]).toEqual([60, 256]);
    expect(functionOf(configured).Timeout * 2 * 1000).toBeLessThanOrEqual(PHOTO_NOTICE_CLAIM_MS);
    const lagAlarms = Object.values(configured.template.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) =>
        alarm.Properties.MetricName === 'IteratorAge' &&
        alarm.Properties.Dimensions?.[0]?.Value?.Ref === configured.functionIds.get(PHOTO_NOTICE_HANDLER),
    );
    expect(lagAlarms.map((alarm) => [alarm.Properties.Threshold, alarm.Properties.AlarmActions?.length])).toEqual([
      [3_600_000, 1],
    ]);
  });
});
