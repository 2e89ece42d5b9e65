/**
 * Which `npm start` a CLI talks to when the environment does not say. Each running server has a
 * connection file of its own (scripts/local/connection-files.ts); a CLI uses the one server that
 * runs from its folder, or the one `--data DIR` names, and never guesses between two.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_CONNECTION_FILE, type LocalServerInfo, SERVERS_FOLDER } from '../local/connection-files';
import { UsageError } from './cli-errors';

/** What a CLI reads besides its command line: the environment, and the folder it runs in. */
export interface CliEnvironment {
  env: NodeJS.ProcessEnv;
  /** Where `npm start` leaves its connection files (.local/servers/) and --data is resolved from. */
  workingDirectory: string;
}

/** A running local server, as its connection file describes it. */
export interface LocalServer {
  /** The connection file it was read from. */
  file: string;
  /** Its values, unchecked: each CLI checks those it uses, as a file may come from an older npm start. */
  info: Partial<LocalServerInfo>;
}

/** Where to look, and what to suggest when several servers run. */
export interface ServerSearch {
  workingDirectory: string;
  /** `--data DIR`: the server started with this data folder, and no other. */
  dataDir?: string;
  /** How else the user can name what to talk to, for the refusal when several servers run. */
  otherwise: string;
  /** Whether a process runs; tests may replace it. */
  isAlive?: (pid: number) => boolean;
}

/**
 * Whether a process with this ID runs. EPERM means it runs under another user, which counts:
 * only ESRCH (no such process) makes a connection file stale.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The local server to talk to: with `dataDir`, the one whose DIR/local-api.json that is (a
 * UsageError when there is none or it has stopped); otherwise the one live server among the
 * connection files of `.local/servers/`, undefined when none runs. Files of processes that have
 * gone (a server killed without its clean-up) are stale and skipped; several live servers are a
 * UsageError that names each one, as picking one would send the command to a table or API the
 * user may not mean.
 */
export function findLocalServer(search: ServerSearch): LocalServer | undefined {
  const isAlive = search.isAlive ?? isProcessAlive;
  if (search.dataDir !== undefined) return serverOfDataFolder(search.dataDir, search.workingDirectory, isAlive);
  const folder = join(search.workingDirectory, SERVERS_FOLDER);
  const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
  const live = files
    .map((name) => readConnectionFile(join(folder, name)))
    .filter(
      (server): server is LocalServer =>
        server !== undefined && typeof server.info.pid === 'number' && isAlive(server.info.pid),
    );
  if (live.length <= 1) return live[0];
  const listed = [...live]
    .sort((a, b) => (a.info.port ?? 0) - (b.info.port ?? 0))
    .map(({ info }) => `port ${info.port} (pid ${info.pid}, ${info.dataDir ? `--data ${info.dataDir}` : 'in memory'})`);
  throw new UsageError(
    `${live.length} local servers run from ${search.workingDirectory}: ${listed.join(', ')}; name one with --data DIR (a server started with npm start -- --data DIR), or ${search.otherwise}`,
  );
}

function serverOfDataFolder(dataDir: string, workingDirectory: string, isAlive: (pid: number) => boolean): LocalServer {
  const file = resolve(workingDirectory, dataDir, DATA_CONNECTION_FILE);
  if (!existsSync(file))
    throw new UsageError(
      `--data ${dataDir}: there is no ${file}; start the server with npm start -- --data ${dataDir}`,
    );
  const server = readConnectionFile(file);
  if (!server)
    throw new UsageError(
      `--data ${dataDir}: ${file} is not a connection file of npm start; start the server with npm start -- --data ${dataDir}`,
    );
  // A file written before connection files named their process has no pid: the caller's checks decide.
  if (typeof server.info.pid === 'number' && !isAlive(server.info.pid)) {
    throw new UsageError(
      `--data ${dataDir}: the server that wrote ${file} (pid ${server.info.pid}) has stopped; start it again with npm start -- --data ${dataDir}`,
    );
  }
  return server;
}

/** A connection file's values; undefined when it cannot be read or is not a JSON object. */
function readConnectionFile(file: string): LocalServer | undefined {
  try {
    const info: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return info !== null && typeof info === 'object' && !Array.isArray(info) ? { file, info: info } : undefined;
  } catch {
    return undefined;
  }
}
