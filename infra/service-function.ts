import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { bundleFunction } from './function-bundle';
import type { FunctionPermissions, SecretName } from './function-permissions';
import { RATE_LIMIT_KEY_PREFIX } from '../lib/db/keys';

const ROOT = join(__dirname, '..');

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
 * exactly the grants its entry in function-permissions.ts names.
 */
export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { permissions, table, mediaBucket, secrets } = props;
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.fn = new LambdaFunction(this, 'Function', {
      code: codeOf(this, props.handler),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: permissions.memoryMb ?? 512,
      timeout: Duration.seconds(29),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
        ...Object.fromEntries((permissions.secrets ?? []).map((name) => [SECRET_VARIABLES[name], secrets[name].secretArn])),
      },
    });
    this.grant(props);
    NagSuppressions.addResourceSuppressions(
      this.fn,
      [
        { id: 'AwsSolutions-IAM4', reason: 'AWSLambdaBasicExecutionRole only lets the function write its own logs.' },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'X-Ray segments have no resource; index ARNs and key prefixes are scoped to this table and bucket.',
        },
        { id: 'AwsSolutions-L1', reason: 'Node.js 24 (the current LTS) is the runtime the service targets and is tested against; cdk-nag may know a newer one.' },
      ],
      true,
    );
  }

  private grant({ permissions, table, mediaBucket, secrets }: ServiceFunctionProps): void {
    const { fn } = this;
    if (permissions.table === 'read' || permissions.table === 'readAndRateLimit') table.grantReadData(fn);
    if (permissions.table === 'readWrite') table.grantReadWriteData(fn);
    if (permissions.table === 'readAndRateLimit') {
      // Server-side endpoints write nothing but their key's rate-limit counter.
      fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_LIMIT_KEY_PREFIX}*`] } },
        }),
      );
    }
    if (permissions.media?.access === 'read') mediaBucket.grantRead(fn, `${permissions.media.prefix}*`);
    if (permissions.media?.access === 'write') {
      mediaBucket.grantPut(fn, `${permissions.media.prefix}*`);
      mediaBucket.grantDelete(fn, `${permissions.media.prefix}*`);
    }
    for (const name of permissions.secrets ?? []) secrets[name].grantRead(fn);
  }
}

/**
 * The handler's esbuild bundle; a placeholder where the stack is not being bundled (CDK's
 * `aws:cdk:bundling-stacks` context: the CLI sets it to the stacks it deploys, and unit tests of
 * the stack that do not test bundling set it to none). Such a template is never deployed.
 */
function codeOf(scope: Construct, handler: string): Code {
  if (!Stack.of(scope).bundlingRequired) return Code.fromInline(`// ${handler}: not bundled for this synth`);
  const bundleDir = join(ROOT, '.build', 'functions', handler);
  bundleFunction(join(ROOT, 'functions', `${handler}.ts`), bundleDir, ROOT);
  return Code.fromAsset(bundleDir);
}

/** The environment variable naming each secret's ARN (read by lib/adapters/secrets.ts). */
export const SECRET_VARIABLES: Record<SecretName, string> = {
  stripeSecretKey: 'STRIPE_SECRET_KEY_ARN',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET_ARN',
  photoSigningKey: 'CLOUDFRONT_PRIVATE_KEY_ARN',
};
