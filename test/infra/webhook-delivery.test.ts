import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { keys } from '../support/table-keys';
import { ATTEMPT_SLOT_HOLD_MS, TENANT_ATTEMPTS_IN_FLIGHT } from '#lib/webhooks/rules/delivery-capacity';
import { DELIVERY_TIMEOUT_MS } from '#lib/webhooks/rules/delivery-schedule';
import {
  EVENT_DISPATCH_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
  WEBHOOK_DELIVERY_HANDLER,
} from '#lib/http/handlers';
import type { DynamoDBRecord } from 'aws-lambda';
import { ENDPOINT_DISABLED_MESSAGE, passesDispatchFilter } from '../../infra/webhook-delivery';
import { STREAM_MAX_RECORD_AGE, STREAM_RETRY_ATTEMPTS } from '../../infra/failure-queue';
import { asText, roleStatements } from './iam-evaluation';
import { matchesPattern } from './stream-filters';
import { unbundledStack } from './unbundled-stack';

type Resource = { Properties: Record<string, any> };

let built: ReturnType<typeof unbundledStack>;
/** Logical IDs: the table, the delivery queue, its dead-letter queue, the dispatcher's failure queue, the alarm topic, the sealing key. */
let ids: {
  table: string;
  queue: string;
  deadLetterQueue: string;
  dispatchFailures: string;
  topic: string;
  sealingKey: string;
};

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
  const only = (type: string, prefix: string) => {
    const found = Object.keys(built.template.findResources(type)).filter((id) => id.startsWith(prefix));
    if (found.length !== 1) throw new Error(`expected one ${type} starting with ${prefix}, found ${found.join(', ')}`);
    return found[0]!;
  };
  ids = {
    table: only('AWS::DynamoDB::Table', 'Table'),
    queue: only('AWS::SQS::Queue', 'WebhooksQueue'),
    deadLetterQueue: only('AWS::SQS::Queue', 'WebhooksDeadLetterQueue'),
    dispatchFailures: only('AWS::SQS::Queue', 'WebhooksDispatchFailures'),
    topic: only('AWS::SNS::Topic', 'Alarms'),
    sealingKey: only('AWS::SecretsManager::Secret', 'WebhookSealingKey'),
  };
}, 60_000);

const resources = (type: string) => Object.entries(built.template.findResources(type)) as [string, Resource][];
const functionOf = (handler: string) =>
  built.template.findResources('AWS::Lambda::Function')[built.functionIds.get(handler)!]!.Properties;

/** The event source mapping that invokes the function. */
function mappingOf(handler: string): Record<string, any> {
  const mappings = resources('AWS::Lambda::EventSourceMapping').filter(
    ([, mapping]) => mapping.Properties.FunctionName.Ref === built.functionIds.get(handler),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0]![1].Properties;
}

const TENANT_ID = 'ten_01j9zk3v6q8x4m2n7p5r1s0t9w';
const TOKEN = 'abcdefghjkmnpqrs';
const EVENT_ID = 'evt_01j9zk3v6q8x4m2n7p5r1s0t9v';

