import { Match } from 'aws-cdk-lib/assertions';
import { MEDIA_FOLDERS } from '#lib/platform/media-keys';
import {
  HR_EXPORT_BUILD_HANDLER,
  REFERENCE_FACE_HANDLER,
  RETENTION_PLANNER_HANDLER,
  RETENTION_WORKER_HANDLER,
} from '#lib/http/handlers';
import { HR_EXPORT_DOWNLOAD_URL_SECONDS, HR_EXPORT_OBJECT_DAYS } from '#lib/hr-exports/rules/hr-export-model';
import {
  RETENTION_MAX_RECEIVES,
  RETENTION_PLAN_MAX_RECEIVES,
  RETENTION_WORKER_CONCURRENCY,
  type RetentionFanOut,
} from '../../infra/retention-fan-out';
import type { MediaDelivery } from '../../infra/media-delivery';
import { type Statement, asText, roleStatements } from './iam-evaluation';
import { nagFindings, unbundledStack } from './unbundled-stack';

type Resource = { Properties: Record<string, any> };

let built: ReturnType<typeof unbundledStack>;
/** Logical IDs of the media bucket and the check-in page bucket. */
let mediaBucketId: string;
let pageBucketId: string;
/** Logical IDs of the photo distribution and of the retention run's queues. */
let photoCdnId: string;
let ids: { queue: string; planQueue: string; deadLetterQueue: string };

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
  const delivery = built.stack.node.findChild('Media') as MediaDelivery;
  mediaBucketId = built.stack.getLogicalId(delivery.mediaBucket.node.defaultChild as never);
  pageBucketId = built.stack.getLogicalId(delivery.checkinPageBucket.node.defaultChild as never);
  photoCdnId = built.stack.getLogicalId(delivery.photoCdn.node.defaultChild as never);
  const retention = built.stack.node.findChild('Retention') as RetentionFanOut;
  const idOf = (queue: { node: { defaultChild?: unknown } }) =>
    built.stack.getLogicalId(queue.node.defaultChild as never);
  ids = {
    queue: idOf(retention.queue),
    planQueue: idOf(retention.planQueue),
    deadLetterQueue: idOf(retention.deadLetterQueue),
  };
}, 60_000);

const resources = (type: string) => Object.values(built.template.findResources(type)) as Resource[];
const statementsOf = (handler: string) => roleStatements(built.template, built.functionIds.get(handler)!);
const functionOf = (handler: string) =>
  built.template.findResources('AWS::Lambda::Function')[built.functionIds.get(handler)!]!.Properties;

/** The event source mapping that invokes the function. */
function mappingOf(handler: string): Record<string, any> {
  const mappings = resources('AWS::Lambda::EventSourceMapping').filter(
    (mapping) => mapping.Properties.FunctionName.Ref === built.functionIds.get(handler),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0]!.Properties;
}
const s3Statements = (handler: string) =>
  statementsOf(handler).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));

/** Whether an S3 origin with this origin path can serve this object: `/photos` serves `photos/…`; no path, everything. */
function reaches(originPath: string | undefined, objectKey: string): boolean {
  const folder = (originPath ?? '').replace(/^\/+|\/+$/g, '');
  return folder === '' || objectKey.startsWith(`${folder}/`);
}

describe('the photo CDN serves photos/ only', () => {
  it('has no distribution with an origin in the media bucket whose path reaches selfies/', () => {
    const origins = resources('AWS::CloudFront::Distribution').flatMap(
      (distribution) => distribution.Properties.DistributionConfig.Origins as Record<string, any>[],
    );
    const inMediaBucket = origins.filter((origin) => asText(origin.DomainName).startsWith(`\${${mediaBucketId}.`));
    expect(inMediaBucket).toHaveLength(1);
    for (const origin of inMediaBucket) {
      expect(reaches(origin.OriginPath, `${MEDIA_FOLDERS.selfies}/ten_x/token/per_x.jpg`)).toBe(false);
      expect(reaches(origin.OriginPath, `${MEDIA_FOLDERS.photos}/ten_x/token/per_x/a.jpg`)).toBe(true);
      expect(origin.OriginAccessControlId).toBeDefined();
    }
  });

  it('lets CloudFront read objects under photos/ of the media bucket and nothing else', () => {
    const [policy] = resources('AWS::S3::BucketPolicy').filter(
      (candidate) => asText(candidate.Properties.Bucket) === `\${${mediaBucketId}}`,
    );
    const cloudFront = (policy!.Properties.PolicyDocument.Statement as (Statement & { Principal?: any })[]).filter(
      (statement) =>
        statement.Effect === 'Allow' && JSON.stringify(statement.Principal ?? {}).includes('cloudfront.amazonaws.com'),
    );
    expect(
      cloudFront.map((statement) => ({
        actions: [statement.Action].flat(),
        resources: [statement.Resource].flat().map(asText),
      })),
    ).toEqual([{ actions: ['s3:GetObject'], resources: [`\${${mediaBucketId}.Arn}/${MEDIA_FOLDERS.photos}/*`] }]);
  });

  it('still serves the whole check-in page bucket to its own distribution', () => {
    const [policy] = resources('AWS::S3::BucketPolicy').filter(
      (candidate) => asText(candidate.Properties.Bucket) === `\${${pageBucketId}}`,
    );
    expect(JSON.stringify(policy!.Properties.PolicyDocument)).toContain('cloudfront.amazonaws.com');
  });
});

