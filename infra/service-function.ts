import { Duration } from 'aws-cdk-lib';
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
}

/**
 * One Lambda function of the service: its handler file bundled by esbuild at synth (see
 * function-bundle.ts), Node.js 22 on arm64, JSON logs kept a month, X-Ray tracing, and
 * exactly the grants its entry in function-permissions.ts names.
 */
export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { permissions, table, mediaBucket, secrets } = props;
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    const bundleDir = join(ROOT, '.build', 'functions', props.handler);
    bundleFunction(join(ROOT, 'functions', `${props.handler}.ts`), bundleDir, ROOT);
    this.fn = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(bundleDir),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: permissions.memoryMb ?? 512,
      timeout: Duration.seconds(29),
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
        { id: 'AwsSolutions-L1', reason: 'Node.js 22 is the runtime the service targets and is tested against.' },
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

/** The environment variable naming each secret's ARN (read by lib/adapters/secrets.ts). */
export const SECRET_VARIABLES: Record<SecretName, string> = {
  stripeSecretKey: 'STRIPE_SECRET_KEY_ARN',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET_ARN',
  photoSigningKey: 'CLOUDFRONT_PRIVATE_KEY_ARN',
};
