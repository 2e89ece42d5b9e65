import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { GetWebACLCommand, ListWebACLsCommand, WAFV2Client } from '@aws-sdk/client-wafv2';
import { mockClient } from 'aws-sdk-client-mock';

export const ACCOUNT = '123456789012';
export const PHOTO_CERTIFICATE = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/photo-0001`;
export const API_CERTIFICATE = `arn:aws:acm:eu-central-1:${ACCOUNT}:certificate/api-0001`;
export const WEB_ACL = `arn:aws:wafv2:us-east-1:${ACCOUNT}:global/webacl/groupshoot-front/0a1b2c`;

/** An SDK error as the SDK throws it: its name is the service's error code. */
export function awsError(name: string, message = name): Error {
  return Object.assign(new Error(message), { name });
}

/**
 * Every AWS client the deploy uses, mocked (aws-sdk-client-mock), answering as an account where
 * everything is in order: bootstrapped, a quota of 1,000, SES out of its sandbox with the sender
 * verified, the certificates issued, the web ACL there, no stack deployed yet. Tests break one
 * thing each.
 */
export function mockAws() {
  const mocks = {
    sts: mockClient(STSClient),
    cloudFormation: mockClient(CloudFormationClient),
    lambda: mockClient(LambdaClient),
    ses: mockClient(SESv2Client),
    acm: mockClient(ACMClient),
    waf: mockClient(WAFV2Client),
    secrets: mockClient(SecretsManagerClient),
  };
  const inOrder = () => {
    Object.values(mocks).forEach((mock) => mock.reset());
    mocks.sts.on(GetCallerIdentityCommand).resolves({ Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:user/ops` });
    mocks.cloudFormation
      .on(DescribeStacksCommand, { StackName: 'CDKToolkit' })
      .resolves({ Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() }] });
    mocks.cloudFormation
      .on(GetTemplateCommand)
      .rejects(awsError('ValidationError', 'Stack with id GroupShoot does not exist'));
    mocks.cloudFormation
      .on(DescribeStackResourcesCommand)
      .rejects(awsError('ValidationError', 'Stack with id GroupShoot does not exist'));
    mocks.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
    mocks.ses.on(GetAccountCommand).resolves({ SendingEnabled: true, ProductionAccessEnabled: true });
    mocks.ses
      .on(GetEmailIdentityCommand, { EmailIdentity: 'photos@studio.example' })
      .rejects(awsError('NotFoundException'));
    mocks.ses
      .on(GetEmailIdentityCommand, { EmailIdentity: 'studio.example' })
      .resolves({ VerifiedForSendingStatus: true });
    mocks.acm.on(DescribeCertificateCommand, { CertificateArn: PHOTO_CERTIFICATE }).resolves({
      Certificate: { Status: 'ISSUED', DomainName: '*.studio.example', SubjectAlternativeNames: ['*.studio.example'] },
    });
    mocks.acm.on(DescribeCertificateCommand, { CertificateArn: API_CERTIFICATE }).resolves({
      Certificate: { Status: 'ISSUED', DomainName: 'api.studio.example' },
    });
    mocks.waf.on(GetWebACLCommand).resolves({ WebACL: undefined });
    mocks.waf.on(ListWebACLsCommand).resolves({ WebACLs: [] });
    mocks.secrets.on(GetSecretValueCommand).resolves({ SecretString: 'placeholder' });
    mocks.secrets.on(PutSecretValueCommand).resolves({});
  };
  return { ...mocks, inOrder };
}
