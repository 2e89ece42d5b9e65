import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Event } from 'aws-lambda';
import { freePort } from './free-port';

export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) with the given buckets. Objects live under
 * `directory`, or in a temporary folder removed on stop.
 */
export async function startS3Local(options: {
  buckets: string[];
  directory?: string;
  port?: number;
  /** Receives S3-shaped event notifications (ObjectCreated:Put, …) for every bucket. */
  onEvent?: (event: S3Event) => void;
}): Promise<RunningS3> {
  const temporary = options.directory ? undefined : mkdtempSync(join(tmpdir(), 'groupshoot-s3-'));
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: options.directory ?? temporary,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  // S3rver is a Koa application; its typings omit the EventEmitter side.
  if (options.onEvent) {
    (server as unknown as NodeJS.EventEmitter).on('event', (event: S3Event) => options.onEvent?.(asS3Notification(event)));
  }
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}

/** S3 URL-encodes keys in notifications (spaces as +); s3rver sends them raw. */
function asS3Notification(event: S3Event): S3Event {
  return {
    Records: event.Records.map((record) => ({
      ...record,
      s3: {
        ...record.s3,
        object: {
          ...record.s3.object,
          key: record.s3.object.key
            .split('/')
            .map((segment) => encodeURIComponent(segment).replace(/%20/g, '+'))
            .join('/'),
        },
      },
    })),
  };
}
