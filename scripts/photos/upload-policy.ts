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
 * The IAM policy of an uploader that writes straight to S3 instead of through the API
 * (docs/photos.md#straight-to-s3): objects, multipart uploads and listing only in the inbox of
 * one gallery (`photos/<tenantId>/<token>/inbox/`), or with no gallery in the inboxes of all the
 * tenant's galleries (`photos/<tenantId>/<any token>/inbox/`). Never a person's folder beside an inbox,
 * where a photo would skip the cards, the faces and the review and go out with the photo-ready
 * email; nothing of another tenant, no selfies, no reading, no table. Anything not allowed here
 * is denied (IAM's default).
 */
export function uploadPolicy(tenantId: string, bucket: string, token?: string): PolicyDocument {
  const prefix = `${MEDIA_FOLDERS.photos}/${tenantId}/${token ?? '*'}/inbox/`;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: token ? 'UploadIntoOneGalleryInbox' : 'UploadIntoGalleryInboxes',
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        Resource: `arn:aws:s3:::${bucket}/${prefix}*`,
      },
      {
        Sid: token ? 'ListOneGalleryInbox' : 'ListGalleryInboxes',
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: `arn:aws:s3:::${bucket}`,
        Condition: { StringLike: { 's3:prefix': [`${prefix}*`] } },
      },
    ],
  };
}
