import { type App, Token } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';
import { ApiFrontWebAclStack } from './api-front-web-acl-stack';
import type { CloudFrontDomain } from './cloudfront-domain';
import { GroupShootStack, type GroupShootStackProps } from './groupshoot-stack';

export interface ApiStacksOptions {
  stackName: string;
  env: { account?: string; region?: string };
  props: Omit<GroupShootStackProps, 'env' | 'apiFront' | 'crossRegionReferences'>;
  front: {
    /** The API front with its web ACL (default on): docs/deployment.md#api-front-cloudfront-with-aws-waf. */
    on: boolean;
    /** A web ACL of your own (scope CLOUDFRONT); without one the app adds `<stackName>ApiFrontWebAcl` in us-east-1. */
    webAclArn?: string;
    domain?: CloudFrontDomain;
    requestsPerClient?: number;
    /** Adds the web ACL stack even where the API stack does not use it (to deploy it first and pass its ARN). */
    webAclStackAlone?: boolean;
  };
}

/** Why the helpers CDK adds for a reference across regions pass cdk-nag: they are CDK's own. */
const CROSS_REGION_HELPERS = [
  {
    id: 'AwsSolutions-IAM4',
    reason: "CDK's custom resource that passes the web ACL's ARN across regions uses the basic Lambda role.",
  },
  {
    id: 'AwsSolutions-IAM5',
    reason: "CDK's cross-region reference helper reads and writes its own SSM parameters under /cdk/exports/.",
  },
  { id: 'AwsSolutions-L1', reason: "CDK's cross-region reference helper; its runtime is CDK's choice." },
];

/**
 * The API stack and, unless the front is off or a web ACL of your own is given, the web ACL
 * stack in us-east-1, whose ARN the API stack reads across regions (CDK's crossRegionReferences:
 * an SSM parameter in the API's region, written at deployment).
 */
export function addApiStacks(
  app: App,
  options: ApiStacksOptions,
): { api: GroupShootStack; webAcl?: ApiFrontWebAclStack } {
  const { stackName, env, front } = options;
  const ownWebAcl = (front.on && !front.webAclArn) || front.webAclStackAlone;
  const webAcl = ownWebAcl
    ? new ApiFrontWebAclStack(app, `${stackName}ApiFrontWebAcl`, {
        env: { account: env.account, region: 'us-east-1' },
        requestsPerClient: front.requestsPerClient,
        crossRegionReferences: front.on && !front.webAclArn,
      })
    : undefined;
  const webAclArn = front.on ? (front.webAclArn ?? webAcl!.webAcl.attrArn) : undefined;
  const acrossRegions = webAclArn !== undefined && Token.isUnresolved(webAclArn);
  if (acrossRegions && (!env.region || Token.isUnresolved(env.region))) {
    throw new Error(
      'The API front reads its web ACL from us-east-1, which needs the API stack region: set one (AWS_REGION or your profile), pass -c apiFrontWebAclArn=…, or turn the front off with -c apiFront=false.',
    );
  }
  if (!front.on && front.domain) throw new Error("apiFrontDomainName needs the API front: the domain is the front's");
  const api = new GroupShootStack(app, stackName, {
    ...options.props,
    env,
    crossRegionReferences: acrossRegions,
    apiFront: webAclArn ? { webAclArn, domain: front.domain } : undefined,
  });
  if (acrossRegions) {
    if (webAcl) api.addStackDependency(webAcl);
    for (const stack of [api, webAcl].filter((stack) => stack !== undefined))
      NagSuppressions.addStackSuppressions(stack, CROSS_REGION_HELPERS, true);
  }
  return { api, webAcl };
}
