import { Aws } from 'aws-cdk-lib';
import {
  type CfnDistribution,
  type OriginBindConfig,
  type OriginBindOptions,
  OriginBase,
  S3OriginAccessControl,
} from 'aws-cdk-lib/aws-cloudfront';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * One folder of an S3 bucket as a CloudFront origin, through origin access control: the origin
 * path is the folder, so viewer path `/<rest>` reads object `<folder>/<rest>` and no URL names
 * anything outside it; and the bucket policy lets the distribution read `<folder>/*` only.
 * (CDK's S3BucketOrigin.withOriginAccessControl would let it read the whole bucket.)
 */
export class FolderOrigin extends OriginBase {
  private readonly bucket: IBucket;
  private readonly folder: string;

  constructor(bucket: IBucket, folder: string) {
    super(bucket.bucketRegionalDomainName, { originPath: `/${folder}` });
    if (!/^[A-Za-z0-9_-]+$/.test(folder)) throw new Error(`Not a folder name: ${folder}`);
    this.bucket = bucket;
    this.folder = folder;
  }

  override bind(scope: Construct, options: OriginBindOptions): OriginBindConfig {
    if (!options.distributionId) throw new Error('FolderOrigin needs the distribution ID to scope the bucket policy');
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(`${this.folder}/*`)],
        conditions: {
          StringEquals: {
            'AWS:SourceArn': `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${options.distributionId}`,
          },
        },
      }),
    );
    const config = super.bind(scope, options);
    return {
      ...config,
      originProperty: {
        ...config.originProperty!,
        originAccessControlId: new S3OriginAccessControl(scope, 'S3OriginAccessControl').originAccessControlId,
      },
    };
  }

  /** Origin access control signs requests; no origin access identity. */
  protected override renderS3OriginConfig(): CfnDistribution.S3OriginConfigProperty {
    return { originAccessIdentity: '' };
  }
}
