import { readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { FUNCTION_NODE_OPTIONS, bundleFunction } from '../../infra/function-bundle';
import { inTemporaryDirectory, runNode } from './child-process';
import { median, rounded } from './statistics';

const ROOT = join(__dirname, '..', '..');
const BASELINE_BUNDLE = 'baseline: DynamoDBDocumentClient only';

// Runs in the child: only the import is timed, not node's own start; its wall time, then the
// CPU time the process spent in it (all threads, user and system).
const IMPORT_TIMER = `
const startedAt = process.hrtime.bigint();
const cpuBefore = process.cpuUsage();
await import(process.argv[1]);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(Number(process.hrtime.bigint() - startedAt) / 1e6 + ' ' + (cpu.user + cpu.system) / 1e3);
`;

interface ImportTime {
  wallMs: number;
  cpuMs: number;
}

/**
 * Bundles every handler under functions/ (or the first `limit`) and the baseline as the stack
 * does (infra/function-bundle.ts), then times each entry's `import()` in `processes` fresh node
 * processes, in rounds through all bundles, so that a slower moment touches every bundle alike.
 */
export async function measureColdStarts(processes: number, limit?: number) {
  return inTemporaryDirectory(async (outDir) => {
    const handlers = handlerFiles().slice(0, limit);
    const bundles = [
      { name: BASELINE_BUNDLE, file: bundleInto(join(ROOT, 'scripts', 'bench', 'baseline-function.ts'), outDir) },
      ...handlers.map((entry) => ({ name: relative(ROOT, entry), file: bundleInto(entry, outDir) })),
    ];
    // One unmeasured import each, so that no bundle pays for reading its files from disk first.
    for (const bundle of bundles) await timeImport(bundle.file);
    const samples = new Map<string, ImportTime[]>(bundles.map((bundle) => [bundle.name, []]));
    for (let round = 0; round < processes; round += 1) {
      for (const bundle of bundles) samples.get(bundle.name)!.push(await timeImport(bundle.file));
    }
    const medianOf = (name: string, measure: keyof ImportTime) =>
      median(samples.get(name)!.map((sample) => sample[measure]));
    const [baseline, baselineCpu] = [medianOf(BASELINE_BUNDLE, 'wallMs'), medianOf(BASELINE_BUNDLE, 'cpuMs')];
    return bundles.map((bundle) => {
      // What a function pays at cold start before its handler is ready: the bundle's initialisation.
      return {
        bundle: bundle.name,
        /** The entry file and the chunks it imports statically: what a cold start reads. */
        sizeKb: rounded(staticallyLoadedBytes(bundle.file) / 1024, 1),
        medianInitMilliseconds: rounded(medianOf(bundle.name, 'wallMs')),
        ratioToBaseline: rounded(medianOf(bundle.name, 'wallMs') / baseline),
        /** The same import's CPU time: less moved by what else the machine runs than the wall time. */
        cpuRatioToBaseline: rounded(medianOf(bundle.name, 'cpuMs') / baselineCpu),
        samples: samples.get(bundle.name)!.map((sample) => rounded(sample.wallMs)),
      };
    });
  });
}

function handlerFiles(): string[] {
  const functionsDir = join(ROOT, 'functions');
  return readdirSync(functionsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => join(functionsDir, file));
}

function bundleInto(entry: string, outDir: string): string {
  return bundleFunction(entry, join(outDir, relative(ROOT, entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '')), ROOT);
}

/** The bytes of `entry` and of every chunk it imports statically, transitively. */
function staticallyLoadedBytes(entry: string): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Static imports read `from"./chunks/….mjs"` or `import"./chunks/….mjs"`; dynamic ones `import("…")`.
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.mjs)"/g))
      visit(join(dirname(file), match[1]!));
  };
  visit(entry);
  return [...seen].reduce((total, file) => total + statSync(file).size, 0);
}

/** The wall and CPU milliseconds one fresh node process needs to import `file`, with a Lambda-like environment. */
async function timeImport(file: string): Promise<ImportTime> {
  const stdout = await runNode(['--input-type=module', '-e', IMPORT_TIMER, file], {
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
      // As the stack starts every function: Node reads the bundle's source maps at load.
      NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  const [wallMs, cpuMs] = stdout.trim().split(' ').map(Number);
  if (!(wallMs! > 0 && cpuMs! > 0)) throw new Error(`No timing from importing ${file}: ${stdout}`);
  return { wallMs: wallMs!, cpuMs: cpuMs! };
}
