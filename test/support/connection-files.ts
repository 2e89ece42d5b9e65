import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_CONNECTION_FILE, type LocalServerInfo, writeConnectionFiles } from '../../scripts/local/connection-files';

/**
 * Writes the connection file of a local server as `npm start` does (its own writer), in
 * `workingDirectory`/.local/servers/, and in `info.dataDir` when given. Returns the server's file.
 */
export function writeServerFile(workingDirectory: string, info: Partial<LocalServerInfo> & { pid: number }): string {
  return writeConnectionFiles(info as LocalServerInfo, workingDirectory).serverFile;
}

/** A --data folder's local-api.json with exactly these values, as an older npm start may have left it. */
export function writeDataFile(dataDir: string, info: Record<string, unknown>): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, DATA_CONNECTION_FILE);
  writeFileSync(file, JSON.stringify(info));
  return file;
}

/** The process ID of a process that has exited: what a server killed without clean-up leaves in its file. */
export async function stoppedProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return child.pid!;
}

/** Two processes that run as long as this test does: this one and its parent (the jest runner). */
export const LIVE_PROCESS_IDS = [process.pid, process.ppid] as const;
