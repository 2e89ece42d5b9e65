import { type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { join } from 'node:path';
import { FUNCTION_ARCHITECTURE, FUNCTION_NODE_OPTIONS, bundleEnvironment, bundleFunction } from './function-bundle';
import type { FunctionPermissions, MediaAccess, SecretName } from './function-permissions';
import { type KeyAccess, keyAccessStatements } from './table-access';
import { GSI1, GSI2 } from '../lib/platform/table/table-definition';
import { MEDIA_FOLDERS } from '../lib/platform/media-keys';

const ROOT = join(__dirname, '..');

/** How long every function's log group (and the API's access logs) keeps its lines: 30 days. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

export interface ServiceFunctionProps {
  handler: string;
  permissions: FunctionPermissions;
  table: ITable;
  mediaBucket: IBucket;
  secrets: Record<SecretName, ISecret>;
  environment: Record<string, string>;
  /** Instances reserved for the function, and the most it may run; none when undefined. */
  reservedConcurrentExecutions?: number;
}

/**
 * One Lambda function of the service: its handler file bundled by esbuild at synth (see
 * function-bundle.ts), Node.js 24 on arm64, JSON logs kept a month, X-Ray tracing, and
 * exactly the grants its entry in function-permissions.ts names. Its role writes its own log
 * group only (no AWSLambdaBasicExecutionRole, which allows every log group of the account).
 */
export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { permissions, mediaBucket, secrets } = props;
    const logGroup = new LogGroup(this, 'Logs', { retention: LOG_RETENTION });
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    // The log group exists (created above), so the function only adds streams and lines to it.
    role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    const bundle = bundleOf(this, props.handler);
    this.fn = new LambdaFunction(this, 'Function', {
      role,
      code: bundle.code,
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      // The architecture the bundles carry native binaries for (sharp's, see function-bundle.ts).
      architecture: FUNCTION_ARCHITECTURE === 'arm64' ? Architecture.ARM_64 : Architecture.X86_64,
      memorySize: permissions.memoryMb ?? 512,
      timeout: Duration.seconds(permissions.timeoutSeconds ?? 29),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      environment: {
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
        ...props.environment,
        ...bundle.environment,
        ...Object.fromEntries(
          (permissions.secrets ?? []).map((name) => [SECRET_VARIABLES[name], secrets[name].secretArn]),
        ),
      },
    });
    this.grant(props);
    // Each wildcard by name: X-Ray's actions take no resource; media grants end in `<folder>/*`.
    const bucketId = Stack.of(this).getLogicalId(mediaBucket.node.defaultChild as CfnElement);
    const folders = mediaObjectFolders(permissions.media);
    NagSuppressions.addResourceSuppressions(
      rolePolicyOf(this.fn),
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: `X-Ray's PutTraceSegments and PutTelemetryRecords take no resource${folders.length ? `; objects under ${folders.map((folder) => `${folder}/`).join(', ')} of the media bucket only` : ''}.`,
          appliesTo: ['Resource::*', ...folders.map((folder) => `Resource::<${bucketId}.Arn>/${folder}/*`)],
        },
      ],
      true,
    );
  }

  private grant({ permissions, table, mediaBucket, secrets }: ServiceFunctionProps): void {
    for (const statement of tableStatements(permissions.table, table)) this.fn.addToRolePolicy(statement);
    for (const statement of mediaStatements(permissions.media, mediaBucket)) this.fn.addToRolePolicy(statement);
    for (const name of permissions.secrets ?? []) secrets[name].grantRead(this.fn);
  }
}

/**
 * The table grants as IAM statements, one per group of keyAccessStatements: each bounded by
 * `dynamodb:LeadingKeys` (which must be present, so that no request without a partition key
 * passes), an index's on the index, and an attribute limit where the grant has one.
 */
