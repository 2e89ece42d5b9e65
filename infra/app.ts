import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects, Annotations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiFrontWebAclStack } from './api-front-web-acl-stack';
import { alarmSubscriptionOf } from './alarm-topic';
import { GroupShootStack } from './groupshoot-stack';

const EXAMPLE_KEY = join(__dirname, 'keys', 'photo-signing-public.example.pem');

/**
 * `npx cdk synth|deploy`. Context: `photoSigningPublicKeyFile` (PEM; default the example key,
 * whose private half nobody has, so photo URLs cannot be signed until it is replaced),
 * `stackName` (default GroupShoot), `checkinTenantSlug` (the deployed check-in page's tenant),
 * `photoNoticeSender` (the From address of photo-ready emails, an SES identity; unset, none are sent),
 * `alarmSubscription` (an email address or an https:// URL that receives every alarm),
 * optionally `apiDomainName` with `apiCertificateArn`, `reserveConcurrency=false` (accounts with
 * a small Lambda concurrency quota), and the API front (docs/deployment.md#fair-share-between-tenants):
 * `apiFrontWebAcl=true` adds the stack `<stackName>ApiFrontWebAcl` in us-east-1 (with
 * `apiFrontRequestsPerClient`), and `apiFrontWebAclArn` puts CloudFront with that web ACL in front.
 * Domains of yours, each with an ACM certificate in us-east-1, served with TLS 1.2 at least
 * (docs/deployment.md#domains-and-tls): `apiFrontDomainName`/`apiFrontCertificateArn`,
 * `photoCdnDomainName`/`photoCdnCertificateArn`, `checkinPageDomainName`/`checkinPageCertificateArn`.
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
/** The API front's domain needs the front itself: refused rather than ignored. */
const noFrontDomain = () => {
  if (context('apiFrontDomainName'))
    throw new Error("apiFrontDomainName needs apiFrontWebAclArn: the domain is the API front's");
  return undefined;
};
/** A domain of yours from `<name>DomainName` and `<name>CertificateArn` (both, or neither). */
const domainOf = (name: string) => {
  const domainName = context(`${name}DomainName`) as string | undefined;
  const certificateArn = context(`${name}CertificateArn`) as string | undefined;
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error(`Set both ${name}DomainName and ${name}CertificateArn, or neither`);
  return { domainName, certificateArn };
};
const stack = new GroupShootStack(app, stackName, {
  env: { account, region: process.env.CDK_DEFAULT_REGION },
  photoSigningPublicKeyPem: readFileSync(keyFile, 'utf8'),
  checkinTenantSlug: context('checkinTenantSlug') as string | undefined,
  apiDomain: context('apiDomainName')
    ? { domainName: context('apiDomainName') as string, certificateArn: context('apiCertificateArn') as string }
    : undefined,
  reservedConcurrency: flag('reserveConcurrency', true) ? undefined : false,
  apiFront: webAclArn ? { webAclArn, domain: domainOf('apiFront') } : noFrontDomain(),
  cdnDomains: { photoCdn: domainOf('photoCdn'), checkinPage: domainOf('checkinPage') },
  photoNoticeSender: context('photoNoticeSender') as string | undefined,
  alarmSubscription: alarmSubscriptionOf(context('alarmSubscription') as string | undefined),
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