/** A stream record as Lambda filters it: event name, keys and new image in DynamoDB JSON. */
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
    dynamodb: {
      Keys: typed(key),
      ...(newImage ? { NewImage: typed({ ...key, ...newImage }) } : {}),
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

describe("the dispatcher on the table's stream", () => {
  it('has a stream of new images on the table', () => {
    built.template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('reads the stream from its oldest record, 100 records at a time, 4 batches per shard, retrying a bounded time, then keeping the record', () => {
    const mapping = mappingOf(EVENT_DISPATCH_HANDLER);
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': [ids.table, 'StreamArn'] });
    expect(mapping).toEqual(
      expect.objectContaining({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        ParallelizationFactor: 4,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
        MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE.toSeconds(),
      }),
    );
    // A record that always fails goes to the failure queue (docs/deployment.md#failure-replay), and its shard goes on.
    expect(mapping.DestinationConfig).toEqual({
      OnFailure: { Destination: { 'Fn::GetAtt': [ids.dispatchFailures, 'Arn'] } },
    });
    expect(STREAM_RETRY_ATTEMPTS).toBeGreaterThan(0);
  });

  it('is invoked only for new events and replay requests', () => {
    // Prepare
    const patterns = (mappingOf(EVENT_DISPATCH_HANDLER).FilterCriteria.Filters as { Pattern: string }[]).map((filter) =>
      JSON.parse(filter.Pattern),
    );
    const invokes = (record: unknown) => patterns.some((pattern) => matchesPattern(pattern, record));
    const event = keys.event(TENANT_ID, TOKEN, EVENT_ID);
    const delivery = keys.webhookDelivery(TENANT_ID, 'whsub_01j9zk3v6q8x4m2n7p5r1s0t9z', EVENT_ID);
    const records = {
      'a new event': streamRecord('INSERT', event, { type: 'person.created' }),
      'a replay request': streamRecord('MODIFY', delivery, { status: 'replay_requested' }),
      "a photos.assigned event's next photo": streamRecord('MODIFY', event, { type: 'photos.assigned' }),
      "a photos.withheld event's next photo": streamRecord('MODIFY', event, { type: 'photos.withheld' }),
      'an event expired by TTL': streamRecord('REMOVE', event),
      'a new person': streamRecord('INSERT', keys.person(TENANT_ID, TOKEN, 'per_01j9zk3v6q8x4m2n7p5r1s0t9x'), {
        status: 'checked_in',
      }),
      'a new delivery': streamRecord('INSERT', delivery, { status: 'pending' }),
      'a delivery attempted': streamRecord('MODIFY', delivery, { status: 'failed' }),
      'a replay status outside deliveries': streamRecord('MODIFY', keys.order(TENANT_ID, TOKEN, 'ord_1'), {
        status: 'replay_requested',
      }),
    };

    // Act
    const invoking = Object.entries(records)
      .filter(([, record]) => invokes(record))
      .map(([name]) => name);

    // Assess: the deployed filters, and the same filter as the local stream reader applies it.
    expect(invoking).toEqual(['a new event', 'a replay request']);
    const passedLocally = Object.entries(records)
      .filter(([, record]) => passesDispatchFilter(record as DynamoDBRecord))
      .map(([name]) => name);
    expect(passedLocally).toEqual(invoking);
  });

  it('runs for up to 60 s with 256 MB', () => {
    expect([functionOf(EVENT_DISPATCH_HANDLER).Timeout, functionOf(EVENT_DISPATCH_HANDLER).MemorySize]).toEqual([
      60, 256,
    ]);
  });
});

describe('the delivery queue', () => {
  it('hides a received message six times the delivery function timeout, keeps messages 4 days, encrypted, TLS only', () => {
    const queue = built.template.findResources('AWS::SQS::Queue')[ids.queue]!.Properties;
    expect(queue).toEqual({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * functionOf(WEBHOOK_DELIVERY_HANDLER).Timeout,
      MessageRetentionPeriod: 4 * 86_400,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [ids.deadLetterQueue, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(built.template.findResources('AWS::SQS::Queue')[ids.deadLetterQueue]!.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 86_400,
    });
  });

  it('refuses every request without TLS to either queue, as to every queue of the stack', () => {
    const tlsOnly = resources('AWS::SQS::QueuePolicy')
      .filter(([, policy]) =>
        (policy.Properties.PolicyDocument.Statement as Record<string, any>[]).some(
          (statement) =>
            statement.Effect === 'Deny' &&
            statement.Action === 'sqs:*' &&
            statement.Condition?.Bool?.['aws:SecureTransport'] === 'false',
        ),
      )
      .flatMap(([, policy]) => policy.Properties.Queues.map(asText));
    expect(tlsOnly).toEqual(expect.arrayContaining([`\${${ids.queue}}`, `\${${ids.deadLetterQueue}}`]));
    expect(tlsOnly.sort()).toEqual(
      Object.keys(built.template.findResources('AWS::SQS::Queue'))
        .map((id) => `\${${id}}`)
        .sort(),
    );
  });

  it('invokes the delivery function with 10 messages at a time, at most 50 at once, retrying only the failed ones', () => {
    const mapping = mappingOf(WEBHOOK_DELIVERY_HANDLER);
    expect(mapping).toEqual(
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [ids.queue, 'Arn'] },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 50 },
      }),
    );
  });

  it('names the queue to both event functions, and lets them (and no other function) send to it', () => {
    const queueUrl = { Ref: ids.queue };
    for (const handler of [EVENT_DISPATCH_HANDLER, WEBHOOK_DELIVERY_HANDLER])
      expect(functionOf(handler).Environment.Variables.WEBHOOK_QUEUE_URL).toEqual(queueUrl);
    const sendsToQueue = (handler: string) =>
      roleStatements(built.template, built.functionIds.get(handler)!).some(
        (statement) =>
          [statement.Action].flat().includes('sqs:SendMessage') &&
          [statement.Resource].flat().map(asText).includes(`\${${ids.queue}.Arn}`),
      );
    const senders = [...built.functionIds.keys()].filter(sendsToQueue);
    expect(senders.sort()).toEqual([EVENT_DISPATCH_HANDLER, WEBHOOK_DELIVERY_HANDLER].sort());
    const sends = roleStatements(built.template, built.functionIds.get(EVENT_DISPATCH_HANDLER)!).filter((statement) =>
      [statement.Action].flat().includes('sqs:SendMessage'),
    );
    // Besides the delivery queue, Lambda sends the records it gives up on to the failure queue with the function's role.
    expect(sends.flatMap((statement) => [statement.Resource].flat().map(asText)).sort()).toEqual(
      [`\${${ids.dispatchFailures}.Arn}`, `\${${ids.queue}.Arn}`].sort(),
    );
  });
});

describe('the delivery function', () => {
  it('runs for up to 30 s with 256 MB, outside any VPC (deliveries go to the internet)', () => {
    const fn = functionOf(WEBHOOK_DELIVERY_HANDLER);
    expect([fn.Timeout, fn.MemorySize, fn.VpcConfig]).toEqual([30, 256, undefined]);
  });

  it("leaves other tenants most of the functions: a tenant's attempts in flight hold fewer than half, and a slot outlives any attempt", () => {
    // Each attempt in flight can keep one function busy (its batch waits for it) for up to the attempt's timeout.
    const functions = mappingOf(WEBHOOK_DELIVERY_HANDLER).ScalingConfig.MaximumConcurrency;
    expect(TENANT_ATTEMPTS_IN_FLIGHT).toBeLessThan(functions / 2);
    // A slot whose function died frees itself, but never while its attempt may still run.
    expect(ATTEMPT_SLOT_HOLD_MS).toBeGreaterThanOrEqual(functionOf(WEBHOOK_DELIVERY_HANDLER).Timeout * 1000);
    expect(DELIVERY_TIMEOUT_MS).toBeLessThan(ATTEMPT_SLOT_HOLD_MS);
  });

  it('alone learns and may read the sealing key, a generated secret of 64 letters and digits kept with the table', () => {
    const secret = built.template.findResources('AWS::SecretsManager::Secret')[ids.sealingKey]!;
    expect(secret.Properties.GenerateSecretString).toEqual({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secret.DeletionPolicy).toBe('Retain');
    const told = [...built.functionIds.keys()].filter(
      (handler) => functionOf(handler).Environment.Variables.WEBHOOK_SEALING_KEY_ARN !== undefined,
    );
    expect(told).toEqual([WEBHOOK_DELIVERY_HANDLER]);
    expect(functionOf(WEBHOOK_DELIVERY_HANDLER).Environment.Variables.WEBHOOK_SEALING_KEY_ARN).toEqual({
      Ref: ids.sealingKey,
    });
    const readers = [...built.functionIds].filter(([, functionId]) =>
      roleStatements(built.template, functionId).some(
        (statement) =>
          [statement.Action].flat().includes('secretsmanager:GetSecretValue') &&
          [statement.Resource].flat().map(asText).includes(`\${${ids.sealingKey}}`),
      ),
    );
    expect(readers.map(([handler]) => handler)).toEqual([WEBHOOK_DELIVERY_HANDLER]);
  });
});

describe('webhook alarms, to the alarm topic', () => {
  const alarmsOf = (metricName: string) =>
    resources('AWS::CloudWatch::Alarm')
      .filter(([, alarm]) => alarm.Properties.MetricName === metricName)
      .map(([, alarm]) => alarm.Properties);

  it('alarms when a message reaches the dead-letter queue', () => {
    // The reference-face function's failure queue has an alarm of its own (test/infra/reference-faces.test.ts).
    // So has the dispatcher's failure queue (test/infra/failure-keeping.test.ts).
    const alarms = alarmsOf('ApproximateNumberOfMessagesVisible').filter((alarm) =>
      alarm.Dimensions[0].Value['Fn::GetAtt'][0].startsWith('WebhooksDeadLetter'),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toEqual(
      expect.objectContaining({
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.deadLetterQueue, 'QueueName'] } }],
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Threshold: 1,
        AlarmActions: [{ Ref: ids.topic }],
      }),
    );
  });

  it('alarms when the dispatcher falls an hour behind the stream, long before its records expire', () => {
    // The photo-ready email and reference-face functions read the stream too, each with a lag alarm of its own
    // (test/infra/photo-notices.test.ts, test/infra/reference-faces.test.ts).
    const others = [PHOTO_NOTICE_HANDLER, REFERENCE_FACE_HANDLER].map((handler) => built.functionIds.get(handler));
    const alarms = alarmsOf('IteratorAge').filter((alarm) => !others.includes(alarm.Dimensions[0].Value.Ref));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toEqual(
      expect.objectContaining({
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: built.functionIds.get(EVENT_DISPATCH_HANDLER) } }],
        Statistic: 'Maximum',
        Threshold: 3_600_000,
        AlarmActions: [{ Ref: ids.topic }],
      }),
    );
  });

  it("counts the delivery function's 'webhook endpoint disabled' lines and alarms on one within 5 minutes", () => {
    // Prepare
    const [filter, ...others] = resources('AWS::Logs::MetricFilter').map(([, resource]) => resource.Properties);
    expect(others).toEqual([]);

    // Assess: on the delivery function's own log group, the JSON line whose message is exactly that.
    expect(filter!.LogGroupName).toEqual(functionOf(WEBHOOK_DELIVERY_HANDLER).LoggingConfig.LogGroup);
    expect(filter!.FilterPattern).toBe('{ $.message = "webhook endpoint disabled" }');
    expect(filter!.MetricTransformations).toEqual([
      { MetricNamespace: 'GroupShoot', MetricName: 'WebhookEndpointsDisabled', MetricValue: '1' },
    ]);
    const alarms = alarmsOf('WebhookEndpointsDisabled');
    expect(alarms).toEqual([
      expect.objectContaining({
        Namespace: 'GroupShoot',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [{ Ref: ids.topic }],
      }),
    ]);
  });

  it('matches a message the delivery code actually logs', () => {
    const root = join(__dirname, '..', '..');
    const sources = ['lib', 'functions'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(join(root, folder, file), 'utf8')),
    );
    const logged = sources.filter(
      (source) =>
        source.includes(`logger.error('${ENDPOINT_DISABLED_MESSAGE}'`) ||
        source.includes(`logger.warn('${ENDPOINT_DISABLED_MESSAGE}'`),
    );
    expect(logged).toHaveLength(1);
  });
});
