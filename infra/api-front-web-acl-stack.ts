import { CfnOutput, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { CLIENT_LIMIT_ANSWER, DEFAULT_CLIENT_EDGE_RULE } from './client-edge-rule';

/** The window AWS WAF counts each client's requests over, in seconds (client-edge-rule.ts). */
export const RATE_WINDOW_SECONDS = DEFAULT_CLIENT_EDGE_RULE.windowSeconds;

/**
 * Requests one client address may send in any window before WAF answers it 429 until its rate
 * falls below the limit again: DEFAULT_CLIENT_EDGE_RULE, which the local front applies too.
 */
export const DEFAULT_REQUESTS_PER_CLIENT = DEFAULT_CLIENT_EDGE_RULE.requestsPerWindow;

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
          content: JSON.stringify(CLIENT_LIMIT_ANSWER.body),
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
                responseCode: CLIENT_LIMIT_ANSWER.status,
                customResponseBodyKey: 'rateLimitExceeded',
                responseHeaders: Object.entries(CLIENT_LIMIT_ANSWER.headers).map(([name, value]) => ({ name, value })),
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
