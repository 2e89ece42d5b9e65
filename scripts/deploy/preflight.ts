import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { GetWebACLCommand, ListWebACLsCommand, WAFV2Client } from '@aws-sdk/client-wafv2';
import { MINIMUM_UNRESERVED_CONCURRENCY } from '../../infra/function-concurrency';
import type { StackTemplate } from '../../infra/stateful-resources';
import { firstLineOf } from '../cli-kit/cli-errors';
import { DOMAIN_NAMES, type DeploySettings, type DomainName, webAclStackOf } from './deploy-settings';

/** CloudFront takes certificates from this region only, and web ACLs of scope CLOUDFRONT live there. */
export const CLOUDFRONT_REGION = 'us-east-1';
export const BOOTSTRAP_STACK = 'CDKToolkit';

/** What the preflight found: the account the credentials are for, and one plain message per failure. */
export interface PreflightReport {
  account?: string;
  failures: string[];
  checked: string[];
}

const DOMAIN_LABELS: Record<DomainName, string> = {
  api: 'the API domain',
  photoCdn: 'the photo CDN domain',
  checkinPage: 'the check-in page domain',
  apiFront: 'the API front domain',
};

/**
 * Everything the deploy needs from the account, checked before anything is deployed: the
 * credentials and their account, CDK's bootstrap, the Lambda concurrency quota against what the
 * synthesized `template` reserves, SES for the sender, the ACM certificates of the domains (in the
 * stack's region for the API, in us-east-1 for CloudFront) and the web ACL of the API front.
 */
export async function runPreflight(settings: DeploySettings, template: StackTemplate): Promise<PreflightReport> {
  const report: PreflightReport = { failures: [], checked: [] };
  const { region } = settings;
  try {
    const identity = await new STSClient({ region }).send(new GetCallerIdentityCommand({}));
    report.account = identity.Account;
  } catch (error) {
    report.failures.push(
      `The AWS credentials could not be checked (${firstLineOf(error)}): sign in (aws configure, aws sso login, or AWS_PROFILE), check the network, and run again.`,
    );
    return report;
  }
  if (settings.account && settings.account !== report.account) {
    report.failures.push(
      `The credentials are for account ${report.account}, but this stack was deployed to account ${settings.account} (the settings file): use that account's credentials.`,
    );
    return report;
  }
  report.checked.push(`credentials of account ${report.account}`);
  const checks = [
    checkBootstrap(region, report.account!),
    checkConcurrency(region, template),
    settings.senderAddress ? checkSender(region, settings.senderAddress) : undefined,
    ...DOMAIN_NAMES.map((name) => settings.domains[name] && checkCertificate(name, settings)),
    settings.apiFrontWebAclArn ? checkWebAcl(settings.apiFrontWebAclArn) : undefined,
    // The app's own web ACL goes into a stack in us-east-1: CDK must be bootstrapped there too.
    webAclStackOf(settings) && region !== CLOUDFRONT_REGION
      ? checkBootstrap(CLOUDFRONT_REGION, report.account!)
      : undefined,
    webAclStackOf(settings) ? checkWafAvailable() : undefined,
  ];
  for (const outcome of await Promise.all(checks.filter((check) => check !== undefined))) {
    if (outcome.failure === undefined) report.checked.push(outcome.checked);
    else report.failures.push(outcome.failure);
  }
  return report;
}

type Outcome = { failure: string; checked?: undefined } | { failure?: undefined; checked: string };
const fail = (failure: string): Outcome => ({ failure });
const pass = (checked: string): Outcome => ({ checked });
const errorName = (error: unknown) => (error as { name?: string }).name ?? '';

/** Whether these credentials may use AWS WAF for CloudFront (us-east-1), where the app's web ACL goes. */
async function checkWafAvailable(): Promise<Outcome> {
  try {
    await new WAFV2Client({ region: CLOUDFRONT_REGION }).send(
      new ListWebACLsCommand({ Scope: 'CLOUDFRONT', Limit: 1 }),
    );
    return pass(`AWS WAF in ${CLOUDFRONT_REGION}, for the API front's web ACL`);
  } catch (error) {
    return fail(
      `AWS WAF is not available to these credentials in ${CLOUDFRONT_REGION} (${firstLineOf(error)}): the API front's web ACL goes there; allow wafv2 or deploy with --without-api-front.`,
    );
  }
}

async function checkBootstrap(region: string, account: string): Promise<Outcome> {
  const bootstrap = `npx cdk bootstrap aws://${account}/${region}`;
  try {
    const { Stacks } = await new CloudFormationClient({ region }).send(
      new DescribeStacksCommand({ StackName: BOOTSTRAP_STACK }),
    );
    const status = Stacks?.[0]?.StackStatus ?? '';
    if (/FAILED|ROLLBACK|DELETE/.test(status) && status !== 'UPDATE_ROLLBACK_COMPLETE')
      return fail(`CDK's bootstrap stack in ${region} is ${status}: fix or delete it, then run ${bootstrap}.`);
    return pass(`CDK bootstrap in ${region}`);
  } catch (error) {
    if (/does not exist/.test(firstLineOf(error)))
      return fail(`The account is not bootstrapped for CDK in ${region}: run ${bootstrap} once, then deploy again.`);
    return fail(`CDK's bootstrap in ${region} could not be read (${firstLineOf(error)}).`);
  }
}

/** What the synthesized stack reserves: the sum of its functions' reserved concurrency. */
export function reservedConcurrencyOfTemplate(template: StackTemplate): number {
  return Object.values(template.Resources ?? {})
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .reduce((sum, resource) => sum + Number(resource.Properties?.ReservedConcurrentExecutions ?? 0), 0);
}