describe('the check-in page CDN', () => {
  it('sends Referrer-Policy: no-referrer, overriding whatever the bucket holds', () => {
    const [policyId] = Object.keys(
      built.template.findResources('AWS::CloudFront::ResponseHeadersPolicy', {
        Properties: {
          ResponseHeadersPolicyConfig: {
            SecurityHeadersConfig: { ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true } },
          },
        },
      }),
    );
    expect(policyId).toBeDefined();
    const page = resources('AWS::CloudFront::Distribution').find((distribution) =>
      distribution.Properties.DistributionConfig.Comment.includes('check-in page'),
    )!;
    expect(page.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });
});

describe('media bucket grants', () => {
  it('lets the check-in function put and delete selfies, the reference-face function read them, and the ingest read and delete photos and write thumbnails, nowhere else', () => {
    const grants = (handler: string) =>
      s3Statements(handler).map((statement) => ({
        actions: [statement.Action].flat().sort(),
        resources: [statement.Resource].flat().map(asText),
      }));
    expect(grants('checkin/post-group-shoot')).toEqual([
      { actions: ['s3:DeleteObject', 's3:PutObject'], resources: [`\${${mediaBucketId}.Arn}/selfies/*`] },
    ]);
    expect(grants(REFERENCE_FACE_HANDLER)).toEqual([
      { actions: ['s3:GetObject'], resources: [`\${${mediaBucketId}.Arn}/selfies/*`] },
    ]);
    // A photo of an erased person is deleted as it arrives, with its versions; the photos an erased card governs are found by listing theirs, under photos/ only.
    const ingest = s3Statements('photos/sorting/ingest-photo').map((statement) => ({
      actions: [statement.Action].flat().sort(),
      resources: [statement.Resource].flat().map(asText),
      condition: statement.Condition,
    }));
    expect(ingest).toEqual([
      {
        actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:GetObject'],
        resources: [`\${${mediaBucketId}.Arn}/photos/*`],
        condition: undefined,
      },
      {
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [`\${${mediaBucketId}.Arn}`],
        condition: { StringLike: { 's3:prefix': ['photos/*'] } },
      },
      // The review's thumbnails, made as a photo is sorted, and deleted with their versions when the sorting deletes an erased person's photo.
      {
        actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:PutObject'],
        resources: [`\${${mediaBucketId}.Arn}/thumbnails/*`],
        condition: undefined,
      },
      {
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [`\${${mediaBucketId}.Arn}`],
        condition: { StringLike: { 's3:prefix': ['thumbnails/*'] } },
      },
    ]);
  });

  it('lets the retention worker list selfies/, photos/, hr-exports/, portrait-crops/ and thumbnails/ only, and delete their objects and versions; the planner nothing', () => {
    expect(s3Statements(RETENTION_PLANNER_HANDLER)).toEqual([]);
    const statements = s3Statements(RETENTION_WORKER_HANDLER);
    expect(
      statements.map((statement) => ({
        actions: [statement.Action].flat().sort(),
        resources: [statement.Resource].flat().map(asText),
        condition: statement.Condition,
      })),
    ).toEqual([
      {
        actions: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
        resources: [
          `\${${mediaBucketId}.Arn}/selfies/*`,
          `\${${mediaBucketId}.Arn}/photos/*`,
          `\${${mediaBucketId}.Arn}/hr-exports/*`,
          `\${${mediaBucketId}.Arn}/portrait-crops/*`,
          `\${${mediaBucketId}.Arn}/thumbnails/*`,
        ],
        condition: undefined,
      },
      {
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [`\${${mediaBucketId}.Arn}`],
        condition: {
          StringLike: { 's3:prefix': ['selfies/*', 'photos/*', 'hr-exports/*', 'portrait-crops/*', 'thumbnails/*'] },
        },
      },
    ]);
  });

  it('lets no other function list the bucket than ingest, the inbox listing of uploads, the retention worker and the HR export builder', () => {
    const listers = [...built.functionIds.keys()].filter((handler) =>
      s3Statements(handler).some((statement) => [statement.Action].flat().some((action) => /^s3:List/.test(action))),
    );
    expect(listers.sort()).toEqual(
      [
        'photos/sorting/ingest-photo',
        'photos/uploads/list-inbox-files',
        RETENTION_WORKER_HANDLER,
        HR_EXPORT_BUILD_HANDLER,
      ].sort(),
    );
  });

  it('lets the HR export builder only read photos, read, write and list crops, and write, abort and delete export ZIPs, listing only crops and ZIPs', () => {
    const statements = s3Statements(HR_EXPORT_BUILD_HANDLER).map((statement) => ({
      actions: [statement.Action].flat().sort(),
      resources: [statement.Resource].flat().map(asText),
      condition: statement.Condition,
    }));
    expect(statements).toEqual([
      { actions: ['s3:GetObject'], resources: [`\${${mediaBucketId}.Arn}/photos/*`], condition: undefined },
      {
        actions: ['s3:GetObject', 's3:PutObject'],
        resources: [`\${${mediaBucketId}.Arn}/portrait-crops/*`],
        condition: undefined,
      },
      {
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [`\${${mediaBucketId}.Arn}`],
        condition: { StringLike: { 's3:prefix': ['portrait-crops/*'] } },
      },
      {
        actions: ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:DeleteObjectVersion', 's3:PutObject'],
        resources: [`\${${mediaBucketId}.Arn}/hr-exports/*`],
        condition: undefined,
      },
      {
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [`\${${mediaBucketId}.Arn}`],
        condition: { StringLike: { 's3:prefix': ['hr-exports/*'] } },
      },
    ]);
    const reader = s3Statements('hr-exports/get-hr-export').map((statement) => ({
      actions: [statement.Action].flat(),
      resources: [statement.Resource].flat().map(asText),
    }));
    expect(reader).toEqual([{ actions: ['s3:GetObject'], resources: [`\${${mediaBucketId}.Arn}/hr-exports/*`] }]);
  });
});

