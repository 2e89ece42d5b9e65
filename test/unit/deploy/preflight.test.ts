import { DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { GetWebACLCommand, ListWebACLsCommand } from '@aws-sdk/client-wafv2';
import { RETENTION_PLANNER_HANDLER } from '#lib/http/handlers';
import { reservedConcurrencyOf } from '../../../infra/function-concurrency';
import type { StackTemplate } from '../../../infra/stateful-resources';
import { functionClasses } from '../../../infra/stage-routes';
import type { DeploySettings } from '../../../scripts/deploy/deploy-settings';
import { reservedConcurrencyOfTemplate, runPreflight } from '../../../scripts/deploy/preflight';
import { unbundledStack } from '../../infra/unbundled-stack';
import { ACCOUNT, API_CERTIFICATE, PHOTO_CERTIFICATE, WEB_ACL, awsError, mockAws } from './aws-mocks';

const aws = mockAws();

const SETTINGS: DeploySettings = {
  stackName: 'GroupShoot',
  region: 'eu-central-1',
  domains: {
    api: { domainName: 'api.studio.example', certificateArn: API_CERTIFICATE },
    photoCdn: { domainName: 'photos.studio.example', certificateArn: PHOTO_CERTIFICATE },
    checkinPage: { domainName: 'checkin.studio.example', certificateArn: PHOTO_CERTIFICATE },
  },
  apiFront: true,
  apiFrontWebAclArn: WEB_ACL,
  alarmAddress: 'ops@studio.example',
  senderAddress: 'photos@studio.example',
  checkinTenant: 'acme-photo',
  reserveConcurrency: true,
  photoSigningPublicKeyFile: 'infra/keys/photo-signing-public.pem',
};

/** What the stack reserves, by the infra's own function (as groupshoot-stack.ts calls it), not by a copied number. */
const STACK_RESERVES = [
  ...reservedConcurrencyOf(functionClasses(), undefined, new Map([[RETENTION_PLANNER_HANDLER, 1]])).values(),
].reduce((sum, instances) => sum + instances, 0);

describe('npm run deploy: the preflight, against a mocked AWS SDK', () => {
  let template: StackTemplate;
  let withoutReservations: StackTemplate;
  beforeAll(() => {
    template = unbundledStack().template.toJSON();
    withoutReservations = unbundledStack({ reservedConcurrency: false }).template.toJSON();
  });
  beforeEach(() => aws.inOrder());

  it('passes an account where everything is in order, and names what it checked', async () => {
    // Act
    const report = await runPreflight(SETTINGS, template);

    // Assess
    expect(report.failures).toEqual([]);
    expect(report.account).toBe(ACCOUNT);
    expect(report.checked).toEqual(
      expect.arrayContaining([
        `credentials of account ${ACCOUNT}`,
        'CDK bootstrap in eu-central-1',
        `Lambda concurrency quota 1000 (the stack reserves ${STACK_RESERVES})`,
        'SES sender photos@studio.example',
        'certificate of the photo CDN domain photos.studio.example',
        'certificate of the API domain api.studio.example',
        'web ACL groupshoot-front of the API front',
      ]),
    );
  });

  it("reads the reservations from the synthesized stack: the infra's own total, none without them", () => {
    expect(reservedConcurrencyOfTemplate(template)).toBe(STACK_RESERVES);
    expect(STACK_RESERVES).toBeGreaterThan(100);
    expect(reservedConcurrencyOfTemplate(withoutReservations)).toBe(0);
  });

  type Failure = [string, () => void, RegExp, Partial<DeploySettings>?];
  const failures: Failure[] = [
    [
      'no credentials',
      () =>
        aws.sts
          .on(GetCallerIdentityCommand)
          .rejects(awsError('CredentialsProviderError', 'Could not load credentials from any providers')),
      /^The AWS credentials could not be checked \(Could not load credentials from any providers\): sign in/,
    ],
    [
      'credentials of another account than the first deploy',
      () => undefined,
      /^The credentials are for account 123456789012, but this stack was deployed to account 999999999999/,
      { account: '999999999999' },
    ],
    [
      'no CDK bootstrap',
      () =>
        aws.cloudFormation
          .on(DescribeStacksCommand)
          .rejects(awsError('ValidationError', 'Stack with id CDKToolkit does not exist')),
      /^The account is not bootstrapped for CDK in eu-central-1: run npx cdk bootstrap aws:\/\/123456789012\/eu-central-1/,
    ],
    [
      'a bootstrap stack that failed',
      () =>
        aws.cloudFormation.on(DescribeStacksCommand).resolves({
          Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'ROLLBACK_COMPLETE', CreationTime: new Date() }],
        }),
      /^CDK's bootstrap stack in eu-central-1 is ROLLBACK_COMPLETE/,
    ],
    [
      "a concurrency quota of 10, a new account's",
      () => aws.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } }),
      new RegExp(
        `^The account's Lambda concurrency quota in eu-central-1 is 10, but the stack reserves ${STACK_RESERVES} and Lambda keeps 100 unreserved, so it needs ${STACK_RESERVES + 100}: .*--without-reserved-concurrency`,
      ),
    ],
    [
      'SES in its sandbox',
      () => aws.ses.on(GetAccountCommand).resolves({ SendingEnabled: true, ProductionAccessEnabled: false }),
      /^SES is still in its sandbox in eu-central-1: photo-ready emails from photos@studio.example would reach verified addresses only/,
    ],
    [
      'SES sending paused',
      () => aws.ses.on(GetAccountCommand).resolves({ SendingEnabled: false, ProductionAccessEnabled: true }),
      /^SES sending is paused for the account in eu-central-1/,
    ],
    [
      'a sender that is no SES identity',
      () => aws.ses.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException')),
      /^photos@studio.example is not an SES identity in eu-central-1, nor is studio.example/,
    ],
    [
      'a sender whose identity is not verified',
      () =>
        aws.ses
          .on(GetEmailIdentityCommand, { EmailIdentity: 'studio.example' })
          .resolves({ VerifiedForSendingStatus: false }),
      /^The SES identity studio.example in eu-central-1 is not verified yet/,
    ],
    [
      "a CloudFront domain's certificate outside us-east-1",
      () => undefined,
      /^The certificate of the photo CDN domain photos.studio.example is in eu-central-1, but CloudFront takes certificates only from us-east-1/,
      {
        domains: {
          api: SETTINGS.domains.api,
          photoCdn: { domainName: 'photos.studio.example', certificateArn: API_CERTIFICATE },
        },
      },
    ],
    [
      "the API domain's certificate outside the stack's region",
      () => undefined,
      /^The certificate of the API domain api.studio.example is in us-east-1, but API Gateway takes it from the stack region eu-central-1/,
      { domains: { api: { domainName: 'api.studio.example', certificateArn: PHOTO_CERTIFICATE } } },
    ],
    [
      'a certificate still waiting for validation',
      () =>
        aws.acm
          .on(DescribeCertificateCommand, { CertificateArn: API_CERTIFICATE })
          .resolves({ Certificate: { Status: 'PENDING_VALIDATION', DomainName: 'api.studio.example' } }),
      /^The certificate of the API domain api.studio.example is PENDING_VALIDATION, not issued/,
    ],
    [
      'a certificate for another name',
      () =>
        aws.acm
          .on(DescribeCertificateCommand, { CertificateArn: API_CERTIFICATE })
          .resolves({ Certificate: { Status: 'ISSUED', DomainName: 'www.studio.example' } }),
      /^The certificate of the API domain api.studio.example is for www.studio.example, not for api.studio.example/,
    ],
    [
      'a certificate that does not exist',
      () =>
        aws.acm
          .on(DescribeCertificateCommand, { CertificateArn: API_CERTIFICATE })
          .rejects(awsError('ResourceNotFoundException')),
      /^The certificate of the API domain api.studio.example does not exist in eu-central-1/,
    ],
    [
      'a regional web ACL for the API front',
      () => undefined,
      /^The API front's web ACL must be of scope CLOUDFRONT, in us-east-1/,
      { apiFrontWebAclArn: `arn:aws:wafv2:eu-central-1:${ACCOUNT}:regional/webacl/front/0a1b2c` },
    ],
    [
      'a web ACL that does not exist',
      () => aws.waf.on(GetWebACLCommand).rejects(awsError('WAFNonexistentItemException')),
      /^The API front's web ACL groupshoot-front does not exist in us-east-1/,
    ],
    [
      'no AWS WAF for these credentials',
      () =>
        aws.waf
          .on(GetWebACLCommand)
          .rejects(awsError('AccessDeniedException', 'not authorized to perform wafv2:GetWebACL')),
      /^AWS WAF is not available to these credentials in us-east-1 \(not authorized to perform wafv2:GetWebACL\)/,
    ],
    [
      "no CDK bootstrap in us-east-1, where the app's own web ACL goes",
      () =>
        aws.cloudFormation.on(DescribeStacksCommand).callsFake(async (_input, getClient) => {
          if ((await getClient().config.region()) === 'us-east-1')
            throw awsError('ValidationError', 'Stack with id CDKToolkit does not exist');
          return { Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() }] };
        }),
      /^The account is not bootstrapped for CDK in us-east-1: run npx cdk bootstrap aws:\/\/123456789012\/us-east-1/,
      { apiFrontWebAclArn: undefined },
    ],
    [
      "no AWS WAF for the app's own web ACL",
      () => aws.waf.on(ListWebACLsCommand).rejects(awsError('AccessDeniedException', 'not authorized')),
      /^AWS WAF is not available to these credentials in us-east-1 \(not authorized\): the API front's web ACL goes there/,
      { apiFrontWebAclArn: undefined },
    ],
  ];

  it.each(failures)('fails with its own message on %s', async (_case, breakIt, message, settings = {}) => {
    // Prepare
    breakIt();

    // Act
    const report = await runPreflight({ ...SETTINGS, ...settings }, template);

    // Assess: that failure alone, in one message.
    expect(report.failures).toEqual([expect.stringMatching(message)]);
  });

  it('gives each failing check its own message when several fail at once', async () => {
    aws.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    aws.ses.on(GetAccountCommand).resolves({ SendingEnabled: true, ProductionAccessEnabled: false });
    aws.waf.on(GetWebACLCommand).rejects(awsError('WAFNonexistentItemException'));

    const report = await runPreflight(SETTINGS, template);

    expect(report.failures).toHaveLength(3);
  });

  it("checks CDK's bootstrap and AWS WAF in us-east-1 only where the app deploys its own web ACL there", async () => {
    const ownWebAcl = await runPreflight({ ...SETTINGS, apiFrontWebAclArn: undefined }, template);
    expect(ownWebAcl.failures).toEqual([]);
    expect(ownWebAcl.checked).toEqual(
      expect.arrayContaining(['CDK bootstrap in us-east-1', "AWS WAF in us-east-1, for the API front's web ACL"]),
    );

    aws.inOrder();
    const withoutFront = await runPreflight({ ...SETTINGS, apiFront: false, apiFrontWebAclArn: undefined }, template);
    expect(withoutFront.checked).not.toContain('CDK bootstrap in us-east-1');
    expect(aws.waf.calls()).toHaveLength(0);
  });

  it('passes a quota of 10 when the stack reserves nothing, and asks nothing of SES without a sender', async () => {
    aws.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    aws.ses.on(GetAccountCommand).resolves({ SendingEnabled: true, ProductionAccessEnabled: false });

    const report = await runPreflight(
      { ...SETTINGS, senderAddress: undefined, reserveConcurrency: false },
      withoutReservations,
    );

    expect(report.failures).toEqual([]);
    expect(aws.ses.commandCalls(GetAccountCommand)).toHaveLength(0);
  });
});
