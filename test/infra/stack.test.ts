import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FUNCTION_PERMISSIONS } from '../../infra/function-permissions';
import {
  EVENT_DISPATCH_HANDLER,
  HR_EXPORT_BUILD_HANDLER,
  PHOTO_INGEST_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
  RESERVATION_SWEEP_HANDLER,
  TRIGGERED_HANDLERS,
  WEBHOOK_DELIVERY_HANDLER,
} from '#lib/http/handlers';
import { PARTITIONS } from '../../infra/table-access';
import { FACE_MODEL_FILES, FACE_MODEL_FOLDER, FACE_WASM_FILES, FACE_WASM_FOLDER } from '../../infra/face-model-assets';
import { GroupShootStack } from '../../infra/groupshoot-stack';
import { type Route, UNMATCHED_ROUTE_HANDLER, pathsOf, routes } from '#lib/http/routes';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

let app: App;
let stack: GroupShootStack;
let template: Template;
/** Handler name → logical ID of its Lambda function. */
const functionIds = new Map<string, string>();

beforeAll(() => {
  // Prepare: the real app shape, with cdk-nag, bundling every function with esbuild.
  app = new App();
  const { publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  stack = new GroupShootStack(app, 'TestStack', { photoSigningPublicKeyPem: publicKey });
  Aspects.of(app).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
  for (const [handler, fn] of stack.functions) {
    functionIds.set(handler, stack.getLogicalId(fn.node.defaultChild as CfnFunction));
  }
}, 240_000);

/** The statements of every IAM policy attached to a function's role. */
function statementsOf(handler: string): Statement[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionIds.get(handler)!];
  const roleId = fn?.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

const actionsOf = (statements: Statement[]) => statements.flatMap((statement) => [statement.Action].flat());

/** Statements about data (DynamoDB, S3, Secrets Manager), without the X-Ray tracing and own-log grants every function has. */
const dataStatementsOf = (handler: string) =>
  statementsOf(handler).filter(
    (statement) => !actionsOf([statement]).every((action) => action.startsWith('xray:') || action.startsWith('logs:')),
  );

/** A CloudFormation value as text, its references written as Fn::Sub writes them: ${Id}, ${Id.Attribute}. */
function asSubstitution(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, any>;
  if ('Ref' in node) return `\${${node.Ref}}`;
  if ('Fn::GetAtt' in node) return `\${${node['Fn::GetAtt'].join('.')}}`;
  if ('Fn::Join' in node) return (node['Fn::Join'][1] as unknown[]).map(asSubstitution).join(node['Fn::Join'][0]);
  throw new Error(`no text for ${JSON.stringify(value)}`);
}

/**
 * The sources of the check-in page's deployment, in order: each asset's staged directory in the
 * cloud assembly, the files in it, and the markers CDK put into them for deploy-time values.
 */
function deployedCheckinPage(): { directory: string; files: string[]; markers: Record<string, unknown> }[] {
  const [deployment] = Object.values(template.findResources('Custom::CDKBucketDeployment'));
  const { SourceObjectKeys: objectKeys, SourceMarkers: markers } = deployment!.Properties as {
    SourceObjectKeys: string[];
    SourceMarkers: Record<string, unknown>[];
  };
  const assembly = app.synth().directory;
  return objectKeys.map((objectKey, index) => {
    const directory = join(assembly, `asset.${objectKey.replace(/\.zip$/, '')}`);
    return { directory, files: readdirSync(directory).sort(), markers: markers[index] ?? {} };
  });
}

describe('API routes come from the route module', () => {
  it('has every route on its primary path and alias, served by its function, and no other route', () => {
    // Prepare
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const functionOfIntegration = (target: { 'Fn::Join': [string, unknown[]] }) => {
      const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
      const uri = integrations[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      return [...functionIds].find(([, id]) => id === uri)?.[0];
    };
    const actual = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => `${route.Properties.RouteKey} -> ${functionOfIntegration(route.Properties.Target)}`,
    );
    // Assess
    const declared = (routes as readonly Route[]).flatMap((route) =>
      pathsOf(route).map((path) => `${route.method} ${path} -> ${route.handler}`),
    );
    const knownPaths = [...new Set((routes as readonly Route[]).flatMap((route) => pathsOf(route)))];
    const catchAlls = [
      ...knownPaths.map((path) => `ANY ${path} -> ${UNMATCHED_ROUTE_HANDLER}`),
      `$default -> ${UNMATCHED_ROUTE_HANDLER}`,
    ];
    expect(actual.sort()).toEqual([...declared, ...catchAlls].sort());
  });

  it('serves the API on stage v1, throttled, with access logs that carry the request ID', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'v1',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 4000, ThrottlingRateLimit: 2000 },
      AccessLogSettings: { Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
  });

  it('configures no API-wide CORS: the public functions answer it themselves', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
  });
});

