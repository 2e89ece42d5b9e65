import { Duration, Lazy, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  type HeadersFrameOption,
  type HeadersReferrerPolicy,
  KeyGroup,
  PublicKey,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type LifecycleRule, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { MEDIA_FOLDERS } from '../lib/platform/media-keys';
import {
  CHECKIN_PAGE_CUSTOM_HEADERS,
  CHECKIN_PAGE_FRAME_OPTIONS,
  CHECKIN_PAGE_HSTS_MAX_AGE_SECONDS,
  CHECKIN_PAGE_REFERRER_POLICY,
  checkinPageContentSecurityPolicy,
} from './checkin-page-headers';
import { FolderOrigin } from './folder-origin';
import {
  type CloudFrontDomain,
  distributionOrigin,
  domainProps,
  suppressDefaultCertificate,
} from './cloudfront-domain';
import { HR_EXPORT_OBJECT_DAYS } from '../lib/hr-exports/rules/hr-export-model';

/** How long the logs bucket keeps bucket and CDN access logs. */
export const ACCESS_LOG_DAYS = 90;
/** How long a replaced or deleted object version stays recoverable: photos (and anything else), selfies. */
export const NONCURRENT_VERSION_DAYS = { default: 30, selfies: 1 } as const;

/**
 * Days after which a lifecycle rule deletes an HR export's ZIP, a cached portrait crop
 * (docs/hr-export.md#expiry), and a studio console's thumbnail (docs/studio-console.md).
 */
export const MEDIA_EXPIRY_DAYS = { hrExports: HR_EXPORT_OBJECT_DAYS, portraitCrops: 90, thumbnails: 30 } as const;

const EXPIRY_RULE_IDS = {
  hrExports: 'HrExportsExpire',
  portraitCrops: 'PortraitCropsExpire',
  thumbnails: 'ThumbnailsExpire',
} as const;

/**
 * HR exports, cached crops and thumbnails expire by themselves: the ZIP after
 * HR_EXPORT_OBJECT_DAYS, a crop 90 days after it was made (an export that reuses a crop does not
 * renew it), a thumbnail after 30 (the console makes it again when it is viewed later). Erasure
 * deletes them earlier with what they were made of. Their old versions go after a day, like a selfie's.
 */
const EXPORT_RULES: LifecycleRule[] = (['hrExports', 'portraitCrops', 'thumbnails'] as const).map((folder) => ({
  id: EXPIRY_RULE_IDS[folder],
  prefix: `${MEDIA_FOLDERS[folder]}/`,
  expiration: Duration.days(MEDIA_EXPIRY_DAYS[folder]),
  noncurrentVersionExpiration: Duration.days(1),
}));

/**
 * The media bucket's old versions: 30 days, but a selfie's 1 day, so that a deleted or erased
 * selfie does not linger. Where both rules apply S3 honours the shorter. Delete markers left
 * with no version behind them go too.
 */
const MEDIA_VERSION_RULES: LifecycleRule[] = [
  {
    id: 'OldVersions',
    noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS.default),
    expiredObjectDeleteMarker: true,
  },
  {
    id: 'OldSelfieVersions',
    prefix: `${MEDIA_FOLDERS.selfies}/`,
    noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS.selfies),
    expiredObjectDeleteMarker: true,
  },
];

/**
 * The media bucket (selfies, photos) and the check-in page bucket, private, encrypted and
 * TLS-only, each behind a CloudFront distribution with origin access control. The photo
 * distribution's origin is the media bucket's photos/ folder alone (selfies are never served),
 * and only on URLs signed with the key group's key pair; server access logs go to a logs bucket.
 */
export class MediaDelivery extends Construct {
  readonly mediaBucket: Bucket;
  readonly checkinPageBucket: Bucket;
  readonly photoCdn: Distribution;
  readonly checkinPageCdn: Distribution;
  readonly photoSigningKeyId: string;
  /** Server access logs of the buckets and access logs of the distributions (the API front's too). */
  readonly logsBucket: Bucket;
  /** The photo CDN's base URL (`https://…`, no slash at the end): its domain of ours when it has one. */
  readonly photoCdnUrl: string;
  /** The check-in page's URL (`https://…/`): its domain of ours when it has one. */
  readonly checkinPageUrl: string;
  /** The API the check-in page calls (its config.js), known only once the stack has made the API. */
  private checkinPageApiBaseUrl: string | undefined;

