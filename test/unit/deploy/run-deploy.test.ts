import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeStackResourcesCommand, GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand } from '@aws-sdk/client-lambda';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { StackTemplate } from '../../../infra/stateful-resources';
import type { CdkRunner } from '../../../scripts/deploy/cdk-runner';
import type { Prompter } from '../../../scripts/deploy/prompts';
import { runDeploy } from '../../../scripts/deploy/run-deploy';
import { isPrivateHalfOf } from '../../../scripts/deploy/signing-key';
import { unbundledStack } from '../../infra/unbundled-stack';
import { awsError, mockAws } from './aws-mocks';

const aws = mockAws();
const OUTPUTS = { ApiUrl: 'https://api.studio.example/v1', TableName: 'GroupShoot-Table', MediaBucketName: 'media' };
const arnOf = (logicalId: string) => `arn:aws:secretsmanager:eu-central-1:123456789012:secret:${logicalId}-AbCdEf`;

/** The CDK CLI's stand-in: what the deploy asked of it, and the template it "synthesized". */
function fakeCdk(template: StackTemplate) {
  const calls: string[] = [];
  const contexts: Array<Record<string, string>> = [];
  const runner: CdkRunner = {
    synth: async (context) => (calls.push('synth'), contexts.push(context), template),
    diff: async () => void calls.push('diff'),
    deploy: async () => (calls.push('deploy'), OUTPUTS),
    destroy: async (_context, stackName) => void calls.push(`destroy ${stackName}`),
  };
  return { calls, contexts, cdk: () => runner };
}

/** No terminal: nothing is asked. */
const NO_TERMINAL: Prompter = {
  interactive: false,
  ask: async (_q, fallback) => fallback,
  askHidden: async () => undefined,
};

/** The stack as CloudFormation holds it once deployed: its template and each resource's name. */
function deployedAs(template: StackTemplate) {
  aws.cloudFormation.on(GetTemplateCommand).resolves({ TemplateBody: JSON.stringify(template) });
  aws.cloudFormation.on(DescribeStackResourcesCommand).resolves({
    StackResources: Object.keys(template.Resources!).map((logicalId) => ({
      LogicalResourceId: logicalId,
      PhysicalResourceId: logicalId.startsWith('Table') ? 'GroupShoot-TableCD117FA1-1ABC' : arnOf(logicalId),
      ResourceType: template.Resources![logicalId]!.Type,
      ResourceStatus: 'CREATE_COMPLETE',
      Timestamp: new Date(),
    })),
  });
}

