import { Match, Template } from 'aws-cdk-lib/assertions';
import { PHOTO_INGEST_HANDLER } from '#lib/http/handlers';
import { ApiFrontWebAclStack } from '../../infra/api-front-web-acl-stack';
import { type Route, UNMATCHED_ROUTE_HANDLER, routes } from '#lib/http/routes';
import { addApiStacks } from '../../infra/api-stacks';
import { nagFindings, publicKey, unbundledApp, unbundledStack } from './unbundled-stack';

const WEB_ACL_ARN =
  'arn:aws:wafv2:us-east-1:123456789012:global/webacl/groupshoot-api-front/0123abcd-0123-4567-89ab-0123456789ab';
const API_HANDLERS = [
  ...new Set([UNMATCHED_ROUTE_HANDLER, ...(routes as readonly Route[]).map((route) => route.handler)]),
];
/** What the API reads from a request, and where the client's address is behind CloudFront. */
const API_HEADERS = [
  'X-Tenant-Slug',
  'Authorization',
  'X-Api-Key',
  'Idempotency-Key',
  'Content-Type',
  'Stripe-Signature',
];

type Resource = { Properties: Record<string, any> };
const variablesOf = (template: Template, functionId: string) =>
  (template.findResources('AWS::Lambda::Function')[functionId] as Resource).Properties.Environment.Variables as Record<
    string,
    unknown
  >;
const apiDistributions = (template: Template) =>
  Object.values(template.findResources('AWS::CloudFront::Distribution')).filter((distribution) =>
    JSON.stringify(distribution.Properties.DistributionConfig.Origins).includes('.execute-api.'),
  ) as Resource[];