  constructor(
    scope: Construct,
    id: string,
    props: {
      photoSigningPublicKeyPem: string;
      photoCdnDomain?: CloudFrontDomain;
      checkinPageDomain?: CloudFrontDomain;
    },
  ) {
    super(scope, id);
    this.logsBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const logs = this.logsBucket;
    const privateBucket = (name: string, versioned: boolean) =>
      new Bucket(this, name, {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        versioned,
        serverAccessLogsBucket: logs,
        serverAccessLogsPrefix: `${name}/`,
        lifecycleRules: [
          ...(versioned ? [...MEDIA_VERSION_RULES, ...EXPORT_RULES] : []),
          { abortIncompleteMultipartUploadAfter: Duration.days(7) },
        ],
        removalPolicy: RemovalPolicy.RETAIN,
      });
    this.mediaBucket = privateBucket('MediaBucket', true);
    this.checkinPageBucket = privateBucket('CheckinPageBucket', false);

    const publicKey = new PublicKey(this, 'PhotoSigningPublicKey', { encodedKey: props.photoSigningPublicKeyPem });
    this.photoSigningKeyId = publicKey.publicKeyId;
    const keyGroup = new KeyGroup(this, 'PhotoSigningKeyGroup', { items: [publicKey] });

    this.photoCdn = new Distribution(this, 'PhotoCdn', {
      comment: 'groupshoot-api photos (signed URLs only)',
      defaultBehavior: {
        // The photos/ folder only: selfies have no URL, and the distribution may read nothing else.
        origin: new FolderOrigin(this.mediaBucket, MEDIA_FOLDERS.photos),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        trustedKeyGroups: [keyGroup],
        // The check-in page's Download fetches the file to save it under its name: CORS for GET.
        responseHeadersPolicy: this.photoDownloadHeaders(),
      },
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'photo-cdn/',
      ...domainProps(this, 'PhotoCdn', props.photoCdnDomain),
    });
    this.checkinPageCdn = new Distribution(this, 'CheckinPageCdn', {
      comment: 'groupshoot-api check-in page',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.checkinPageBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.checkinPageHeaders(),
      },
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'checkin-page-cdn/',
      ...domainProps(this, 'CheckinPageCdn', props.checkinPageDomain),
    });
    this.photoCdnUrl = distributionOrigin(this.photoCdn, props.photoCdnDomain);
    this.checkinPageUrl = `${distributionOrigin(this.checkinPageCdn, props.checkinPageDomain)}/`;
    suppressDefaultCertificate(this.photoCdn, props.photoCdnDomain);
    suppressDefaultCertificate(this.checkinPageCdn, props.checkinPageDomain);
    for (const distribution of [this.photoCdn, this.checkinPageCdn]) {
      NagSuppressions.addResourceSuppressions(distribution, [
        { id: 'AwsSolutions-CFR1', reason: 'Participants check in from anywhere; no geographic restriction applies.' },
        {
          id: 'AwsSolutions-CFR2',
          reason:
            'Static files and signed photo URLs; the API, not CloudFront, takes input. Add WAF with a custom domain if needed.',
        },
      ]);
    }
  }

  /** Names the API base URL the check-in page calls: the page's Content-Security-Policy admits it alone. */
  allowCheckinPageToCall(apiBaseUrl: string): void {
    this.checkinPageApiBaseUrl = apiBaseUrl;
  }

  /**
   * Lets pages read the photos they hold signed URLs for (the My photos view saves a photo
   * under its file name): any origin may GET, without credentials. It opens nothing: whoever
   * has a signed URL can fetch the file anyway; without one CloudFront still refuses.
   */
  private photoDownloadHeaders(): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, 'PhotoDownloadHeaders', {
      comment: 'groupshoot-api photos: CORS for GET, no credentials',
      corsBehavior: {
        accessControlAllowOrigins: ['*'],
        accessControlAllowMethods: ['GET', 'HEAD'],
        accessControlAllowHeaders: ['*'],
        accessControlAllowCredentials: false,
        originOverride: true,
      },
    });
  }

  /**
   * The check-in page's security headers (infra/checkin-page-headers.ts, which the local server
   * sends too): a CSP that admits the page's own files, the API and the photo CDN and forbids
   * framing, no-referrer (its links carry tokens), nosniff, DENY, HSTS, Permissions-Policy and
   * Cross-Origin-Opener-Policy; each overrides whatever the bucket holds.
   */
  private checkinPageHeaders(): ResponseHeadersPolicy {
    const contentSecurityPolicy = Lazy.string({
      produce: () => {
        if (this.checkinPageApiBaseUrl === undefined)
          throw new Error('MediaDelivery: allowCheckinPageToCall(apiBaseUrl) was never called');
        return checkinPageContentSecurityPolicy({
          apiBaseUrl: this.checkinPageApiBaseUrl,
          photoCdnUrl: this.photoCdnUrl,
        });
      },
    });
    return new ResponseHeadersPolicy(this, 'CheckinPageHeaders', {
      comment: 'groupshoot-api check-in page: CSP, no framing, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        frameOptions: { frameOption: CHECKIN_PAGE_FRAME_OPTIONS as HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: CHECKIN_PAGE_REFERRER_POLICY as HeadersReferrerPolicy, override: true },
        contentTypeOptions: { override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(CHECKIN_PAGE_HSTS_MAX_AGE_SECONDS),
          includeSubdomains: false,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(CHECKIN_PAGE_CUSTOM_HEADERS).map(([header, value]) => ({
          header,
          value,
          override: true,
        })),
      },
    });
  }
}
