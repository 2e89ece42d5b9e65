import { Token } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type Distribution, type DistributionProps, SecurityPolicyProtocol } from 'aws-cdk-lib/aws-cloudfront';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/** A domain of yours for a CloudFront distribution, with its ACM certificate (which CloudFront takes from us-east-1 only). */
export interface CloudFrontDomain {
  domainName: string;
  certificateArn: string;
}

/** The oldest TLS a distribution with a domain of ours accepts: TLS 1.2, with the 2021 set of ciphers. */
export const MINIMUM_TLS = SecurityPolicyProtocol.TLS_V1_2_2021;

/**
 * The distribution properties that serve `domain` with its certificate and TLS 1.2 at least; none
 * without a domain, where the default `*.cloudfront.net` certificate lets clients negotiate TLS 1.0
 * (CloudFront fixes its policy at TLSv1; docs/deployment.md#domains-and-tls). Throws at synth for a
 * certificate outside us-east-1.
 */
export function domainProps(
  scope: Construct,
  id: string,
  domain: CloudFrontDomain | undefined,
): Pick<DistributionProps, 'domainNames' | 'certificate' | 'minimumProtocolVersion'> {
  if (!domain) return {};
  const arn = domain.certificateArn;
  if (!Token.isUnresolved(arn) && !/^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(arn)) {
    throw new Error(
      `The certificate of ${domain.domainName} must be an ACM certificate in us-east-1, which CloudFront requires; got ${arn}`,
    );
  }
  return {
    domainNames: [domain.domainName],
    certificate: Certificate.fromCertificateArn(scope, `${id}Certificate`, arn),
    minimumProtocolVersion: MINIMUM_TLS,
  };
}

/** The distribution's HTTPS origin: its domain of ours when it has one, else its `*.cloudfront.net` name. */
export function distributionOrigin(distribution: Distribution, domain: CloudFrontDomain | undefined): string {
  return `https://${domain?.domainName ?? distribution.distributionDomainName}`;
}

/** Without a domain of ours the default certificate decides the TLS versions: cdk-nag's CFR4 is suppressed, and why. */
export function suppressDefaultCertificate(distribution: Distribution, domain: CloudFrontDomain | undefined): void {
  if (domain) return;
  NagSuppressions.addResourceSuppressions(distribution, [
    {
      id: 'AwsSolutions-CFR4',
      reason:
        'No domain configured: the default *.cloudfront.net certificate accepts TLS 1.0 and cannot be changed. Production sets a domain with its certificate, which gets TLSv1.2_2021 (docs/deployment.md#domains-and-tls).',
    },
  ]);
}
