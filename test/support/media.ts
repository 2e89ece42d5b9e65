import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { encode } from 'jpeg-js';

export const testS3 = new S3Client({ endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

/** A real baseline JPEG of the given size, a gradient so it is not trivially compressible. */
export function makeJpeg(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    data[index * 4] = (index * 7) % 256;
    data[index * 4 + 1] = (index * 3) % 256;
    data[index * 4 + 2] = 128;
    data[index * 4 + 3] = 255;
  }
  return Buffer.from(encode({ data, width, height }, 80).data);
}

export async function uploadObject(key: string, body: Buffer, metadata: Record<string, string> = {}): Promise<void> {
  await testS3.send(
    new PutObjectCommand({
      Bucket: process.env.MEDIA_BUCKET,
      Key: key,
      Body: body,
      ContentType: 'image/jpeg',
      Metadata: metadata,
    }),
  );
}

/** The notification S3 sends for a new object: keys URL-encoded, spaces as +. */
export function objectCreatedEvent(key: string, eventTime = new Date().toISOString()): S3Event {
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'eu-central-1',
        eventTime,
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:TEST' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'TEST', 'x-amz-id-2': 'TEST' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'photos',
          bucket: { name: process.env.MEDIA_BUCKET!, ownerIdentity: { principalId: 'TEST' }, arn: 'arn:aws:s3:::test' },
          object: {
            key: key
              .split('/')
              .map((segment) => encodeURIComponent(segment).replace(/%20/g, '+'))
              .join('/'),
            size: 1,
            eTag: 'etag',
            sequencer: '0',
          },
        },
      },
    ],
  };
}

/** A JPEG carrying EXIF with a GPS position (Berlin) and a camera make, as phones write them. */
export function makeJpegWithGps(width = 32, height = 24): Buffer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- piexifjs ships no types and no ES module
  const piexif = require('piexifjs');
  const exif = piexif.dump({
    '0th': { [piexif.ImageIFD.Make]: 'PhoneMaker', [piexif.ImageIFD.Model]: 'Model X' },
    GPS: {
      [piexif.GPSIFD.GPSLatitudeRef]: 'N',
      [piexif.GPSIFD.GPSLatitude]: [
        [52, 1],
        [31, 1],
        [1234, 100],
      ],
      [piexif.GPSIFD.GPSLongitudeRef]: 'E',
      [piexif.GPSIFD.GPSLongitude]: [
        [13, 1],
        [24, 1],
        [5678, 100],
      ],
    },
  });
  return Buffer.from(piexif.insert(exif, makeJpeg(width, height).toString('binary')), 'binary');
}
