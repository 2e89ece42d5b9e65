import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLE_ENTRY_FILE, bundleFunction } from '../../infra/function-bundle';

const ROOT = join(__dirname, '..', '..');
const runFile = promisify(execFile);

const handlers = readdirSync(join(ROOT, 'functions'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

// Imports every file given, in a fresh Node, and prints what the entry exports as `handler`.
const IMPORT_ALL = `
const [entry, ...chunks] = process.argv.slice(1);
for (const chunk of chunks) await import(chunk);
const { handler } = await import(entry);
process.stdout.write(typeof handler);
`;

describe('function bundles, as the stack deploys them', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it.each(handlers)('%s: the entry exports a handler, and every chunk loaded on demand loads in Node', async (handler) => {
    // Prepare
    const bundleDir = join(outDir, handler);
    const entry = bundleFunction(join(ROOT, 'functions', `${handler}.ts`), bundleDir, ROOT);
    const chunks = readdirSync(bundleDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.mjs') && file !== BUNDLE_ENTRY_FILE)
      .map((file) => join(bundleDir, file));

    // Act
    const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', IMPORT_ALL, entry, ...chunks], {
      cwd: tmpdir(),
      env: {
        PATH: process.env.PATH ?? '',
        TABLE_NAME: 'groupshoot-bundle-test',
        MEDIA_BUCKET: 'groupshoot-bundle-test-media',
        AWS_REGION: 'eu-central-1',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });

    // Assess
    expect(stdout).toBe('function');
    expect(relative(bundleDir, entry)).toBe(BUNDLE_ENTRY_FILE);
  }, 30_000);
});
