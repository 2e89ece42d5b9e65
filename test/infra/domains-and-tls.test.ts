import { MINIMUM_TLS } from '../../infra/cloudfront-domain';
import { nagFindings, unbundledStack } from './unbundled-stack';

type Resource = {
  Type: string;
  Properties: Record<string, any>;
  Metadata?: { cdk_nag?: { rules_to_suppress: { id: string }[] } };
};

const certificate = (name: string) => `arn:aws:acm:us-east-1:123456789012:certificate/${name}-0001`;
const webAclArn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/front/0123abcd';
const DOMAINS = {
  api: { domainName: 'api.studio.example', certificateArn: certificate('api') },
  photos: { domainName: 'photos.studio.example', certificateArn: certificate('photos') },
  checkin: { domainName: 'checkin.studio.example', certificateArn: certificate('checkin') },
};

const distributionsOf = (resources: Record<string, Resource>) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::CloudFront::Distribution');
/** The distribution whose logical ID starts with `prefix`. */
const distribution = (resources: Record<string, Resource>, prefix: string) =>
  distributionsOf(resources).find(([id]) => id.startsWith(prefix))![1];

describe('domains and TLS (docs/deployment.md#domains-and-tls)', () => {
  const withDomains = unbundledStack({
    apiFront: { webAclArn, domain: DOMAINS.api },
    cdnDomains: { photoCdn: DOMAINS.photos, checkinPage: DOMAINS.checkin },
  });
  const withoutDomains = unbundledStack({ apiFront: { webAclArn } });
  const resources = withDomains.template.toJSON().Resources as Record<string, Resource>;

  it.each([
    ['ApiFrontDistribution', DOMAINS.api],
    ['MediaPhotoCdn', DOMAINS.photos],
    ['MediaCheckinPageCdn', DOMAINS.checkin],
  ])('serves %s on its domain with its certificate, TLS 1.2 at least (TLSv1.2_2021), by SNI', (prefix, domain) => {
    // Act
    const config = distribution(resources, prefix).Properties.DistributionConfig;
    // Assess
    expect(config.Aliases).toEqual([domain.domainName]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: domain.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(MINIMUM_TLS).toBe('TLSv1.2_2021');
  });

  it('gives the functions, the check-in page and the outputs the domains, not the cloudfront.net names', () => {
    // Prepare
    const functions = Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    // Act
    const variables = functions
      .map((fn) => fn.Properties.Environment?.Variables ?? {})
      .filter((variables) => variables.PHOTO_CDN_URL);
    const outputs = withDomains.template.toJSON().Outputs;
    // Assess
    expect(variables.length).toBeGreaterThan(10);
    for (const variable of variables) {
      expect([variable.PHOTO_CDN_URL, variable.CHECKIN_PAGE_URL]).toEqual([
        'https://photos.studio.example',
        'https://checkin.studio.example/',
      ]);
    }
    expect(outputs.ApiUrl.Value).toBe('https://api.studio.example/v1');
    expect(outputs.PhotoCdnUrl.Value).toBe('https://photos.studio.example');
    // The check-in page's Content-Security-Policy admits the photo CDN by its domain.
    const pageHeaders = Object.values(resources).find(
      (resource) =>
        resource.Type === 'AWS::CloudFront::ResponseHeadersPolicy' &&
        resource.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig?.ContentSecurityPolicy,
    );
    expect(
      JSON.stringify(pageHeaders?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy),
    ).toContain('https://photos.studio.example');
  });

  it('keeps cdk-nag clean with no CFR4 suppression where a domain is set', () => {
    // Act
    const suppressed = distributionsOf(resources).filter(([, resource]) =>
      resource.Metadata?.cdk_nag?.rules_to_suppress.some((rule) => rule.id === 'AwsSolutions-CFR4'),
    );
    // Assess
    expect(nagFindings(withDomains.stack)).toEqual([]);
    expect(suppressed).toEqual([]);
  });

  it('without domains, leaves each distribution on its default certificate, with the CFR4 suppression that says why', () => {
    // Prepare
    const defaults = distributionsOf(withoutDomains.template.toJSON().Resources as Record<string, Resource>);
    // Act, Assess
    expect(defaults).toHaveLength(3);
    for (const [, resource] of defaults) {
      expect(resource.Properties.DistributionConfig.Aliases).toBeUndefined();
      expect(resource.Properties.DistributionConfig.ViewerCertificate).toBeUndefined();
      expect(resource.Metadata?.cdk_nag?.rules_to_suppress.map((rule) => rule.id)).toContain('AwsSolutions-CFR4');
    }
    expect(nagFindings(withoutDomains.stack)).toEqual([]);
  });

  it('refuses a certificate outside us-east-1, which CloudFront cannot use', () => {
    // Act, Assess
    expect(() =>
      unbundledStack({
        cdnDomains: {
          photoCdn: {
            domainName: 'photos.studio.example',
            certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc',
          },
        },
      }),
    ).toThrow(/us-east-1/);
  });
});
