import { CfnOutput, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/** The window AWS WAF counts each client's requests over, in seconds. */
export const RATE_WINDOW_SECONDS = 300;

/**
 * Requests one client address may send in any 5 minutes before WAF answers it 429 until its
 * rate falls below the limit again. Above what the application's own per-client limits let
 * through (about 600 reads and 125 check-ins in 5 minutes from one address, plus their
 * preflights), so a company behind one NAT address meets the application's 429 with its
 * message first; a flood at 10 requests per second (3,000) is stopped at the edge.
 */
export const DEFAULT_REQUESTS_PER_CLIENT = 2000;

/**
 * AWS managed rule groups on by default: addresses with a bad reputation and request patterns
 * of known exploits. Neither inspects body sizes, so selfies (base64 in JSON, up to 5 MiB) pass;
 * AWSManagedRulesCommonRuleSet would block bodies above 8 KB (see docs/deployment.md).
 */
export const DEFAULT_MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesKnownBadInputsRuleSet',
];

export interface ApiFrontWebAclStackProps extends StackProps {
  /** See DEFAULT_REQUESTS_PER_CLIENT. */
  requestsPerClient?: number;
  /** Names of AWS managed rule groups (vendor AWS) to add after the rate rule; [] for none. */
  managedRuleGroups?: string[];
}

/**
 * The web ACL of the API front. A web ACL for CloudFront has scope CLOUDFRONT and must be created
 * in us-east-1, whatever the region of the API, so it has this stack of its own pinned there;
 * the API stack takes its ARN (output WebAclArn) as `apiFront.webAclArn`.
 */
export class ApiFrontWebAclStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFrontWebAclStackProps = {}) {
    super(scope, id, props);
    if (Token.isUnresolved(this.region) || this.region !== 'us-east-1') {
      throw new Error(
        `${id}: a web ACL for CloudFront must be created in us-east-1; set env.region to 'us-east-1' (it is ${this.region}).`,
      );
    }
    const requestsPerClient = props.requestsPerClient ?? DEFAULT_REQUESTS_PER_CLIENT;
    if (!Number.isInteger(requestsPerClient) || requestsPerClient < 10) {
      throw new Error(
        `requestsPerClient must be a whole number of at least 10 (AWS WAF's minimum); got ${requestsPerClient}.`,
      );
    }
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const managedRuleGroups = props.managedRuleGroups ?? DEFAULT_MANAGED_RULE_GROUPS;

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'groupshoot-api front: requests per client address, AWS managed rules',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('GroupShootApiFront'),
      customResponseBodies: {
        rateLimitExceeded: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            ok: false,
            error: 'rate_limit_exceeded',
            message: 'Too many requests from this address; retry in a few minutes.',
          }),
        },
      },
      rules: [
        {
          name: 'RequestsPerClient',
          priority: 0,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: requestsPerClient,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
            },
          },
          // 429 in the API's error shape, readable by check-in pages on any origin, like the API's own.
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'rateLimitExceeded',
                responseHeaders: [
                  { name: 'Retry-After', value: '60' },
                  { name: 'Access-Control-Allow-Origin', value: '*' },
                ],
              },
            },
          },
          visibilityConfig: visibility('RequestsPerClient'),
        },
        ...managedRuleGroups.map((name, index) => ({
          name,
          priority: index + 1,
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
          overrideAction: { none: {} },
          visibilityConfig: visibility(name),
        })),
      ],
    });
    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'Pass to the API stack as -c apiFrontWebAclArn=<this> to turn the API front on',
    });
  }
}
