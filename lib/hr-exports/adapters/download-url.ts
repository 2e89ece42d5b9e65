import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { mediaBucket, mediaS3 } from '#lib/platform/media-bucket';

/** A presigned GET of an export's ZIP, valid `seconds`. */
export function presignExportDownload(objectKey: string, seconds: number): Promise<string> {
  return getSignedUrl(mediaS3(), new GetObjectCommand({ Bucket: mediaBucket(), Key: objectKey }), {
    expiresIn: seconds,
  });
}
