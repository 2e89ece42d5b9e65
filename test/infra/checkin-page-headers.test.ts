import { checkinPageSecurityHeaders } from '../../infra/checkin-page-headers';
import type { MediaDelivery } from '../../infra/media-delivery';
import { asText } from './iam-evaluation';
import { unbundledStack } from './unbundled-stack';

type Resource = { Properties: Record<string, any> };

let built: ReturnType<typeof unbundledStack>;
let photoCdnId: string;

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
  const delivery = built.stack.node.findChild('Media') as MediaDelivery;
  photoCdnId = built.stack.getLogicalId(delivery.photoCdn.node.defaultChild as never);
}, 60_000);

/** The headers the check-in page distribution's response headers policy sends, as name → value. */
function pageDistributionHeaders(): Record<string, string> {
  const distributions = Object.values(built.template.findResources('AWS::CloudFront::Distribution')) as Resource[];
  const page = distributions.find((distribution) =>
    distribution.Properties.DistributionConfig.Comment.includes('check-in page'),
  )!;
  const policyId = page.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref as string;
  const config = built.template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId]!.Properties
    .ResponseHeadersPolicyConfig;
  const security = config.SecurityHeadersConfig;
  for (const header of Object.values<{ Override: boolean }>(security)) expect(header.Override).toBe(true);
  const custom = config.CustomHeadersConfig.Items as { Header: string; Value: string; Override: boolean }[];
  for (const header of custom) expect(header.Override).toBe(true);
  const hsts = security.StrictTransportSecurity;
  return {
    'Content-Security-Policy': asText(security.ContentSecurityPolicy.ContentSecurityPolicy),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': security.FrameOptions.FrameOption,
    'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy,
    ...Object.fromEntries(custom.map(({ Header, Value }) => [Header, Value])),
    'Strict-Transport-Security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
  };
}

describe('the check-in page CDN', () => {
  it('sends the same security headers as the local server, with the stack’s API and photo CDN in the CSP', () => {
    // Act
    const headers = pageDistributionHeaders();
    // Assess: the API the page's config.js names (the ApiUrl output), the photo distribution, HSTS over HTTPS.
    const apiBaseUrl = asText(built.template.findOutputs('ApiUrl').ApiUrl!.Value);
    expect(apiBaseUrl).toMatch(/^https:\/\/\$\{\w+\}\.execute-api\./);
    expect(headers).toEqual(
      checkinPageSecurityHeaders({ apiBaseUrl, photoCdnUrl: `https://\${${photoCdnId}.DomainName}` }, { https: true }),
    );
  });

  it('forbids framing, inline script and every origin but its own, the API and the photo CDN', () => {
    // Act
    const policy = pageDistributionHeaders()['Content-Security-Policy']!;
    // Assess
    const directives = new Map(
      policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toHaveLength(2);
    expect(policy).not.toContain('unsafe-inline');
    expect(pageDistributionHeaders()['X-Frame-Options']).toBe('DENY');
  });
});
