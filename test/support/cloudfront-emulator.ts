import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A CreateInvalidation request as the emulator received it. */
export interface ReceivedInvalidation {
  distributionId: string;
  callerReference: string;
  paths: string[];
}

export interface CloudFrontEmulator {
  /** Where to point the CloudFront client (CLOUDFRONT_ENDPOINT). */
  readonly endpoint: string;
  invalidations: ReceivedInvalidation[];
  /** Answers the next `count` requests 400 TooManyInvalidationsInProgress, as CloudFront does while too many are in progress. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

const NAMESPACE = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
const INVALIDATION_PATH = /^\/2020-05-31\/distribution\/([A-Z0-9]+)\/invalidation$/;

const tagValues = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((match) => match[1]!);

/**
 * CloudFront's CreateInvalidation on its wire format (REST-XML, API version 2020-05-31), for
 * tests: the service's real CloudFront client talks to it, and it keeps what it was asked to
 * invalidate. Nothing else of CloudFront is there.
 */
export async function startCloudFrontEmulator(): Promise<CloudFrontEmulator> {
  let refusals = 0;
  const invalidations: ReceivedInvalidation[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const xml = Buffer.concat(chunks).toString('utf8');
      const match = INVALIDATION_PATH.exec(request.url ?? '');
      response.setHeader('Content-Type', 'text/xml');
      if (request.method !== 'POST' || !match) {
        response
          .writeHead(404)
          .end(
            `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>NoSuchResource</Code></Error></ErrorResponse>`,
          );
        return;
      }
      if (refusals > 0) {
        refusals -= 1;
        response
          .writeHead(400)
          .end(
            `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>TooManyInvalidationsInProgress</Code><Message>busy</Message></Error></ErrorResponse>`,
          );
        return;
      }
      const [callerReference = ''] = tagValues(xml, 'CallerReference');
      const paths = tagValues(xml, 'Path');
      invalidations.push({ distributionId: match[1]!, callerReference, paths });
      const id = `I${invalidations.length}`;
      response.setHeader(
        'Location',
        `https://cloudfront.amazonaws.com/2020-05-31/distribution/${match[1]}/invalidation/${id}`,
      );
      response
        .writeHead(201)
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><Invalidation xmlns="${NAMESPACE}"><Id>${id}</Id><Status>InProgress</Status>` +
            `<CreateTime>${new Date().toISOString()}</CreateTime><InvalidationBatch><Paths><Quantity>${paths.length}</Quantity><Items>` +
            paths.map((path) => `<Path>${path}</Path>`).join('') +
            `</Items></Paths><CallerReference>${callerReference}</CallerReference></InvalidationBatch></Invalidation>`,
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invalidations,
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
