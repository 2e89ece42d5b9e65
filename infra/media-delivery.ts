import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  KeyGroup,
  PublicKey,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * The media bucket (selfies, photos) and the check-in page bucket, private, encrypted and
 * TLS-only, each behind a CloudFront distribution with origin access control. Photos are
 * served only on URLs signed with the key group's key pair; server access logs go to a
 * logs bucket.
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
      lifecycleRules: [{ expiration: Duration.days(90) }],
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
        lifecycleRules: [
          // Replaced or deleted selfies and photos are recoverable for 30 days, then gone.
          ...(versioned ? [{ noncurrentVersionExpiration: Duration.days(30) }] : []),
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
        origin: S3BucketOrigin.withOriginAccessControl(this.mediaBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        trustedKeyGroups: [keyGroup],
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
}