describe('API front (CloudFront with AWS WAF)', () => {
  describe('by default', () => {
    let built: ReturnType<typeof unbundledStack>;
    beforeAll(() => {
      built = unbundledStack();
    }, 60_000);

    it('puts no CloudFront distribution and no web ACL in front of the API', () => {
      expect(apiDistributions(built.template)).toEqual([]);
      built.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      built.template.resourceCountIs('AWS::CloudFront::OriginRequestPolicy', 0);
    });

    it('gives the functions no client-address header and no origin-verify secret, and outputs the API endpoint itself', () => {
      for (const id of built.functionIds.values()) {
        expect(variablesOf(built.template, id)).not.toHaveProperty('CLIENT_ADDRESS_HEADER');
        expect(variablesOf(built.template, id)).not.toHaveProperty('ORIGIN_VERIFY_SECRET_ARN');
      }
      expect(JSON.stringify(built.template.toJSON().Outputs.ApiUrl.Value)).toContain('.execute-api.');
    });
  });

  describe('with apiFront.webAclArn', () => {
    let built: ReturnType<typeof unbundledStack>;
    let distribution: Resource;
    beforeAll(() => {
      // Prepare
      built = unbundledStack({ apiFront: { webAclArn: WEB_ACL_ARN } });
      [distribution] = apiDistributions(built.template) as [Resource];
    }, 60_000);

    it('serves the API through one CloudFront distribution with the web ACL, HTTPS only, all methods', () => {
      expect(apiDistributions(built.template)).toHaveLength(1);
      const config = distribution.Properties.DistributionConfig;
      expect(config.WebACLId).toBe(WEB_ACL_ARN);
      expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('https-only');
      expect([...config.DefaultCacheBehavior.AllowedMethods].sort()).toEqual([
        'DELETE',
        'GET',
        'HEAD',
        'OPTIONS',
        'PATCH',
        'POST',
        'PUT',
      ]);
      expect(config.Logging).toEqual(expect.objectContaining({ Prefix: 'api-front/' }));
    });

    it("has the HTTP API's execute-api host as its only origin, over TLS 1.2, with the stage path /v1 kept from the viewer's URL", () => {
      const [apiId] = Object.keys(built.template.findResources('AWS::ApiGatewayV2::Api'));
      const [origin, ...others] = distribution.Properties.DistributionConfig.Origins;
      expect(others).toEqual([]);
      expect(origin.DomainName).toEqual({
        'Fn::Join': ['', [{ Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
      });
      expect(origin.OriginPath ?? '').toBe('');
      expect(origin.CustomOriginConfig).toEqual({
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
      expect(built.template.toJSON().Outputs.ApiUrl.Value).toEqual({
        'Fn::Join': [
          '',
          [
            'https://',
            {
              'Fn::GetAtt': [
                built.stack.getLogicalId(built.stack.apiFront!.distribution.node.defaultChild as never),
                'DomainName',
              ],
            },
            '/v1',
          ],
        ],
      });
    });

    it('sends the origin-verify secret as X-Origin-Verify, by dynamic reference (the template holds no value)', () => {
      const [secretId] = Object.keys(
        built.template.findResources('AWS::SecretsManager::Secret', {
          Properties: { Description: Match.stringLikeRegexp('X-Origin-Verify') },
        }),
      );
      const [origin] = distribution.Properties.DistributionConfig.Origins;
      expect(origin.OriginCustomHeaders).toEqual([
        {
          HeaderName: 'X-Origin-Verify',
          HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
        },
      ]);
    });

    it('caches no answer: default TTL 0, at most 1 second for an answer that asked, the credentials in the cache key', () => {
      const behavior = distribution.Properties.DistributionConfig.DefaultCacheBehavior;
      const cachePolicy = (
        built.template.findResources('AWS::CloudFront::CachePolicy')[behavior.CachePolicyId.Ref] as Resource
      ).Properties.CachePolicyConfig;
      expect(cachePolicy).toEqual(expect.objectContaining({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 1 }));
      expect(cachePolicy.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig.Headers).toEqual(
        expect.arrayContaining(['Authorization', 'X-Api-Key', 'X-Tenant-Slug']),
      );
    });

    it('forwards every header the API reads, all query strings, and CloudFront-Viewer-Address', () => {
      const behavior = distribution.Properties.DistributionConfig.DefaultCacheBehavior;
      const cacheKey = (
        built.template.findResources('AWS::CloudFront::CachePolicy')[behavior.CachePolicyId.Ref] as Resource
      ).Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin;
      const originRequest = (
        built.template.findResources('AWS::CloudFront::OriginRequestPolicy')[
          behavior.OriginRequestPolicyId.Ref
        ] as Resource
      ).Properties.OriginRequestPolicyConfig;
      expect(originRequest.HeadersConfig.Headers).toContain('CloudFront-Viewer-Address');
      const forwarded = [...cacheKey.HeadersConfig.Headers, ...originRequest.HeadersConfig.Headers];
      expect(forwarded).toEqual(expect.arrayContaining(API_HEADERS));
      expect(cacheKey.QueryStringsConfig.QueryStringBehavior).toBe('all');
      // Host stays the execute-api host: API Gateway refuses requests that name another.
      expect(forwarded.map((header: string) => header.toLowerCase())).not.toContain('host');
    });

    it.each(API_HANDLERS)(
      'tells %s to read the client address from CloudFront-Viewer-Address and where the origin-verify secret is',
      (handler) => {
        const variables = variablesOf(built.template, built.functionIds.get(handler)!);
        expect(variables.CLIENT_ADDRESS_HEADER).toBe('cloudfront-viewer-address');
        expect(variables.ORIGIN_VERIFY_SECRET_ARN).toEqual({
          Ref: expect.stringMatching(/^ApiFrontOriginVerifySecret/),
        });
      },
    );

    it('lets every API function, and only those, read the origin-verify secret', () => {
      const [secretId] = Object.keys(
        built.template.findResources('AWS::SecretsManager::Secret', {
          Properties: { Description: Match.stringLikeRegexp('X-Origin-Verify') },
        }),
      );
      const readerRoles = Object.values(built.template.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(`{"Ref":"${secretId}"}`))
        .flatMap((policy) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref));
      const roleOf = (handler: string) =>
        (built.template.findResources('AWS::Lambda::Function')[built.functionIds.get(handler)!] as Resource).Properties
          .Role['Fn::GetAtt'][0];
      expect(readerRoles.sort()).toEqual(API_HANDLERS.map(roleOf).sort());
      expect(readerRoles).not.toContain(roleOf(PHOTO_INGEST_HANDLER));
      expect(variablesOf(built.template, built.functionIds.get(PHOTO_INGEST_HANDLER)!)).not.toHaveProperty(
        'CLIENT_ADDRESS_HEADER',
      );
    });

    it("points the check-in page's config.js at the front", () => {
      const [deployment] = Object.values(built.template.findResources('Custom::CDKBucketDeployment'));
      const distributionId = built.stack.getLogicalId(built.stack.apiFront!.distribution.node.defaultChild as never);
      expect(JSON.stringify(deployment!.Properties.SourceMarkers)).toContain(
        `"Fn::GetAtt":["${distributionId}","DomainName"]`,
      );
    });

    it('stays clean under cdk-nag AwsSolutions', () => {
      expect(nagFindings(built.stack)).toEqual([]);
    });

    it.each([
      ['a regional web ACL', WEB_ACL_ARN.replace(':global/', ':regional/')],
      ['a web ACL outside us-east-1', WEB_ACL_ARN.replace('us-east-1', 'eu-central-1')],
    ])('refuses %s', (_, webAclArn) => {
      expect(() => unbundledStack({ apiFront: { webAclArn } })).toThrow(/us-east-1/);
    });
  });

  describe('its web ACL stack, pinned to us-east-1', () => {
    const webAclStack = (props: ConstructorParameters<typeof ApiFrontWebAclStack>[2] = {}) =>
      new ApiFrontWebAclStack(unbundledApp(), 'WebAcl', {
        env: { account: '123456789012', region: 'us-east-1' },
        ...props,
      });

    it('holds a CLOUDFRONT-scope web ACL that answers 429 to a client address above 1,000 requests in a minute', () => {
      const template = Template.fromStack(webAclStack());
      template.resourceCountIs('AWS::WAFv2::WebACL', 1);
      template.hasResourceProperties('AWS::WAFv2::WebACL', {
        Scope: 'CLOUDFRONT',
        DefaultAction: { Allow: {} },
        Rules: Match.arrayWith([
          Match.objectLike({
            Priority: 0,
            Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 1000, EvaluationWindowSec: 60 } },
            Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429 }) } },
          }),
        ]),
      });
      template.hasOutput('WebAclArn', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] } });
    });

    it('adds the AWS managed rule groups for bad reputations and known bad inputs, and none of those that block large bodies', () => {
      const [webAcl] = Object.values(
        Template.fromStack(webAclStack()).findResources('AWS::WAFv2::WebACL'),
      ) as Resource[];
      const groups = webAcl!.Properties.Rules.map((rule: any) => rule.Statement.ManagedRuleGroupStatement?.Name).filter(
        Boolean,
      );
      expect(groups).toEqual(['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet']);
    });

    it('takes another limit per client and other managed rule groups', () => {
      const [webAcl] = Object.values(
        Template.fromStack(webAclStack({ requestsPerClient: 500, managedRuleGroups: [] })).findResources(
          'AWS::WAFv2::WebACL',
        ),
      ) as Resource[];
      expect(webAcl!.Properties.Rules).toHaveLength(1);
      expect(webAcl!.Properties.Rules[0].Statement.RateBasedStatement.Limit).toBe(500);
    });

    it('refuses any region but us-east-1', () => {
      expect(() => new ApiFrontWebAclStack(unbundledApp(), 'WebAcl', { env: { region: 'eu-central-1' } })).toThrow(
        /us-east-1/,
      );
      expect(() => new ApiFrontWebAclStack(unbundledApp(), 'WebAcl')).toThrow(/us-east-1/);
    });

    it('stays clean under cdk-nag AwsSolutions', () => {
      const stack = webAclStack();
      Template.fromStack(stack);
      expect(nagFindings(stack)).toEqual([]);
    });
  });

  describe('in the app as deployed by default (infra/app.ts)', () => {
    const defaultApp = (front: Partial<Parameters<typeof addApiStacks>[1]['front']> = {}, region = 'eu-central-1') =>
      addApiStacks(unbundledApp(), {
        stackName: 'GroupShoot',
        env: { account: '123456789012', region },
        props: { photoSigningPublicKeyPem: publicKey },
        front: { on: true, ...front },
      });

    it('puts the front with its own web ACL, in us-east-1, in front of the API: the limit per client address is the default edge', () => {
      // Act
      const { api, webAcl } = defaultApp();
      const template = Template.fromStack(api);
      // Assess
      expect(webAcl?.region).toBe('us-east-1');
      expect(apiDistributions(template)).toHaveLength(1);
      expect(JSON.stringify(apiDistributions(template)[0]!.Properties.DistributionConfig.WebACLId)).toContain(
        'ApiFrontWebAcl',
      );
      expect(nagFindings(api)).toEqual([]);
      Template.fromStack(webAcl!);
      expect(nagFindings(webAcl!)).toEqual([]);
    });

    it('uses a web ACL of your own without adding one, and adds none with the front off', () => {
      const own = defaultApp({ webAclArn: WEB_ACL_ARN });
      const off = defaultApp({ on: false });
      expect([own.webAcl, off.webAcl]).toEqual([undefined, undefined]);
      expect(apiDistributions(Template.fromStack(own.api))).toHaveLength(1);
      expect(apiDistributions(Template.fromStack(off.api))).toEqual([]);
    });

    it('names the way out when the region of the API stack is unknown', () => {
      expect(() =>
        addApiStacks(unbundledApp(), {
          stackName: 'GroupShoot',
          env: { account: '123456789012' },
          props: { photoSigningPublicKeyPem: publicKey },
          front: { on: true },
        }),
      ).toThrow(/apiFront=false/);
    });
  });
});
