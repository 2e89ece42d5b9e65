import { S3Client } from '@aws-sdk/client-s3';
import { CDN_PATH, type LocalApi, startLocalApi } from '../../scripts/local/api-server';
import type { LocalEdge } from '../../scripts/local/local-edge';
import { conformanceProblems } from './openapi-conformance';
import { useTestTable } from './test-table';

export interface ApiCall {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * The local API server in this test process, on its own port and table, so tests go over
 * real HTTP while sharing modules (clock, DynamoDB client) with the server.
 */
export function useLocalApi(options: { checkinPage?: boolean; stream?: boolean; edge?: boolean | LocalEdge } = {}): {
  call(path: string, options?: ApiCall): Promise<ApiAnswer>;
  readonly url: string;
  /** The edge in front of the functions, when `edge` asked for one. */
  readonly edge: LocalEdge | undefined;
} {
  let api: LocalApi | undefined;
  useTestTable({ stream: options.stream });
  beforeAll(async () => {
    api = await startLocalApi({
      port: 0,
      cdn: {
        publicKeyPem: process.env.TEST_CLOUDFRONT_PUBLIC_KEY!,
        keyPairId: process.env.CLOUDFRONT_KEY_PAIR_ID!,
        s3: new S3Client({ endpoint: process.env.S3_ENDPOINT, forcePathStyle: true }),
        bucket: process.env.MEDIA_BUCKET!,
      },
      checkinPage: options.checkinPage ? {} : undefined,
      edge: options.edge,
    });
    process.env.PHOTO_CDN_URL = `http://127.0.0.1:${api.port}${CDN_PATH}`;
  });
  afterAll(async () => {
    await api?.close();
  });
  return {
    get url() {
      if (!api) throw new Error('local API not started');
      return api.url;
    },
    get edge() {
      return api?.edge;
    },
    async call(path, options = {}) {
      if (!api) throw new Error('local API not started');
      const body =
        options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      const response = await fetch(`${api.url}${path}`, {
        method: options.method ?? 'GET',
        headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
        body: body,
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      // Every answer of every integration test is held against the OpenAPI document.
      const problems = conformanceProblems(
        options.method ?? 'GET',
        new URL(`${api.url}${path}`).pathname.replace(/^\/v1/, ''),
        response.status,
        parsed,
      );
      if (problems.length > 0) throw new Error(`Answer does not conform to docs/openapi.json:\n${problems.join('\n')}`);
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}