describe('retention', () => {
  it('starts the planner once a day at 03:15 UTC, never retried, one run at a time, for up to 5 minutes', () => {
    const functionId = built.functionIds.get(RETENTION_PLANNER_HANDLER)!;
    built.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(15 3 * * ? *)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
      ],
    });
    const fn = built.template.findResources('AWS::Lambda::Function')[functionId]!.Properties;
    expect([fn.Timeout, fn.ReservedConcurrentExecutions]).toEqual([300, 1]);
  });

  it('hands each gallery to the worker alone, for up to 15 minutes, at most a few at once; the planner takes its continuations one at a time', () => {
    const worker = mappingOf(RETENTION_WORKER_HANDLER);
    expect(worker).toEqual(
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [ids.queue, 'Arn'] },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: RETENTION_WORKER_CONCURRENCY },
      }),
    );
    expect(mappingOf(RETENTION_PLANNER_HANDLER)).toEqual(
      expect.objectContaining({ EventSourceArn: { 'Fn::GetAtt': [ids.planQueue, 'Arn'] }, BatchSize: 1 }),
    );
    expect(functionOf(RETENTION_WORKER_HANDLER).Timeout).toBe(900);
  });

  it('moves a gallery failed 3 times, and a continuation failed 5 times, to one dead-letter queue that alarms; messages stay hidden 6 times the consumer timeout', () => {
    const queues = built.template.findResources('AWS::SQS::Queue');
    const redrive = (id: string) => queues[id]!.Properties.RedrivePolicy;
    expect(redrive(ids.queue)).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [ids.deadLetterQueue, 'Arn'] },
      maxReceiveCount: RETENTION_MAX_RECEIVES,
    });
    expect(redrive(ids.planQueue)).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [ids.deadLetterQueue, 'Arn'] },
      maxReceiveCount: RETENTION_PLAN_MAX_RECEIVES,
    });
    expect([
      queues[ids.queue]!.Properties.VisibilityTimeout,
      queues[ids.planQueue]!.Properties.VisibilityTimeout,
    ]).toEqual([5400, 1800]);
    for (const id of [ids.queue, ids.planQueue, ids.deadLetterQueue])
      expect(queues[id]!.Properties.SqsManagedSseEnabled).toBe(true);
    built.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.deadLetterQueue, 'QueueName'] } }],
      Threshold: 1,
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^Alarms') }],
    });
  });

  it('lets the planner send to both queues and tells it their URLs; the worker sends nothing', () => {
    const sends = (handler: string) =>
      statementsOf(handler)
        .filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'))
        .flatMap((statement) => [statement.Resource].flat().map(asText));
    expect(sends(RETENTION_PLANNER_HANDLER).sort()).toEqual(
      [`\${${ids.queue}.Arn}`, `\${${ids.planQueue}.Arn}`].sort(),
    );
    expect(sends(RETENTION_WORKER_HANDLER)).toEqual([]);
    expect(functionOf(RETENTION_PLANNER_HANDLER).Environment.Variables).toEqual(
      expect.objectContaining({
        RETENTION_QUEUE_URL: { Ref: ids.queue },
        RETENTION_PLAN_QUEUE_URL: { Ref: ids.planQueue },
      }),
    );
  });

  it('lets the worker alone invalidate the photo CDN, that distribution only, and names it in its environment', () => {
    const invalidating = [...built.functionIds.keys()].filter((handler) =>
      statementsOf(handler).some((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('cloudfront:')),
      ),
    );
    expect(invalidating).toEqual([RETENTION_WORKER_HANDLER]);
    const statements = statementsOf(RETENTION_WORKER_HANDLER).filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('cloudfront:')),
    );
    expect(
      statements.map((statement) => ({
        actions: [statement.Action].flat(),
        resources: [statement.Resource].flat().map(asText),
      })),
    ).toEqual([
      {
        actions: ['cloudfront:CreateInvalidation'],
        resources: [`arn:\${AWS::Partition}:cloudfront::\${AWS::AccountId}:distribution/\${${photoCdnId}}`],
      },
    ]);
    expect(functionOf(RETENTION_WORKER_HANDLER).Environment.Variables.PHOTO_CDN_DISTRIBUTION_ID).toEqual({
      Ref: photoCdnId,
    });
  });

  it('keeps replaced or deleted media versions 30 days, selfies, HR exports and crops 1 day', () => {
    const media = built.template.findResources('AWS::S3::Bucket')[mediaBucketId]!.Properties.LifecycleConfiguration
      .Rules as Record<string, any>[];
    const noncurrent = media
      .filter((rule) => rule.NoncurrentVersionExpiration)
      .map((rule) => [rule.Prefix ?? '', rule.NoncurrentVersionExpiration.NoncurrentDays]);
    expect(noncurrent).toEqual([
      ['', 30],
      ['selfies/', 1],
      ['hr-exports/', 1],
      ['portrait-crops/', 1],
      ['thumbnails/', 1],
    ]);
  });

  it(`deletes HR export ZIPs after ${HR_EXPORT_OBJECT_DAYS} days, cached crops after 90 and thumbnails after 30, by lifecycle rules on their folders`, () => {
    const media = built.template.findResources('AWS::S3::Bucket')[mediaBucketId]!.Properties.LifecycleConfiguration
      .Rules as Record<string, any>[];
    const expiring = media
      .filter((rule) => rule.ExpirationInDays)
      .map((rule) => [rule.Prefix, rule.ExpirationInDays, rule.Status]);
    expect(expiring).toEqual([
      ['hr-exports/', HR_EXPORT_OBJECT_DAYS, 'Enabled'],
      ['portrait-crops/', 90, 'Enabled'],
      ['thumbnails/', 30, 'Enabled'],
    ]);
    expect(HR_EXPORT_DOWNLOAD_URL_SECONDS).toBeLessThan(HR_EXPORT_OBJECT_DAYS * 86_400);
  });

  it('keeps access logs 90 days', () => {
    // The media bucket's expiring folders have their own test above.
    const logs = Object.entries(built.template.findResources('AWS::S3::Bucket'))
      .filter(
        ([id, bucket]) =>
          id !== mediaBucketId &&
          JSON.stringify(bucket.Properties.LifecycleConfiguration ?? {}).includes('ExpirationInDays'),
      )
      .map(([, bucket]) => bucket);
    expect(
      logs.map((bucket) =>
        bucket.Properties.LifecycleConfiguration.Rules.map(
          (rule: { ExpirationInDays?: number }) => rule.ExpirationInDays,
        ),
      ),
    ).toEqual([[90]]);
  });

  it("gives every function, CDK's own included, a log group that keeps its lines 30 days", () => {
    const logGroups = built.template.findResources('AWS::Logs::LogGroup');
    const functions = Object.entries(built.template.findResources('AWS::Lambda::Function'));
    const retention = functions.map(([id, fn]) => [
      id,
      logGroups[fn.Properties.LoggingConfig?.LogGroup?.Ref]?.Properties.RetentionInDays,
    ]);
    expect(retention).toEqual(functions.map(([id]) => [id, 30]));
    expect(Object.values(logGroups).every((group) => group.Properties.RetentionInDays === 30)).toBe(true);
  });

  it('keeps point-in-time recovery on, at its default window of 35 days', () => {
    built.template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: Match.absent() },
    });
  });

  it('stays clean under cdk-nag AwsSolutions', () => {
    expect(nagFindings(built.stack)).toEqual([]);
  });
});