/** Every file below a folder, for what must never be on disk. */
function filesBelow(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

describe('npm run deploy', () => {
  let template: StackTemplate;
  let renamedTable: StackTemplate;
  let workingDirectory: string;
  let out: string[];
  beforeAll(() => {
    template = unbundledStack().template.toJSON();
    renamedTable = unbundledStack({}, (stack) =>
      stack.renameLogicalId('TableCD117FA1', 'ServiceTable8A3F21C0'),
    ).template.toJSON();
  });
  beforeEach(() => {
    aws.inOrder();
    workingDirectory = mkdtempSync(join(tmpdir(), 'deploy-test-'));
    out = [];
  });
  const io = () => ({ out: (line: string) => out.push(line), err: (line: string) => out.push(line) });
  const deploy = (
    argv: string[],
    fake: ReturnType<typeof fakeCdk>,
    env: NodeJS.ProcessEnv = {},
    smoke = jest.fn(async () => 0),
  ) => runDeploy(argv, io(), { env, workingDirectory }, { cdk: fake.cdk, prompter: NO_TERMINAL, smoke });

  it('deploys nothing when the preflight fails, says why, and keeps the settings for the next run', async () => {
    // Prepare
    aws.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    const fake = fakeCdk(template);

    // Act
    const code = await deploy(['--region', 'eu-central-1', '--checkin-tenant', 'acme-photo', '--yes'], fake);

    // Assess
    expect(code).toBe(1);
    expect(out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}FAIL {2}The account's Lambda concurrency quota in eu-central-1 is 10/),
      ]),
    );
    expect(out.at(-1)).toBe('Preflight: 1 check(s) failed; nothing was deployed.');
    expect(fake.calls).toEqual(['synth']);
    expect(aws.secrets.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    const saved = JSON.parse(readFileSync(join(workingDirectory, 'groupshoot-deploy.json'), 'utf8'));
    expect(saved).toEqual(
      expect.objectContaining({ region: 'eu-central-1', checkinTenant: 'acme-photo', stackName: 'GroupShoot' }),
    );

    // Act: a later run without options reuses them.
    const again = fakeCdk(template);
    await deploy(['--yes'], again);
    expect(again.contexts[0]).toEqual(
      expect.objectContaining({ stackName: 'GroupShoot', checkinTenantSlug: 'acme-photo' }),
    );
  });

  it('makes the signing key pair, puts its private half only into the secret, sets Stripe from the environment and runs the smoke check', async () => {
    // Prepare: no stack before the deploy, the stack after it.
    deployedAs(template);
    aws.cloudFormation
      .on(GetTemplateCommand)
      .rejectsOnce(awsError('ValidationError', 'Stack with id GroupShoot does not exist'))
      .resolves({ TemplateBody: JSON.stringify(template) });
    const fake = fakeCdk(template);
    const smoke = jest.fn(async () => 0);

    // Act
    const code = await deploy(
      ['--region', 'eu-central-1', '--checkin-tenant', 'acme-photo', '--yes'],
      fake,
      { STRIPE_SECRET_KEY: 'sk_test_51Smoke', GROUPSHOOT_API_KEY: 'gsk_smoke' },
      smoke,
    );

    // Assess
    expect(out.filter((line) => /FAIL|Failed/.test(line))).toEqual([]);
    expect(code).toBe(0);
    expect(fake.calls).toEqual(['synth', 'diff', 'deploy']);
    const publicKeyPem = readFileSync(join(workingDirectory, 'infra/keys/photo-signing-public.pem'), 'utf8');
    const written = Object.fromEntries(
      aws.secrets
        .commandCalls(PutSecretValueCommand)
        .map((call) => [call.args[0].input.SecretId, call.args[0].input.SecretString]),
    );
    expect(isPrivateHalfOf(written[arnOf('PhotoSigningKeyE35E5F6D')], publicKeyPem)).toBe(true);
    expect(written[arnOf('StripeSecretKeyA7F6217B')]).toBe('sk_test_51Smoke');
    for (const file of filesBelow(workingDirectory)) expect(readFileSync(file, 'utf8')).not.toContain('PRIVATE KEY');
    expect(smoke).toHaveBeenCalledWith([
      '--api-url',
      OUTPUTS.ApiUrl,
      '--tenant',
      'acme-photo',
      '--api-key',
      'gsk_smoke',
    ]);
  });

  it('takes no Stripe secret from the command line', async () => {
    const fake = fakeCdk(template);
    const code = await deploy(['--region', 'eu-central-1', '--stripe-secret-key', 'sk_live_x'], fake);
    expect(code).toBe(2);
    expect(out.join('\n')).toContain('Unknown option --stripe-secret-key');
    expect(fake.calls).toEqual([]);
  });

  it('refuses an upgrade that would delete the table, unless --allow-replace names it', async () => {
    // Prepare
    deployedAs(template);
    const refused = fakeCdk(renamedTable);

    // Act
    const code = await deploy(['--region', 'eu-central-1', '--yes'], refused);

    // Assess
    expect(code).toBe(1);
    expect(out).toEqual(
      expect.arrayContaining([
        '  REFUSED  TableCD117FA1 (AWS::DynamoDB::Table) would be deleted: its logical ID is not in the new template',
      ]),
    );
    expect(out.at(-1)).toMatch(
      /would replace or delete 1 resource\(s\) that hold data \(TableCD117FA1\); nothing was deployed/,
    );
    expect(refused.calls).toEqual(['synth']);

    // Act: named, it goes on.
    const allowed = fakeCdk(renamedTable);
    expect(await deploy(['--allow-replace', 'TableCD117FA1', '--yes'], allowed)).toBe(0);
    expect(allowed.calls).toEqual(['synth', 'diff', 'deploy']);
  });

  it('deploys nothing when the deployed stack cannot be read, as the guard needs its template', async () => {
    aws.cloudFormation
      .on(GetTemplateCommand)
      .rejects(awsError('AccessDenied', 'not authorized to perform cloudformation:GetTemplate'));
    const fake = fakeCdk(template);

    const code = await deploy(['--region', 'eu-central-1', '--yes'], fake);

    expect(code).toBe(1);
    expect(out.at(-1)).toBe(
      'The deployed stack GroupShoot could not be read (not authorized to perform cloudformation:GetTemplate): the upgrade guard needs its template; nothing was deployed.',
    );
    expect(fake.calls).toEqual(['synth']);
  });

  it('tears down with --destroy and names every retained resource with the command that deletes it', async () => {
    // Prepare
    deployedAs(template);
    const fake = fakeCdk(template);

    // Act
    const code = await deploy(['--destroy', '--region', 'eu-central-1', '--yes'], fake);

    // Assess
    expect(code).toBe(0);
    expect(fake.calls).toEqual(['destroy GroupShoot', 'destroy GroupShootApiFrontWebAcl']);
    const printed = out.join('\n');
    expect(printed).toContain(
      'aws dynamodb update-table --table-name GroupShoot-TableCD117FA1-1ABC --no-deletion-protection-enabled && aws dynamodb delete-table --table-name GroupShoot-TableCD117FA1-1ABC',
    );
    expect(printed).toContain(`aws secretsmanager delete-secret --secret-id ${arnOf('WebhookSealingKey9206B410')}`);
    expect(printed).toContain(`aws kms schedule-key-deletion --key-id ${arnOf('AlarmsKey3C2381B3')}`);
    expect(printed).toContain(`aws s3api delete-bucket --bucket ${arnOf('MediaMediaBucket84A4FA0D')}`);
    expect(printed).not.toContain(arnOf('StripeSecretKeyA7F6217B'));
    expect(existsSync(join(workingDirectory, 'infra'))).toBe(false);
  });
});
