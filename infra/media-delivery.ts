import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersReferrerPolicy,
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
import { FolderOrigin } from './folder-origin';

/** How long the logs bucket keeps bucket and CDN access logs. */
export const ACCESS_LOG_DAYS = 90;
/** How long a replaced or deleted object version stays recoverable: photos (and anything else), selfies. */
export const NONCURRENT_VERSION_DAYS = { default: 30, selfies: 1 } as const;

/**
 * The media bucket's old versions: 30 days, but a selfie's 1 day, so that a deleted or erased
 * selfie does not linger. Where both rules apply S3 honours the shorter. Delete markers left
 * with no version behind them go too.
 */
const MEDIA_VERSION_RULES: LifecycleRule[] = [
  { id: 'OldVersions', noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS.default), expiredObjectDeleteMarker: true },
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

  constructor(scope: Construct, id: string, props: { photoSigningPublicKeyPem: string }) {
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
    NagSuppressions.addResourceSuppressions(logs, [
      { id: 'AwsSolutions-S1', reason: 'This is the access-log bucket; logging it into itself would loop.' },
    ]);
    const privateBucket = (name: string, versioned: boolean) =>
      new Bucket(this, name, {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        versioned,
        serverAccessLogsBucket: logs,
        serverAccessLogsPrefix: `${name}/`,
        lifecycleRules: [...(versioned ? MEDIA_VERSION_RULES : []), { abortIncompleteMultipartUploadAfter: Duration.days(7) }],
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
    });
    for (const distribution of [this.photoCdn, this.checkinPageCdn]) {
      NagSuppressions.addResourceSuppressions(distribution, [
        { id: 'AwsSolutions-CFR1', reason: 'Participants check in from anywhere; no geographic restriction applies.' },
        { id: 'AwsSolutions-CFR2', reason: 'Static files and signed photo URLs; the API, not CloudFront, takes input. Add WAF with a custom domain if needed.' },
        {
          id: 'AwsSolutions-CFR4',
          reason: 'The default CloudFront certificate fixes the minimum TLS version; set a custom domain with TLSv1.2_2021 for production (README).',
        },
      ]);
    }
  }

  /**
   * The check-in page's links carry gallery, status and retry tokens: no-referrer keeps them
   * from the pages and sites it leads to (Stripe included). Also nosniff and HSTS; no frame or
   * content-security rules, which could break pages that embed or extend it.
   */
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

  private checkinPageHeaders(): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, 'CheckinPageHeaders', {
      comment: 'groupshoot-api check-in page: no referrer',
      securityHeadersBehavior: {
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentTypeOptions: { override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: true },
      },
    });
  }
}
