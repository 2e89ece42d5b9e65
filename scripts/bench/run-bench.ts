/**
 * `npm run bench`: every section of sections.ts on local services it starts itself, their tables
 * on stdout (progress on stderr) and every figure in bench-results.json (docs/benchmarks.md).
 */
// Before anything loads the SDK or the logger.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { JAVA_MISSING_MESSAGE, javaIsInstalled } from '../local/dynamodb-local';
import { startLocalServices } from '../local/local-stack';
import { inTemporaryDirectory } from './child-process';
import { figuresAsMarkdown } from './report';
import { type BenchEnvironment, type BenchOptions, SECTIONS, type Section } from './sections';

const usage = `Usage: npm run bench -- [--smoke] [--out FILE] [--processes N] [--participants N] [--only ${SECTIONS.map((section) => section.name).join('|')}]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean' },
      out: { type: 'string' },
      processes: { type: 'string' },
      participants: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return console.log(usage);
  const selected = values.only === undefined ? SECTIONS : SECTIONS.filter((section) => section.name === values.only);
  if (selected.length === 0) throw new Error(`--only takes a section's name, not ${values.only}\n${usage}`);
  if (!javaIsInstalled()) throw new Error(JAVA_MISSING_MESSAGE);
  const options: BenchOptions = {
    smoke: values.smoke === true,
    processes: positiveInteger(values.processes, '--processes'),
    participants: positiveInteger(values.participants, '--participants'),
  };
  const outFile = resolve(values.out ?? 'bench-results.json');
  const startedAt = new Date().toISOString();
  // With --only, an awsLike section runs here, behind the realistic DynamoDB; in a full run, in a child process of its own.
  const inChild = (section: Section) => section.awsLike === true && values.only === undefined;
  const results: Record<string, unknown> = {};
  let environment: { running: BenchEnvironment; stop(): Promise<void> } | undefined;
  try {
    for (const section of selected) {
      console.error(`${section.measures}${inChild(section) ? ' (child process)' : ''}…`);
      const key = camelCase(section.name);
      if (inChild(section)) {
        // This run's options (--participants too); the child's own --out, given after, wins.
        results[key] = (await runBenchChild(['--only', section.name, ...process.argv.slice(2)]))[key];
      } else {
        // Before the section's module loads: data access reads TABLE_NAME when it loads.
        if (!section.machineOnly) environment ??= await startEnvironment(section.awsLike === true);
        // A machineOnly section reads no environment.
        results[key] = await section.run(options, environment?.running as BenchEnvironment);
      }
      console.log(`\n### ${section.measures}\n\n${figuresAsMarkdown(results[key])}`);
    }
    const machine = {
      node: process.version,
      cpus: availableParallelism(),
      platform: `${process.platform} ${process.arch}`,
    };
    const report = { mode: options.smoke ? 'smoke' : 'full', startedAt, machine, ...results };
    writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWritten to ${outFile}`);
  } finally {
    await environment?.stop();
  }
}

/** The bench environment; `awsLike`: every DynamoDB call through the DynamoDB that conflicts like the real one. */
async function startEnvironment(awsLike: boolean): Promise<{ running: BenchEnvironment; stop(): Promise<void> }> {
  const services = await startLocalServices();
  const stops = [() => services.stop()];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne();
  };
  try {
    let proxyStats;
    if (awsLike) {
      const { startRealisticDynamoDb } = await import('../local/realistic-dynamodb/proxy');
      const proxy = await startRealisticDynamoDb({ target: services.dynamoDb.endpoint });
      stops.push(() => proxy.stop());
      proxyStats = proxy.stats;
      // Before anything loads the table client: every DynamoDB call of the run goes through the proxy.
      process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
    }
    const { db } = await import('#lib/platform/table/client');
    const { installRoundTripCounter } = await import('./round-trip-counter');
    const { seedDemo } = await import('../local/seed-demo');
    const { startLocalApi } = await import('../local/api-server');
    const { connectBenchApi } = await import('./bench-api');
    const counter = installRoundTripCounter(db);
    const demo = await seedDemo();
    if (!demo) throw new Error('The fresh table already held the demo tenant');
    const localApi = await startLocalApi({ port: 0, checkinPage: { tenantSlug: demo.tenantSlug } });
    stops.push(() => localApi.close());
    const api = await connectBenchApi(localApi.url, demo);
    return { running: { services, api, counter, proxyStats }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** This bench again in a child process with `args`, its progress on this one's stderr; the JSON it wrote. */
async function runBenchChild(args: string[]): Promise<Record<string, unknown>> {
  return inTemporaryDirectory(async (directory) => {
    const outFile = join(directory, 'results.json');
    const child = spawn(process.execPath, [...process.execArgv, __filename, ...args, '--out', outFile], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`npm run bench -- ${args.join(' ')} failed (exit ${code})`);
    return JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, unknown>;
  });
}

/** `load-aws-like` → `loadAwsLike`: a section's key in the JSON. */
const camelCase = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

function positiveInteger(text: string | undefined, option: string): number | undefined {
  const value = Number(text);
  if (text !== undefined && (!Number.isInteger(value) || value < 1))
    throw new Error(`${option} needs a whole number ≥ 1, not ${text}`);
  return text === undefined ? undefined : value;
}

main().catch((error: Error) => {
  console.error(`npm run bench failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