describe('functions', () => {
  it('has one function per function of the route module, plus the triggered ones (photo ingest, schedules, stream and queue consumers), each with declared permissions', () => {
    const expected = new Set([UNMATCHED_ROUTE_HANDLER, ...TRIGGERED_HANDLERS, ...routes.map((route) => route.handler)]);
    expect([...functionIds.keys()].sort()).toEqual([...expected].sort());
    expect(Object.keys(FUNCTION_PERMISSIONS).sort()).toEqual([...expected].sort());
  });

  it('runs them on Node.js 24, arm64, traced, logging JSON, with the table and bucket configured', () => {
    for (const id of functionIds.values()) {
      const fn = template.findResources('AWS::Lambda::Function')[id]!.Properties;
      expect(fn).toEqual(
        expect.objectContaining({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: expect.objectContaining({ LogFormat: 'JSON' }),
        }),
      );
      expect(Object.keys(fn.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'MEDIA_BUCKET']));
    }
  });

  it('keeps secrets out of environment variables: functions get secret ARNs only', () => {
    for (const id of functionIds.values()) {
      const variables = template.findResources('AWS::Lambda::Function')[id]!.Properties.Environment.Variables;
      for (const name of [
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'CLOUDFRONT_PRIVATE_KEY',
        'WEBHOOK_SEALING_KEY',
      ])
        expect(variables).not.toHaveProperty(name);
    }
    const checkin = template.findResources('AWS::Lambda::Function')[functionIds.get('checkin/post-group-shoot')!]!;
    expect(checkin.Properties.Environment.Variables.STRIPE_SECRET_KEY_ARN).toEqual({
      Ref: expect.stringMatching(/^StripeSecretKey/),
    });
  });

  it("grants no wildcard action, and a wildcard resource only for X-Ray and the stream readers' ListStreams (which has no resource)", () => {
    for (const handler of functionIds.keys()) {
      for (const action of actionsOf(statementsOf(handler))) expect(action).not.toMatch(/(^\*$)|(:\*$)/);
      const unscoped = actionsOf(statementsOf(handler).filter((statement) => statement.Resource === '*')).filter(
        (action) => !action.startsWith('xray:'),
      );
      const readsStream = [EVENT_DISPATCH_HANDLER, PHOTO_NOTICE_HANDLER, REFERENCE_FACE_HANDLER].includes(handler);
      expect([handler, unscoped]).toEqual([handler, readsStream ? ['dynamodb:ListStreams'] : []]);
    }
  });

  it.each(['http/route-not-matched', 'http/cors-preflight'])('gives %s no data access at all', (handler) => {
    expect(dataStatementsOf(handler)).toEqual([]);
  });

  it.each([
    ['checkin/get-checkin-info', PARTITIONS.publicRateLimit],
    ...[
      'persons/list-persons',
      'galleries/list-shooting-days',
      'galleries/get-gallery-stats',
      'galleries/list-form-fields',
      'photos/access/list-person-photos',
    ].map((handler) => [handler, PARTITIONS.apiKey]),
  ])(
    "lets %s write only rate-limit counters (a public client's, or the one on the API key's item, %s)",
    (handler, partition) => {
      // test/infra/least-privilege.test.ts checks every grant of every function in depth.
      const isWrite = (action: string) => /Put|Update|Delete|Write/.test(action);
      const writes = dataStatementsOf(handler)
        .filter((statement) => actionsOf([statement]).some(isWrite))
        .map((statement) => ({ actions: actionsOf([statement]).filter(isWrite), condition: statement.Condition }));
      expect(writes).toEqual([
        {
          actions: ['dynamodb:UpdateItem'],
          condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partition] },
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        },
      ]);
    },
  );

  it('lets only the check-in function write selfies, only the upload functions write photos, only the HR export builder its crops and ZIPs, and the ingest only thumbnails', () => {
    const uploaders = ['photos/uploads/create-uploads', 'photos/uploads/complete-uploads'];
    const ingest = 'photos/sorting/ingest-photo';
    for (const handler of functionIds.keys()) {
      const putsObjects = actionsOf(statementsOf(handler)).some((action) => action.startsWith('s3:PutObject'));
      expect([handler, putsObjects]).toEqual([
        handler,
        handler === 'checkin/post-group-shoot' ||
          handler === HR_EXPORT_BUILD_HANDLER ||
          handler === ingest ||
          uploaders.includes(handler),
      ]);
    }
    const puts = (handler: string) =>
      JSON.stringify(statementsOf(handler).filter((statement) => actionsOf([statement]).includes('s3:PutObject')));
    expect(puts('checkin/post-group-shoot')).toContain('/selfies/*');
    for (const handler of uploaders) expect([puts(handler)]).toEqual([expect.stringContaining('/photos/*')]);
    for (const handler of uploaders) expect(puts(handler)).not.toContain('/selfies/');
    expect(puts(HR_EXPORT_BUILD_HANDLER)).not.toContain('/photos/');
    expect(puts(HR_EXPORT_BUILD_HANDLER)).not.toContain('/selfies/');
    expect(puts(ingest)).toContain('/thumbnails/*');
    expect(puts(ingest)).not.toContain('/photos/');
    expect(puts(ingest)).not.toContain('/selfies/');
  });

  it('lets each function read only the secrets it uses', () => {
    const secretReaders = [...functionIds.keys()].filter((handler) =>
      actionsOf(statementsOf(handler)).includes('secretsmanager:GetSecretValue'),
    );
    expect(secretReaders.sort()).toEqual(
      [
        'checkin/post-group-shoot',
        WEBHOOK_DELIVERY_HANDLER,
        'photos/access/list-person-photos',
        'payments/stripe-webhook',
        RESERVATION_SWEEP_HANDLER,
        'photos/notices/send-photo-notices',
        // The photo link key checks an email's unsubscribe link (lib/photos/links/unsubscribe-links.ts).
        'privacy/unsubscribe',
      ].sort(),
    );
  });

  it('invokes the photo ingest for objects created under photos/', () => {
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          Match.objectLike({
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'photos/' }] } },
            LambdaFunctionArn: { 'Fn::GetAtt': [functionIds.get(PHOTO_INGEST_HANDLER), 'Arn'] },
          }),
        ],
      },
    });
  });
});

