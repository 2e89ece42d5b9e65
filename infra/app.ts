import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects, Annotations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiFrontWebAclStack } from './api-front-web-acl-stack';
import { GroupShootStack } from './groupshoot-stack';

const EXAMPLE_KEY = join(__dirname, 'keys', 'photo-signing-public.example.pem');

/**
 * `npx cdk synth|deploy`. Context: `photoSigningPublicKeyFile` (PEM; default the example key,
 * whose private half nobody has, so photo URLs cannot be signed until it is replaced),
 * `stackName` (default GroupShoot), `checkinTenantSlug` (the deployed check-in page's tenant),
 * `photoNoticeSender` (the From address of photo-ready emails, an SES identity; unset, none are sent),
 * optionally `apiDomainName` with `apiCertificateArn`, `reserveConcurrency=false` (accounts with
 * a small Lambda concurrency quota), and the API front (docs/deployment.md#fair-share-between-tenants):
 * `apiFrontWebAcl=true` adds the stack `<stackName>ApiFrontWebAcl` in us-east-1 (with
 * `apiFrontRequestsPerClient`), and `apiFrontWebAclArn` puts CloudFront with that web ACL in front.
 */
const app = new App();
const context = (name: string) => app.node.tryGetContext(name) as string | boolean | undefined;
/** Context from the command line is text: "false" is false. */
const flag = (name: string, fallback: boolean) => {
  const value = context(name);
  return value === undefined ? fallback : value === true || value === 'true';
};
const stackName = (context('stackName') as string | undefined) ?? 'GroupShoot';
const account = process.env.CDK_DEFAULT_ACCOUNT;

const keyFile = (context('photoSigningPublicKeyFile') as string | undefined) ?? EXAMPLE_KEY;
const webAclArn = context('apiFrontWebAclArn') as string | undefined;
const stack = new GroupShootStack(app, stackName, {
  env: { account, region: process.env.CDK_DEFAULT_REGION },
  photoSigningPublicKeyPem: readFileSync(keyFile, 'utf8'),
  checkinTenantSlug: context('checkinTenantSlug') as string | undefined,
  apiDomain: context('apiDomainName')
    ? { domainName: context('apiDomainName') as string, certificateArn: context('apiCertificateArn') as string }
    : undefined,
  reservedConcurrency: flag('reserveConcurrency', true) ? undefined : false,
  apiFront: webAclArn ? { webAclArn } : undefined,
  photoNoticeSender: context('photoNoticeSender') as string | undefined,
});
if (flag('apiFrontWebAcl', false)) {
  const requestsPerClient = context('apiFrontRequestsPerClient');
  new ApiFrontWebAclStack(app, `${stackName}ApiFrontWebAcl`, {
    env: { account, region: 'us-east-1' },
    requestsPerClient: requestsPerClient === undefined ? undefined : Number(requestsPerClient),
  });
}
if (keyFile === EXAMPLE_KEY) {
  Annotations.of(stack).addWarningV2(
    'groupshoot:example-photo-key',
    'The photo signing key is the example key: photo URLs cannot be signed until photoSigningPublicKeyFile names your own (README, Deployment).',
  );
}
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