function tableStatements(accesses: readonly KeyAccess[], table: ITable): PolicyStatement[] {
  return keyAccessStatements(accesses).map(
    (access) =>
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: access.actions.map((action) => `dynamodb:${action}`),
        resources: [access.on === 'table' ? table.tableArn : `${table.tableArn}/index/${INDEX_NAMES[access.on]}`],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': access.partitions },
          Null: { 'dynamodb:LeadingKeys': 'false', ...(access.attributes ? { 'dynamodb:Attributes': 'false' } : {}) },
          ...(access.attributes
            ? {
                'ForAllValues:StringEquals': { 'dynamodb:Attributes': access.attributes },
                // Returning whole items would show the attributes the limit keeps out.
                StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] },
              }
            : {}),
        },
      }),
  );
}

const INDEX_NAMES = { gsi1: GSI1.indexName, gsi2: GSI2.indexName } as const;

/** The CloudFormation policy that holds a function's grants: its role's default policy, where nag suppressions of its wildcards belong. */
export function rolePolicyOf(fn: LambdaFunction): IConstruct {
  const policy = fn.role?.node.tryFindChild('DefaultPolicy');
  if (!policy) throw new Error(`${fn.node.path} has no role policy`);
  return policy;
}

/** The media folders whose objects a grant reaches (`<folder>/*`), each once. */
function mediaObjectFolders(access: MediaAccess | readonly MediaAccess[] | undefined): string[] {
  const accesses =
    access === undefined ? [] : Array.isArray(access) ? (access as readonly MediaAccess[]) : [access as MediaAccess];
  const folders = accesses
    .filter((media) => media.objects?.length)
    .flatMap((media) => media.folders.map((folder) => MEDIA_FOLDERS[folder]));
  return [...new Set(folders)];
}

/** The media grants: object actions on `<folder>/*`, listing only with a prefix inside the folders. */
function mediaStatements(access: MediaAccess | readonly MediaAccess[] | undefined, bucket: IBucket): PolicyStatement[] {
  if (!access) return [];
  // Several grants where the folders differ in what may be done with them.
  if (Array.isArray(access))
    return (access as readonly MediaAccess[]).flatMap((media) => mediaStatements(media, bucket));
  const media = access as MediaAccess;
  const folders = media.folders.map((folder) => MEDIA_FOLDERS[folder]);
  const statements: PolicyStatement[] = [];
  if (media.objects?.length) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: media.objects.map((action) => `s3:${action}`),
        resources: folders.map((folder) => bucket.arnForObjects(`${folder}/*`)),
      }),
    );
  }
  if (media.list) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:ListBucket', 's3:ListBucketVersions'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': folders.map((folder) => `${folder}/*`) } },
      }),
    );
  }
  return statements;
}

/**
 * The handler's esbuild bundle and the variables that locate what it carries (the face model's
 * files); a placeholder without them where the stack is not being bundled (CDK's
 * `aws:cdk:bundling-stacks` context: the CLI sets it to the stacks it deploys, and unit tests of
 * the stack that do not test bundling set it to none). Such a template is never deployed.
 */
function bundleOf(scope: Construct, handler: string): { code: Code; environment: Record<string, string> } {
  if (!Stack.of(scope).bundlingRequired)
    return { code: Code.fromInline(`// ${handler}: not bundled for this synth`), environment: {} };
  const bundleDir = join(ROOT, '.build', 'functions', handler);
  bundleFunction(join(ROOT, 'functions', `${handler}.ts`), bundleDir, ROOT);
  return { code: Code.fromAsset(bundleDir), environment: bundleEnvironment(bundleDir) };
}

/** The environment variable naming each secret's ARN (read by lib/platform/secrets-manager.ts). */
export const SECRET_VARIABLES: Record<SecretName, string> = {
  stripeSecretKey: 'STRIPE_SECRET_KEY_ARN',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET_ARN',
  photoSigningKey: 'CLOUDFRONT_PRIVATE_KEY_ARN',
  webhookSealingKey: 'WEBHOOK_SEALING_KEY_ARN',
  photoLinkKey: 'PHOTO_LINK_KEY_ARN',
};
