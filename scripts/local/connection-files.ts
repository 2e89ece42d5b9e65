/**
 * How `npm start` tells the CLIs (admin, import, photos) where it runs. Every server writes a
 * connection file of its own, `.local/servers/<pid>.json` in the folder it was started in, and
 * removes it when it stops, so that a CLI sees which servers run now and can refuse to guess
 * between two (scripts/cli-kit/local-servers.ts reads them). With `--data DIR` the server also
 * writes DIR/local-api.json, which stays when it stops: the next start on that data reads the
 * demo tenant back from it, and a CLI given `--data DIR` finds the server through it.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DemoData } from './seed-demo';

/** What a connection file holds: the server itself, and every value the CLIs need. */
export interface LocalServerInfo extends DemoData {
  /** The process running scripts/local/start.ts; the file is stale once it has gone. */
  pid: number;
  port: number;
  baseUrl: string;
  dynamoDbEndpoint: string;
  dynamoDbPid?: number;
  tableName: string;
  s3Endpoint: string;
  mediaBucket: string;
  /** The --data folder, absolute; absent when DynamoDB and S3 keep their data in memory. */
  dataDir?: string;
  /** Where the server keeps what its stream consumers and photo ingest gave up on (scripts/local/local-failure-store.ts). */
  failureDir?: string;
  persisted: boolean;
  stripe: string;
  emailInbox?: string;
}

/** The connection files of the running servers, inside the folder `npm start` runs in. */
export const SERVERS_FOLDER = join('.local', 'servers');

/** The connection file inside a --data folder. */
export const DATA_CONNECTION_FILE = 'local-api.json';

/** The connection file of the server with this process ID. */
function serverConnectionFile(workingDirectory: string, pid: number): string {
  return join(workingDirectory, SERVERS_FOLDER, `${pid}.json`);
}

/** Writes a whole file or nothing: a CLI reading at the same moment never sees half of it. */
function writeWholeFile(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}

/**
 * Writes the server's connection file and, with --data, DIR/local-api.json. Returns the files
 * written and `removeServerFile`, which deletes the server's own file (not the one in DIR) and
 * may be called more than once: on SIGINT, on SIGTERM and at exit.
 */
export function writeConnectionFiles(
  info: LocalServerInfo,
  workingDirectory: string,
): { serverFile: string; dataFile?: string; removeServerFile: () => void } {
  const content = `${JSON.stringify(info, null, 2)}\n`;
  const serverFile = serverConnectionFile(workingDirectory, info.pid);
  writeWholeFile(serverFile, content);
  const dataFile = info.dataDir === undefined ? undefined : join(info.dataDir, DATA_CONNECTION_FILE);
  if (dataFile) writeWholeFile(dataFile, content);
  return { serverFile, dataFile, removeServerFile: () => rmSync(serverFile, { force: true }) };
}
