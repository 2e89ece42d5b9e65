import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects, Annotations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { alarmSubscriptionOf } from './alarm-topic';
import { addApiStacks } from './api-stacks';

const EXAMPLE_KEY = join(__dirname, 'keys', 'photo-signing-public.example.pem');

/**
 * `npx cdk synth|deploy`. Context: `photoSigningPublicKeyFile` (PEM; default the example key,
 * whose private half nobody has, so photo URLs cannot be signed until it is replaced),
 * `stackName` (default GroupShoot), `checkinTenantSlug` (the deployed check-in page's tenant),
 * `photoNoticeSender` (the From address of photo-ready emails, an SES identity; unset, none are sent),
 * `alarmSubscription` (an email address or an https:// URL that receives every alarm),
 * optionally `apiDomainName` with `apiCertificateArn`, `reserveConcurrency=false` (accounts with
 * a small Lambda concurrency quota), and the API front (docs/deployment.md#api-front-cloudfront-with-aws-waf),
 * on by default: the stack `<stackName>ApiFrontWebAcl` in us-east-1 (with `apiFrontRequestsPerClient`)
 * and CloudFront with its web ACL in front; `apiFrontWebAclArn` uses a web ACL of yours instead,
 * `apiFront=false` turns the front off, `apiFrontWebAcl=true` adds the web ACL stack even then.
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
/** A domain of yours from `<name>DomainName` and `<name>CertificateArn` (both, or neither). */
const domainOf = (name: string) => {
  const domainName = context(`${name}DomainName`) as string | undefined;
  const certificateArn = context(`${name}CertificateArn`) as string | undefined;
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error(`Set both ${name}DomainName and ${name}CertificateArn, or neither`);
  return { domainName, certificateArn };
};
const requestsPerClient = context('apiFrontRequestsPerClient');
const { api: stack } = addApiStacks(app, {
  stackName,
  env: { account, region: process.env.CDK_DEFAULT_REGION },
  props: {
    photoSigningPublicKeyPem: readFileSync(keyFile, 'utf8'),
    checkinTenantSlug: context('checkinTenantSlug') as string | undefined,
    apiDomain: context('apiDomainName')
      ? { domainName: context('apiDomainName') as string, certificateArn: context('apiCertificateArn') as string }
      : undefined,
    reservedConcurrency: flag('reserveConcurrency', true) ? undefined : false,
    cdnDomains: { photoCdn: domainOf('photoCdn'), checkinPage: domainOf('checkinPage') },
    photoNoticeSender: context('photoNoticeSender') as string | undefined,
    alarmSubscription: alarmSubscriptionOf(context('alarmSubscription') as string | undefined),
  },
  front: {
    on: flag('apiFront', true),
    webAclArn: context('apiFrontWebAclArn') as string | undefined,
    domain: domainOf('apiFront'),
    requestsPerClient: requestsPerClient === undefined ? undefined : Number(requestsPerClient),
    webAclStackAlone: flag('apiFrontWebAcl', false),
  },
});
if (keyFile === EXAMPLE_KEY) {
  Annotations.of(stack).addWarningV2(
    'groupshoot:example-photo-key',
    'The photo signing key is the example key: photo URLs cannot be signed until photoSigningPublicKeyFile names your own (README, Deployment).',
  );
}
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
