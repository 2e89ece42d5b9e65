/**
 * The local stack's failure queues (docs/deployment.md#failure-replay): what a local stream
 * consumer or the local photo ingest gave up on after its retries is written here, one JSON file
 * per failure, instead of being retried for ever or dropped. `npm run admin -- ops replay` reads
 * them back and runs each through its handler again.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

/** Where a failure came from: a stream mapping's batch, or an asynchronous invocation (S3 → ingest). */
export type FailureSource = 'stream' | 'async';

/** One kept failure: the handler that failed it, and the whole event to run it with again. */
export interface KeptFailure {
  id: string;
  /** The function's handler name, e.g. `webhooks/dispatch-events` (infra/function-permissions.ts). */
  handler: string;
  source: FailureSource;
  failedAt: string;
  /** How many times the handler was given it. */
  attempts: number;
  /** The error's name, or `batchItemFailures` when the handler reported the record failed. */
  reason: string;
  /** The Lambda event: a DynamoDB stream event of the records set aside, or the S3 event. */
  event: unknown;
}

/** The folder of a server's failures: in its --data folder, or in the folder it runs in, by its process. */
export function localFailureDirectory(options: { dataDir?: string; workingDirectory: string; pid: number }): string {
  return options.dataDir
    ? join(options.dataDir, 'failures')
    : join(options.workingDirectory, '.local', 'failures', String(options.pid));
}

/** Failures as files in one folder, each written whole (a reader never sees half of one). */
export class LocalFailureStore {
  constructor(readonly directory: string) {}

  /** Writes the failure and returns its ID. */
  keep(failure: Omit<KeptFailure, 'id'>): string {
    const id = `${failure.failedAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
    mkdirSync(this.directory, { recursive: true });
    const file = join(this.directory, `${id}.json`);
    const temporary = `${file}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ id, ...failure }, null, 2)}\n`);
    renameSync(temporary, file);
    return id;
  }

  /** Every kept failure, oldest first. */
  list(): KeptFailure[] {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(this.directory, name), 'utf8')) as KeptFailure);
  }

  /** Removes a failure once it has been replayed. */
  remove(id: string): void {
    rmSync(join(this.directory, `${id}.json`), { force: true });
  }
}
