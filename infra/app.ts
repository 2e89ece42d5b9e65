import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects, Annotations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GroupShootStack } from './groupshoot-stack';

const EXAMPLE_KEY = join(__dirname, 'keys', 'photo-signing-public.example.pem');

/**
 * `npx cdk synth|deploy`. Context: `photoSigningPublicKeyFile` (PEM; default the example key,
 * whose private half nobody has, so photo URLs cannot be signed until it is replaced),
 * `stackName` (default GroupShoot), `checkinTenantSlug` (the deployed check-in page's tenant),
 * and optionally `apiDomainName` with `apiCertificateArn`.
 */
const app = new App();
const keyFile = (app.node.tryGetContext('photoSigningPublicKeyFile') as string | undefined) ?? EXAMPLE_KEY;
const stack = new GroupShootStack(app, (app.node.tryGetContext('stackName') as string | undefined) ?? 'GroupShoot', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  photoSigningPublicKeyPem: readFileSync(keyFile, 'utf8'),
  checkinTenantSlug: app.node.tryGetContext('checkinTenantSlug'),
  apiDomain: app.node.tryGetContext('apiDomainName')
    ? { domainName: app.node.tryGetContext('apiDomainName'), certificateArn: app.node.tryGetContext('apiCertificateArn') }
    : undefined,
});
if (keyFile === EXAMPLE_KEY) {
  Annotations.of(stack).addWarningV2(
    'groupshoot:example-photo-key',
    'The photo signing key is the example key: photo URLs cannot be signed until photoSigningPublicKeyFile names your own (README, Deployment).',
  );
}
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
