import { MEDIA_FOLDERS } from '#lib/platform/media-keys';

/** An IAM policy document, as `aws iam create-policy --policy-document` takes it. */
export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: Array<{
    Sid: string;
    Effect: 'Allow';
    Action: string[];
    Resource: string;
    Condition?: Record<string, Record<string, string[]>>;
  }>;
}

/**
 * The IAM policy of a studio that uploads straight to S3 instead of through the API
 * (docs/photos.md#uploading-straight-to-s3): objects, multipart uploads and listing only below
 * `photos/<tenantId>/`, the tenant's own galleries; nothing of another tenant, no selfies and no
 * table. Anything not allowed here is denied (IAM's default).
 */
export function uploadPolicy(tenantId: string, bucket: string): PolicyDocument {
  const prefix = `${MEDIA_FOLDERS.photos}/${tenantId}/`;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'UploadIntoOwnGalleries',
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        Resource: `arn:aws:s3:::${bucket}/${prefix}*`,
      },
      {
        Sid: 'ListOwnGalleries',
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: `arn:aws:s3:::${bucket}`,
        Condition: { StringLike: { 's3:prefix': [`${prefix}*`] } },
      },
    ],
  };
}
