import { Duration, Stack, Token } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  OriginSslPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import {
  type CloudFrontDomain,
  distributionOrigin,
  domainProps,
  suppressDefaultCertificate,
} from './cloudfront-domain';

/** The header CloudFront adds to every origin request, with the origin-verify secret as its value. */
export const ORIGIN_VERIFY_HEADER = 'X-Origin-Verify';

/** Where the functions find the client's address behind the front (`address:port`). */
export const CLIENT_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The request headers the API reads, and so CloudFront must pass on. Authorization, the API key
 * and the tenant travel in the cache key (CloudFront forwards Authorization only from there);
 * the others, and CloudFront's header with the client's address, in the origin request policy.
 */
export const CACHE_KEY_HEADERS = ['Authorization', 'X-Api-Key', 'X-Tenant-Slug'];
export const ORIGIN_REQUEST_HEADERS = [
  'Content-Type',
  'Idempotency-Key',
  'Stripe-Signature',
  'CloudFront-Viewer-Address',
];

export interface ApiFrontProps {
  api: IHttpApi;
  /** ARN of a web ACL of scope CLOUDFRONT (it lives in us-east-1), e.g. ApiFrontWebAclStack's. */
  webAclArn: string;
  /** The bucket that takes the distribution's access logs. */
  logBucket: IBucket;
  /** A domain of yours for the front, with its certificate in us-east-1: TLS 1.2 at least. */
  domain?: CloudFrontDomain;
}

/**
 * CloudFront with AWS WAF in front of the HTTP API: all methods, nothing cached, the same paths
 * as the API's own endpoint (`/v1/...`). CloudFront adds the origin-verify secret to every
 * request it sends, so that functions can refuse requests that went around it to execute-api.
 */
export class ApiFront extends Construct {
  readonly distribution: Distribution;
  readonly originVerifySecret: Secret;
  /** The API's base URL through the front, stage included: `https://dxxxx.cloudfront.net/v1`. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiFrontProps) {
    super(scope, id);
    assertCloudFrontWebAcl(props.webAclArn);
    const stack = Stack.of(this);

    this.originVerifySecret = new Secret(this, 'OriginVerifySecret', {
      description: `Value of the ${ORIGIN_VERIFY_HEADER} header CloudFront adds to requests to the API`,
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    NagSuppressions.addResourceSuppressions(this.originVerifySecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'CloudFront reads the value at deployment only; it is replaced with a redeploy (docs/deployment.md), not by a rotation Lambda.',
      },
    ]);

    const origin = new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // A dynamic reference: CloudFormation puts the value in at deployment; the template holds none.
      customHeaders: { [ORIGIN_VERIFY_HEADER]: this.originVerifySecret.secretValue.unsafeUnwrap() },
    });
    const cachePolicy = new CachePolicy(this, 'NoCaching', {
      comment:
        'groupshoot-api: answers are not cached; the cache key carries the credentials so that CloudFront forwards Authorization',
      // CloudFront refuses cache-key headers when the maximum TTL is 0. With a default of 0, answers
      // without Cache-Control (all of the API's) are not cached; one that asked would be for 1 s at most.
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList(...CACHE_KEY_HEADERS),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
    });
    const originRequestPolicy = new OriginRequestPolicy(this, 'ApiHeaders', {
      comment: 'groupshoot-api: the request headers the API reads, and the client address',
      headerBehavior: OriginRequestHeaderBehavior.allowList(...ORIGIN_REQUEST_HEADERS),
      queryStringBehavior: OriginRequestQueryStringBehavior.none(), // all of them are in the cache key already
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'groupshoot-api API front (AWS WAF)',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        compress: false, // CloudFront compresses only with Accept-Encoding in the cache key; answers go out as the API sent them
        cachePolicy,
        originRequestPolicy,
      },
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'api-front/',
      ...domainProps(this, 'Front', props.domain),
    });
    suppressDefaultCertificate(this.distribution, props.domain);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Participants check in and integrations call from anywhere; no geographic restriction applies.',
      },
    ]);
    this.url = `${distributionOrigin(this.distribution, props.domain)}/v1`;
  }
}

/** Throws unless the ARN (when known at synth) names a web ACL of scope CLOUDFRONT in us-east-1. */
function assertCloudFrontWebAcl(arn: string): void {
  if (Token.isUnresolved(arn)) return;
  if (!/^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(arn)) {
    throw new Error(
      `apiFront.webAclArn must be the ARN of a web ACL of scope CLOUDFRONT, which lives in us-east-1 (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>); got ${arn}`,
    );
  }
}
