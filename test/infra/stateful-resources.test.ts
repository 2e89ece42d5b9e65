import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { GroupShootStack } from '../../infra/groupshoot-stack';
import {
  PINNED_LOGICAL_IDS,
  type StackTemplate,
  pinProblems,
  refusedChanges,
  statefulChanges,
} from '../../infra/stateful-resources';
import { unbundledStack } from './unbundled-stack';

const TABLE_ID = 'TableCD117FA1';
const FRONT = { webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/front/0123' };

const templateOf = (change?: (stack: GroupShootStack) => void, props = {}) =>
  unbundledStack(props, change).template.toJSON() as StackTemplate;
const cfnTable = (stack: GroupShootStack) => stack.node.findChild('Table').node.defaultChild as CfnTable;

describe('upgrades: the stateful resources keep their logical IDs', () => {
  let current: StackTemplate;
  beforeAll(() => {
    current = templateOf();
  });

  it('pins every table, bucket, KMS key, secret and queue of the stack, with and without the API front', () => {
    // Act
    const withFront = templateOf(undefined, { apiFront: FRONT });

    // Assess
    expect(pinProblems(current)).toEqual([]);
    expect(pinProblems(withFront)).toEqual([]);
    const statefulIds = Object.entries(withFront.Resources!)
      .filter(([, resource]) =>
        /^AWS::(DynamoDB::Table|S3::Bucket|KMS::Key|SecretsManager::Secret|SQS::Queue)$/.test(resource.Type),
      )
      .map(([id]) => id);
    expect(statefulIds.sort()).toEqual(Object.keys(PINNED_LOGICAL_IDS).sort());
  });

  it("fails when a refactor renames the table's construct, and says why", () => {
    // Act: the same stack, with the table under another logical ID (as a renamed construct gets).
    const renamed = templateOf((stack) => stack.renameLogicalId(TABLE_ID, 'ServiceTable8A3F21C0'));

    // Assess
    const problems = pinProblems(renamed);
    expect(problems).toEqual([
      expect.stringMatching(
        /^TableCD117FA1 \(AWS::DynamoDB::Table, every tenant.*\) is no longer in the template\. CloudFormation knows a resource by its logical ID: under a new one it creates a new, empty resource/,
      ),
      expect.stringMatching(/^ServiceTable8A3F21C0 \(AWS::DynamoDB::Table\) holds data or work but is not pinned/),
    ]);
  });

  it('fails when a queue that holds work goes, or a new secret comes unpinned', () => {
    const { WebhooksQueueCBC86013: _queue, ...withoutQueue } = current.Resources!;
    const withSecret = {
      ...current.Resources,
      NewSecret1234: { Type: 'AWS::SecretsManager::Secret', Properties: {} },
    };
    expect(pinProblems({ Resources: withoutQueue })).toEqual([
      expect.stringContaining('WebhooksQueueCBC86013 (AWS::SQS::Queue, webhook deliveries waiting or being retried)'),
    ]);
    expect(pinProblems({ Resources: withSecret })).toEqual([expect.stringContaining('NewSecret1234')]);
  });
});

describe('npm run deploy: the diff guard on two synthesized templates', () => {
  let deployed: StackTemplate;
  beforeAll(() => {
    deployed = templateOf();
  });

  it('lets an unchanged stack, and a change of a stateless resource, through', () => {
    const next = templateOf(undefined, { checkinTenantSlug: 'acme-photo' });
    expect(statefulChanges(deployed, deployed)).toEqual([]);
    expect(statefulChanges(deployed, next)).toEqual([]);
  });

  it('refuses a change that deletes the table by renaming its construct, unless --allow-replace names it', () => {
    // Act
    const next = templateOf((stack) => stack.renameLogicalId(TABLE_ID, 'ServiceTable8A3F21C0'));
    const changes = statefulChanges(deployed, next);

    // Assess
    expect(changes).toEqual([
      {
        logicalId: TABLE_ID,
        type: 'AWS::DynamoDB::Table',
        change: 'deleted',
        reason: 'its logical ID is not in the new template',
      },
    ]);
    expect(refusedChanges(changes, [])).toHaveLength(1);
    expect(refusedChanges(changes, ['MediaMediaBucket84A4FA0D'])).toHaveLength(1);
    expect(refusedChanges(changes, [TABLE_ID])).toEqual([]);
  });

  it('refuses a change of a property that replaces the table (its key schema, its name)', () => {
    // Act
    const newKeys = templateOf((stack) =>
      cfnTable(stack).addPropertyOverride('KeySchema', [
        { AttributeName: 'sk', KeyType: 'HASH' },
        { AttributeName: 'pk', KeyType: 'RANGE' },
      ]),
    );
    const newName = templateOf((stack) => cfnTable(stack).addPropertyOverride('TableName', 'groupshoot-v2'));

    // Assess
    expect(statefulChanges(deployed, newKeys)).toEqual([
      expect.objectContaining({
        logicalId: TABLE_ID,
        change: 'replaced',
        reason: expect.stringContaining('KeySchema'),
      }),
    ]);
    expect(statefulChanges(deployed, newName)).toEqual([
      expect.objectContaining({
        logicalId: TABLE_ID,
        change: 'replaced',
        reason: expect.stringContaining('TableName'),
      }),
    ]);
  });

  it('does not count a stateful resource that only the new template has', () => {
    const withFront = templateOf(undefined, { apiFront: FRONT });
    expect(statefulChanges(deployed, withFront)).toEqual([]);
    expect(statefulChanges(withFront, deployed)).toEqual([
      expect.objectContaining({ logicalId: 'ApiFrontOriginVerifySecretEACCE3B7', change: 'deleted' }),
    ]);
  });
});