describe('the face model in the deployed bundles', () => {
  it('is in the code of every function whose bundle reaches it, the reference-face function among them, with FACE_MODEL_DIR and FACE_WASM_DIR naming it where Lambda puts the code', () => {
    // Prepare: each function's code as staged in the cloud assembly.
    const assembly = app.synth().directory;
    const functions = template.findResources('AWS::Lambda::Function');
    const codeOf = (handler: string) =>
      join(
        assembly,
        `asset.${(functions[functionIds.get(handler)!]!.Properties.Code.S3Key as string).replace(/\.zip$/, '')}`,
      );
    const variablesOf = (handler: string) => functions[functionIds.get(handler)!]!.Properties.Environment.Variables;
    // Act
    const carrying = [...functionIds.keys()].filter((handler) => existsSync(join(codeOf(handler), FACE_MODEL_FOLDER)));
    const named = [...functionIds.keys()].filter(
      (handler) => 'FACE_MODEL_DIR' in variablesOf(handler) || 'FACE_WASM_DIR' in variablesOf(handler),
    );
    // Assess
    expect(carrying).toContain(REFERENCE_FACE_HANDLER);
    expect(named.sort()).toEqual(carrying.sort());
    for (const handler of carrying) {
      expect([
        handler,
        readdirSync(join(codeOf(handler), FACE_MODEL_FOLDER)).sort(),
        readdirSync(join(codeOf(handler), FACE_WASM_FOLDER)).sort(),
      ]).toEqual([handler, [...FACE_MODEL_FILES].sort(), [...FACE_WASM_FILES].sort()]);
      expect(variablesOf(handler)).toEqual(
        expect.objectContaining({ FACE_MODEL_DIR: '/var/task/face-model', FACE_WASM_DIR: '/var/task/face-wasm/' }),
      );
    }
  });
});