async function checkConcurrency(region: string, template: StackTemplate): Promise<Outcome> {
  const reserved = reservedConcurrencyOfTemplate(template);
  if (reserved === 0) return pass('no reserved concurrency');
  const needed = reserved + MINIMUM_UNRESERVED_CONCURRENCY;
  try {
    const { AccountLimit } = await new LambdaClient({ region }).send(new GetAccountSettingsCommand({}));
    const quota = AccountLimit?.ConcurrentExecutions ?? 0;
    if (quota < needed)
      return fail(
        `The account's Lambda concurrency quota in ${region} is ${quota}, but the stack reserves ${reserved} and Lambda keeps ${MINIMUM_UNRESERVED_CONCURRENCY} unreserved, so it needs ${needed}: ask for more in Service Quotas (Lambda, Concurrent executions), or deploy with --without-reserved-concurrency.`,
      );
    return pass(`Lambda concurrency quota ${quota} (the stack reserves ${reserved})`);
  } catch (error) {
    return fail(`The Lambda concurrency quota in ${region} could not be read (${firstLineOf(error)}).`);
  }
}

async function checkSender(region: string, sender: string): Promise<Outcome> {
  const ses = new SESv2Client({ region });
  try {
    const account = await ses.send(new GetAccountCommand({}));
    if (account.SendingEnabled === false)
      return fail(
        `SES sending is paused for the account in ${region}: photo-ready emails from ${sender} cannot go out.`,
      );
    if (!account.ProductionAccessEnabled)
      return fail(
        `SES is still in its sandbox in ${region}: photo-ready emails from ${sender} would reach verified addresses only. Request production access in the SES console, or deploy without --sender-address for now.`,
      );
  } catch (error) {
    return fail(`SES in ${region} could not be read (${firstLineOf(error)}).`);
  }
  const domain = sender.slice(sender.lastIndexOf('@') + 1);
  for (const identity of [sender, domain]) {
    try {
      const found = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      if (found.VerifiedForSendingStatus) return pass(`SES sender ${sender}`);
      return fail(
        `The SES identity ${identity} in ${region} is not verified yet: finish its verification (DNS records or the link SES mailed).`,
      );
    } catch (error) {
      if (errorName(error) !== 'NotFoundException')
        return fail(`SES identity ${identity} could not be read (${firstLineOf(error)}).`);
    }
  }
  return fail(
    `${sender} is not an SES identity in ${region}, nor is ${domain}: verify one of them in SES, or leave --sender-address out.`,
  );
}

/** Whether a certificate's name covers the domain (`*.example.com` covers one label). */
function covers(names: string[], domain: string): boolean {
  return names.some((name) =>
    name.startsWith('*.') ? domain.split('.').slice(1).join('.') === name.slice(2) : name === domain,
  );
}

async function checkCertificate(name: DomainName, settings: DeploySettings): Promise<Outcome> {
  const { domainName, certificateArn } = settings.domains[name]!;
  const label = `${DOMAIN_LABELS[name]} ${domainName}`;
  const expected = name === 'api' ? settings.region : CLOUDFRONT_REGION;
  const region = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/.+$/.exec(certificateArn)?.[1];
  if (!region) return fail(`The certificate of ${label} is not an ACM certificate ARN: ${certificateArn}.`);
  if (region !== expected)
    return fail(
      `The certificate of ${label} is in ${region}, but ${name === 'api' ? 'API Gateway takes it from the stack region' : 'CloudFront takes certificates only from'} ${expected}: request or import one there.`,
    );
  try {
    const { Certificate } = await new ACMClient({ region }).send(
      new DescribeCertificateCommand({ CertificateArn: certificateArn }),
    );
    if (Certificate?.Status !== 'ISSUED')
      return fail(
        `The certificate of ${label} is ${Certificate?.Status ?? 'unknown'}, not issued: finish its validation in ACM.`,
      );
    const names = [Certificate.DomainName ?? '', ...(Certificate.SubjectAlternativeNames ?? [])];
    if (!covers(names, domainName))
      return fail(`The certificate of ${label} is for ${names.filter(Boolean).join(', ')}, not for ${domainName}.`);
    return pass(`certificate of ${label}`);
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException')
      return fail(`The certificate of ${label} does not exist in ${region} of this account: ${certificateArn}.`);
    return fail(`The certificate of ${label} could not be read (${firstLineOf(error)}).`);
  }
}

async function checkWebAcl(arn: string): Promise<Outcome> {
  const parts = /^arn:aws[a-z-]*:wafv2:([a-z0-9-]+):\d{12}:global\/webacl\/([^/]+)\/([^/]+)$/.exec(arn);
  if (!parts || parts[1] !== CLOUDFRONT_REGION)
    return fail(
      `The API front's web ACL must be of scope CLOUDFRONT, in ${CLOUDFRONT_REGION} (arn:aws:wafv2:us-east-1:…:global/webacl/…); got ${arn}.`,
    );
  try {
    await new WAFV2Client({ region: CLOUDFRONT_REGION }).send(
      new GetWebACLCommand({ Name: parts[2], Id: parts[3], Scope: 'CLOUDFRONT' }),
    );
    return pass(`web ACL ${parts[2]} of the API front`);
  } catch (error) {
    if (errorName(error) === 'WAFNonexistentItemException')
      return fail(
        `The API front's web ACL ${parts[2]} does not exist in ${CLOUDFRONT_REGION}: deploy it first (docs/deployment.md#api-front-cloudfront-with-aws-waf).`,
      );
    return fail(
      `AWS WAF is not available to these credentials in ${CLOUDFRONT_REGION} (${firstLineOf(error)}): the API front needs it.`,
    );
  }
}
