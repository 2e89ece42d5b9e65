import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { median, rounded } from './statistics';

const ROOT = join(__dirname, '..', '..');
const runFile = promisify(execFile);

/** The name of the bundle everything is compared with. */
export const BASELINE_BUNDLE = 'baseline: DynamoDBDocumentClient only';

/** What a function pays at cold start before its handler is ready: the bundle's initialisation. */
export interface BundleColdStart {
  bundle: string;
  sizeKb: number;
  medianInitMilliseconds: number;
  ratioToBaseline: number;
  samples: number[];
}

/** The same esbuild options as infra/service-function.ts (NodejsFunction's bundling). */
const BUNDLE_OPTIONS = { bundle: true, platform: 'node', target: 'node22', format: 'cjs', minify: true, logLevel: 'silent' } as const;

const BASELINE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

// Runs in the child: only the require is timed, not node's own start.
const REQUIRE_TIMER = `
const startedAt = process.hrtime.bigint();
require(process.argv[1]);
process.stdout.write(String(Number(process.hrtime.bigint() - startedAt) / 1e6));
`;

/**
 * Bundles every handler under functions/ (or the first `limit` of them) and a baseline that
 * only creates a DynamoDBDocumentClient, then times `require()` of each bundle in `processes`
 * fresh node processes. The rounds go through all bundles in turn, so that a slower moment of
 * the machine touches every bundle alike.
 */
export async function measureColdStarts(options: { processes: number; limit?: number }): Promise<BundleColdStart[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'groupshoot-bench-'));
  try {
    const handlers = handlerFiles().slice(0, options.limit);
    const bundles = [
      { name: BASELINE_BUNDLE, file: await bundleBaseline(outDir) },
      ...(await Promise.all(handlers.map(async (entry) => ({ name: relative(ROOT, entry), file: await bundleHandler(entry, outDir) })))),
    ];
    // One unmeasured require each, so that no bundle pays for reading its file from disk first.
    for (const bundle of bundles) await timeRequire(bundle.file);
    const samples = new Map<string, number[]>(bundles.map((bundle) => [bundle.name, []]));
    for (let round = 0; round < options.processes; round += 1) {
      for (const bundle of bundles) samples.get(bundle.name)!.push(await timeRequire(bundle.file));
    }
    const baseline = median(samples.get(BASELINE_BUNDLE)!);
    return bundles.map((bundle) => {
      const bundleSamples = samples.get(bundle.name)!;
      return {
        bundle: bundle.name,
        sizeKb: rounded(statSync(bundle.file).size / 1024, 1),
        medianInitMilliseconds: rounded(median(bundleSamples)),
        ratioToBaseline: rounded(median(bundleSamples) / baseline),
        samples: bundleSamples.map((sample) => rounded(sample)),
      };
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** functions/**\/*.ts, sorted. */
function handlerFiles(): string[] {
  const functionsDir = join(ROOT, 'functions');
  return readdirSync(functionsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => join(functionsDir, file));
}

async function bundleHandler(entry: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${relative(join(ROOT, 'functions'), entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '')}.js`);
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile, absWorkingDir: ROOT });
  return outfile;
}

async function bundleBaseline(outDir: string): Promise<string> {
  const outfile = join(outDir, 'baseline.js');
  await build({ ...BUNDLE_OPTIONS, stdin: { contents: BASELINE_SOURCE, resolveDir: ROOT, loader: 'ts' }, outfile, absWorkingDir: ROOT });
  return outfile;
}

/** Milliseconds one fresh node process needs to require `file`, with a Lambda-like environment. */
async function timeRequire(file: string): Promise<number> {
  const { stdout } = await runFile(process.execPath, ['-e', REQUIRE_TIMER, file], {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH ?? '',
      TABLE_NAME: 'groupshoot-bench',
      MEDIA_BUCKET: 'groupshoot-bench-media',
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'AKIABENCHFAKE',
      AWS_SECRET_ACCESS_KEY: 'bench-fake-secret',
      POWERTOOLS_SERVICE_NAME: 'groupshoot-api',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  const milliseconds = Number(stdout);
  if (!(milliseconds > 0)) throw new Error(`No timing from requiring ${file}: ${stdout}`);
  return milliseconds;
}