describe('data and delivery', () => {
  it('keeps the single table on demand, recoverable, protected, with TTL, GSI1, and GSI2 projecting only what an address look-up reads', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'gsi1' }),
        Match.objectLike({
          IndexName: 'gsi2',
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['personId', 'name', 'email', 'language'] },
        }),
      ],
    });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('keeps buckets private, encrypted, TLS-only, and media versioned with expiring old versions', () => {
    for (const bucket of Object.values(template.findResources('AWS::S3::Bucket'))) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toBeDefined();
    }
    const tlsOnly = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('"aws:SecureTransport":"false"'),
    );
    expect(tlsOnly).toHaveLength(Object.keys(template.findResources('AWS::S3::Bucket')).length);
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 30 } })]),
      },
    });
  });

  it('serves photos only on signed URLs, through origin access control', () => {
    const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const photos = distributions.find((distribution) =>
      distribution.Properties.DistributionConfig.Comment.includes('photos'),
    )!;
    expect(photos.Properties.DistributionConfig.DefaultCacheBehavior.TrustedKeyGroups).toHaveLength(1);
    expect(photos.Properties.DistributionConfig.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('https-only');
    expect(photos.Properties.DistributionConfig.Origins[0].OriginAccessControlId).toBeDefined();
    template.resourceCountIs('AWS::CloudFront::KeyGroup', 1);
  });

  it('deploys the check-in page of web/ and its config.js into the page bucket behind CloudFront', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: Match.stringLikeRegexp('^MediaCheckinPageBucket') },
      DistributionPaths: ['/*'],
    });
    const [page, config] = deployedCheckinPage();
    expect(page!.files).toEqual(expect.arrayContaining(['index.html', 'checkin.js', 'checkin.css']));
    expect(config!.files).toEqual(['config.js']);
  });

  it("points the check-in page's config.js at the HTTP API's endpoint on stage v1, the API URL the stack outputs, with no fixed tenant", () => {
    // Prepare: the deployed text, with CDK's markers for deploy-time values written as ${Ref} or ${Resource.Attribute}.
    const [, config] = deployedCheckinPage();
    const text = readFileSync(join(config!.directory, 'config.js'), 'utf8');
    const rendered = Object.entries(config!.markers).reduce(
      (content, [marker, value]) => content.split(marker).join(asSubstitution(value)),
      text,
    );
    const [apiId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Api'));
    // Assess
    const assignment = /^window\.GROUPSHOOT_CONFIG = (\{.*\});\n$/.exec(rendered);
    expect(assignment).not.toBeNull();
    const settings = JSON.parse(assignment![1]!);
    expect(settings).toEqual({
      apiBaseUrl: `https://\${${apiId}}.execute-api.\${AWS::Region}.\${AWS::URLSuffix}/v1`,
      tenantSlug: null,
    });
    expect(settings.apiBaseUrl).toBe(asSubstitution(template.toJSON().Outputs.ApiUrl.Value));
  });

  it('alarms on API 5xx and on every function error and throttle', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
      (alarm) => alarm.Properties.MetricName,
    );
    expect(alarms.filter((name) => name === '5xx')).toHaveLength(1);
    expect(alarms.filter((name) => name === 'Errors')).toHaveLength(functionIds.size);
    expect(alarms.filter((name) => name === 'Throttles')).toHaveLength(functionIds.size);
  });

  it('outputs the API URL, the check-in page URL and the table name', () => {
    for (const output of ['ApiUrl', 'CheckinPageUrl', 'TableName']) template.hasOutput(output, {});
  });
});

describe('reservation sweep', () => {
  it('runs the sweep function every 5 minutes, with no retry of a failed run (the next run tries again)', () => {
    const sweepArn = { 'Fn::GetAtt': [functionIds.get('payments/sweep-reservations')!, 'Arn'] };
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: sweepArn, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
  });

  it('lets the sweep write orders and read the Stripe key, and nothing else of the secrets', () => {
    const actions = actionsOf(dataStatementsOf('payments/sweep-reservations'));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
    expect(actionsOf(statementsOf('payments/sweep-reservations'))).toContain('secretsmanager:GetSecretValue');
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('finds no error and no warning that is not suppressed', () => {
    const findings = [
      ...Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ];
    expect(findings.map((finding) => `${finding.id}: ${JSON.stringify(finding.entry.data).slice(0, 80)}`)).toEqual([]);
  });

  it('justifies every suppression', () => {
    const suppressions = Object.values(
      template.toJSON().Resources as Record<
        string,
        { Metadata?: { cdk_nag?: { rules_to_suppress: { reason: string }[] } } }
      >,
    ).flatMap((resource) => resource.Metadata?.cdk_nag?.rules_to_suppress ?? []);
    expect(suppressions.length).toBeGreaterThan(0);
    for (const suppression of suppressions) expect(suppression.reason.length).toBeGreaterThan(20);
  });
});

describe('custom API domain', () => {
  it('maps the domain to stage v1 under /v1 when one is configured', () => {
    const app = new App();
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const withDomain = new GroupShootStack(app, 'DomainStack', {
      photoSigningPublicKeyPem: publicKey,
      apiDomain: {
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc',
      },
    });
    const domainTemplate = Template.fromStack(withDomain);
    domainTemplate.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api.example.com' });
    domainTemplate.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      ApiMappingKey: 'v1',
      Stage: Match.anyValue(),
    });
  }, 240_000);
});
