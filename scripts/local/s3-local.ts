import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort } from './free-port';

export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) with the given buckets. Objects live under
 * `directory`, or in a temporary folder removed on stop.
 */
export async function startS3Local(options: { buckets: string[]; directory?: string; port?: number }): Promise<RunningS3> {
  const temporary = options.directory ? undefined : mkdtempSync(join(tmpdir(), 'groupshoot-s3-'));
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: options.directory ?? temporary,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
