import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

export const WEB_DIR = join(__dirname, '..', '..', '..', 'web');

/** Runs scripts of web/ in order in a sandbox that has only `window`, as the page's deferred scripts run; the window they leave. */
export function runPageScripts(...files: string[]): Record<string, any> {
  const window: Record<string, any> = {};
  for (const file of files) runInNewContext(readFileSync(join(WEB_DIR, file), 'utf8'), { window }, { filename: file });
  return window;
}
