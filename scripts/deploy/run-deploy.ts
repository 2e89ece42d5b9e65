import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { alarmSubscriptionOf } from '../../infra/alarm-topic';
import { PINNED_LOGICAL_IDS, refusedChanges, statefulChanges } from '../../infra/stateful-resources';
import { CliError, EXIT_CODE, UsageError, describeFailure, firstLineOf, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import type { CliEnvironment } from '../cli-kit/local-servers';
import { type OptionValues, flag, optionalText } from '../cli-kit/options';
import { type CliIo, formatTable } from '../cli-kit/output';
import { type CdkRunner, cdkCli } from './cdk-runner';
import { DEPLOY_USAGE } from './deploy-usage';
import {
  DEFAULT_SETTINGS_FILE,
  type DeploySettings,
  SETTING_OPTIONS,
  cdkContext,
  webAclStackOf,
  mergeSettings,
  readSettingsFile,
  writeSettingsFile,
} from './deploy-settings';
import { runPreflight } from './preflight';
import { type Prompter, terminalPrompter } from './prompts';
import { generateSigningKeyPair, isPrivateHalfOf, readPublicKey, writePublicKey } from './signing-key';
import { type DeployedStack, readDeployedStack, stackSecret } from './stack-resources';
import { retainedResources } from './teardown';

const OPTIONS = {
  ...SETTING_OPTIONS,
  settings: { type: 'string' },
  'allow-replace': { type: 'string', multiple: true },
  'new-signing-key': { type: 'boolean' },
  'smoke-tenant': { type: 'string' },
  destroy: { type: 'boolean' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SECRET_IDS = {
  photoSigningKey: 'PhotoSigningKeyE35E5F6D',
  stripeSecretKey: 'StripeSecretKeyA7F6217B',
  stripeWebhookSecret: 'StripeWebhookSecretFCDDBC6A',
} as const;
for (const id of Object.values(SECRET_IDS)) if (!(id in PINNED_LOGICAL_IDS)) throw new Error(`${id} is not pinned`);

/** What the deploy talks to besides AWS's SDK; tests replace the CDK CLI, the terminal and the smoke check. */
export interface DeployDependencies {
  cdk: (region: string) => CdkRunner;
  prompter: Prompter;
  /** `npm run smoke` with these arguments; its exit code. */
  smoke: (argv: string[]) => Promise<number>;
}

/** Runs `npm run deploy -- <argv>`; returns its exit code. Nothing is deployed unless every check passed. */
export async function runDeploy(
  argv: readonly string[],
  io: CliIo,
  environment: CliEnvironment = { env: process.env, workingDirectory: process.cwd() },
  dependencies: Partial<DeployDependencies> = {},
): Promise<number> {
  const { env, workingDirectory } = environment;
  const cdk = dependencies.cdk ?? ((region: string) => cdkCli(region, workingDirectory));
  const prompter = dependencies.prompter ?? terminalPrompter();
  let outputDir: string | undefined;
  try {
    const { values } = parseCommandLine(argv, OPTIONS, { command: 'deploy', help: 'npm run deploy -- --help' });
    if (values.help === true) return (DEPLOY_USAGE.forEach((line) => io.out(line)), EXIT_CODE.ok);
    const settingsFile = resolve(workingDirectory, optionalText(values, 'settings', 1000) ?? DEFAULT_SETTINGS_FILE);
    const saved = readSettingsFile(settingsFile);
    const settings = await completeSettings(mergeSettings(values, saved, env), saved === undefined, prompter);
    if (flag(values, 'destroy')) return await destroy(settings, cdk(settings.region), prompter, values, io);
    writeSettingsFile(settingsFile, settings);
    io.err(`Settings in ${settingsFile} (a later npm run deploy reuses them)`);

    // A stack that cannot be read is not taken for a new one: the guard needs its template (below).
    const deployedRead = await readDeployedStack(settings.region, settings.stackName).then(
      (stack) => ({ stack, error: undefined }),
      (error: unknown) => ({ stack: undefined, error }),
    );
    const deployed = deployedRead.stack;
    const publicKeyFile = resolve(workingDirectory, settings.photoSigningPublicKeyFile);
    const newKeyPair = (await keepsSigningKey(settings, deployed, publicKeyFile, values))
      ? undefined
      : generateSigningKeyPair();
    if (newKeyPair) writePublicKey(publicKeyFile, newKeyPair.publicKeyPem);

    outputDir = mkdtempSync(join(tmpdir(), 'groupshoot-deploy-'));
    const runner = cdk(settings.region);
    const template = await runner.synth(cdkContext(settings), outputDir, settings.stackName);
    const preflight = await runPreflight(settings, template);
    preflight.checked.forEach((line) => io.out(`  ok    ${line}`));
    preflight.failures.forEach((line) => io.out(`  FAIL  ${line}`));
    if (preflight.failures.length > 0)
      throw new CliError(
        `Preflight: ${preflight.failures.length} check(s) failed; nothing was deployed.`,
        EXIT_CODE.failed,
      );
    if (deployedRead.error)
      throw new CliError(
        `The deployed stack ${settings.stackName} could not be read (${firstLineOf(deployedRead.error)}): the upgrade guard needs its template; nothing was deployed.`,
        EXIT_CODE.failed,
      );
    if (deployed) refuseStatefulChanges(deployed, template, values, io);
    await runner.diff(outputDir, settings.stackName);
    await confirm(
      `Deploy ${settings.stackName} to account ${preflight.account} in ${settings.region}?`,
      prompter,
      values,
    );
    writeSettingsFile(settingsFile, { ...settings, account: preflight.account });
    const outputs = await runner.deploy(outputDir, settings.stackName);

    const stack = await readDeployedStack(settings.region, settings.stackName);
    const secret = (id: string) => stackSecret(settings.region, stack?.physicalIds[id] ?? id);
    if (newKeyPair) {
      await secret(SECRET_IDS.photoSigningKey).write(newKeyPair.privateKeyPem);
      io.out('Photo signing key: a new key pair; its private key is in the PhotoSigningKey secret, nowhere else.');
    }
    await setStripeSecrets(outputs.ApiUrl, env, prompter, secret, io);
    return await smokeAfterDeploy(settings, outputs, values, env, prompter, io, dependencies);
  } catch (error) {
    return reportFailure(error, io, (failure) => describeFailure(failure, env));
  } finally {
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  }
}

/** On a terminal, the first run asks for what no option gave; the region is needed in any case. */
async function completeSettings(
  merged: ReturnType<typeof mergeSettings>,
  firstRun: boolean,
  prompter: Prompter,
): Promise<DeploySettings> {
  if (firstRun && prompter.interactive) {
    merged.region ??= await prompter.ask('AWS region of the stack', 'eu-central-1');
    merged.alarmAddress ??= await prompter.ask(
      'Email address (or https:// URL) that receives the alarms (empty: none)',
    );
    merged.senderAddress ??= await prompter.ask('From address of photo-ready emails, an SES identity (empty: none)');
    merged.checkinTenant ??= await prompter.ask(
      "Tenant slug of the deployed check-in page (empty: the link's ?tenant=)",
    );
  }
  if (!merged.region) throw new UsageError('The region is needed: give --region REGION (or set AWS_REGION)');
  try {
    alarmSubscriptionOf(merged.alarmAddress);
  } catch (error) {
    throw new UsageError(`--alarm-address: ${(error as Error).message}`);
  }
  return merged as DeploySettings;
}

/** The key pair stays when its public half is on disk and the deployed secret holds its private half. */
async function keepsSigningKey(
  settings: DeploySettings,
  deployed: DeployedStack | undefined,
  publicKeyFile: string,
  values: OptionValues,
): Promise<boolean> {
  const publicKeyPem = readPublicKey(publicKeyFile);
  if (flag(values, 'new-signing-key') || !publicKeyPem || !deployed) return false;
  const arn = deployed.physicalIds[SECRET_IDS.photoSigningKey];
  const privateKeyPem = arn
    ? await stackSecret(settings.region, arn)
        .read()
        .catch(() => undefined)
    : undefined;
  return isPrivateHalfOf(privateKeyPem, publicKeyPem);
}

function refuseStatefulChanges(deployed: DeployedStack, template: object, values: OptionValues, io: CliIo): void {
  const allowed = (values['allow-replace'] as string[] | undefined) ?? [];
  const changes = statefulChanges(deployed.template, template);
  const refused = refusedChanges(changes, allowed);
  for (const change of changes)
    io.out(
      `  ${refused.includes(change) ? 'REFUSED' : 'allowed'}  ${change.logicalId} (${change.type}) would be ${change.change}: ${change.reason}`,
    );
  if (refused.length > 0)
    throw new CliError(
      `The deploy would replace or delete ${refused.length} resource(s) that hold data (${refused.map((change) => change.logicalId).join(', ')}); nothing was deployed. If that is meant, see docs/deployment.md#upgrading and name each with --allow-replace ID.`,
      EXIT_CODE.failed,
    );
}

async function confirm(question: string, prompter: Prompter, values: OptionValues): Promise<void> {
  if (flag(values, 'yes')) return;
  if (!prompter.interactive)
    throw new UsageError(`${question} Give --yes to go on without a terminal; nothing was deployed.`);
  const answer = await prompter.ask(`${question} (yes/no)`);
  if (answer !== 'yes') throw new CliError('Not confirmed; nothing was deployed.', EXIT_CODE.failed);
}

/** Stripe's secrets from the environment or a hidden prompt, never from the command line. */
async function setStripeSecrets(
  apiUrl: string | undefined,
  env: NodeJS.ProcessEnv,
  prompter: Prompter,
  secret: (id: string) => ReturnType<typeof stackSecret>,
  io: CliIo,
): Promise<void> {
  const secretKey =
    env.STRIPE_SECRET_KEY ??
    (await prompter.askHidden('Stripe secret key, sk_live_… or sk_test_… (empty: keep the current one)'));
  if (secretKey) {
    if (!/^(sk|rk)_(live|test)_/.test(secretKey))
      throw new UsageError('The Stripe secret key starts with sk_live_, sk_test_ or rk_');
    await secret(SECRET_IDS.stripeSecretKey).write(secretKey);
    io.out('Stripe secret key stored.');
  }
  io.out(`Stripe webhook endpoint: ${apiUrl ?? '<ApiUrl>'}/webhooks/stripe (docs/payments.md#stripe-webhook).`);
  const webhookSecret =
    env.STRIPE_WEBHOOK_SECRET ??
    (await prompter.askHidden("That endpoint's signing secret, whsec_… (empty: keep the current one)"));
  if (webhookSecret) {
    if (!webhookSecret.startsWith('whsec_')) throw new UsageError('The Stripe webhook secret starts with whsec_');
    await secret(SECRET_IDS.stripeWebhookSecret).write(webhookSecret);
    io.out('Stripe webhook secret stored.');
  }
}

/** `npm run smoke` against the new stage with a tenant and key of it; without them, how to run it later. */
async function smokeAfterDeploy(
  settings: DeploySettings,
  outputs: Record<string, string>,
  values: OptionValues,
  env: NodeJS.ProcessEnv,
  prompter: Prompter,
  io: CliIo,
  dependencies: Partial<DeployDependencies>,
): Promise<number> {
  const apiUrl = outputs.ApiUrl ?? '<ApiUrl>';
  const tenant = optionalText(values, 'smoke-tenant') ?? settings.checkinTenant;
  const apiKey =
    env.GROUPSHOOT_API_KEY ??
    (tenant ? await prompter.askHidden(`An API key of ${tenant} for the smoke check (empty: skip it)`) : undefined);
  // The admin commands of the smoke check read the table and bucket from the environment.
  Object.assign(env, {
    TABLE_NAME: outputs.TableName,
    MEDIA_BUCKET: outputs.MediaBucketName,
    AWS_REGION: settings.region,
  });
  if (!tenant || !apiKey) {
    io.out(
      `Deployed. No tenant to check with yet: create one (docs/deployment.md#deploy-step-by-step, step 4), then run with TABLE_NAME=${outputs.TableName} MEDIA_BUCKET=${outputs.MediaBucketName} AWS_REGION=${settings.region}:`,
    );
    io.out(`  npm run smoke -- --api-url ${apiUrl} --tenant SLUG --api-key KEY`);
    return EXIT_CODE.ok;
  }
  const smoke =
    dependencies.smoke ?? (async (argv: string[]) => (await import('../smoke/run-smoke')).runSmoke(argv, io));
  return smoke(['--api-url', apiUrl, '--tenant', tenant, '--api-key', apiKey]);
}

async function destroy(
  settings: DeploySettings,
  runner: CdkRunner,
  prompter: Prompter,
  values: OptionValues,
  io: CliIo,
): Promise<number> {
  const deployed = await readDeployedStack(settings.region, settings.stackName);
  if (!deployed)
    throw new CliError(`No stack ${settings.stackName} in ${settings.region}: nothing to tear down.`, EXIT_CODE.failed);
  await confirm(
    `Tear down ${settings.stackName} in ${settings.region}? The retained resources below stay.`,
    prompter,
    values,
  );
  await runner.destroy(cdkContext(settings), settings.stackName);
  // The web ACL's stack in us-east-1 holds no data: it goes after the API's, which uses it.
  const webAclStack = webAclStackOf(settings);
  if (webAclStack) await runner.destroy(cdkContext(settings), webAclStack);
  const retained = retainedResources(deployed);
  io.out(
    `${[settings.stackName, webAclStack].filter(Boolean).join(' and ')} are gone. ${retained.length} resource(s) were retained, so that no data is lost by accident:`,
  );
  formatTable(
    ['TYPE', 'NAME', 'DELETE WITH'],
    retained.map((resource) => [resource.type, resource.physicalId, resource.deleteWith]),
  ).forEach((line) => io.out(line));
  io.out(
    'Delete the table, the buckets and the WebhookSealingKey and PhotoLinkKey secrets together, when the data may go (docs/deployment.md#tear-down).',
  );
  return EXIT_CODE.ok;
}
