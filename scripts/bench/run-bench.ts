/**
 * `npm run bench`: DynamoDB round trips per request, cold start per function bundle, the
 * import of 500 persons against the SDK alone, autocannon load against the same DynamoDB
 * work alone, abuse, webhook delivery (commit to verified arrival), and the reading of shoot
 * photos against decoding them with sharp alone, and the face model alone (cold load, time per
 * photo, peak memory), measured side by side in one run on local services it starts and stops
 * itself. Prints Markdown tables and writes bench-results.json.
 * `--smoke` runs each figure once, small, to prove the bench still works. `--only photo-lookups`
 * runs only the abuse section's lookup scenario (a distributed guesser beside a participant).
 */
// Before anything loads the SDK or the logger.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { JAVA_MISSING_MESSAGE, javaIsInstalled } from '../local/dynamodb-local';
import { startLocalServices } from '../local/local-stack';
import { measureColdStarts } from './cold-start';
import { type FaceModelResult, formatFaceModel, measureFaceModel } from './faces';
import type { FaceIngestResult } from './face-ingest';
import { type PhotoIngestResult, formatPhotoIngest, measurePhotoIngest } from './photo-ingest';
import { type BenchResults, formatResults } from './report';
import type { LookupAbuseResult } from './photo-lookup-abuse';

const usage = 'Usage: npm run bench -- [--smoke] [--out FILE] [--processes N] [--only photo-lookups]';

const FULL = {
  roundTripIterations: 3,
  coldStartProcesses: 7,
  importRows: 500,
  importIterations: 5,
  bundleLimit: undefined,
  loadConnections: 10,
  loadRequests: 1000,
  loadKeys: 25,
  abuseSeconds: 60,
  abuseFlooderPolicy: undefined,
  lookupAbuse: { networks: 48, hours: 3 },
  photoIngest: { width: 6000, height: 4000, cards: 3, portraits: 9, rounds: 3 },
  faceModel: { loadProcesses: 3, rounds: 2 },
  faceIngest: { portraits: 12 },
};
const SMOKE = {
  roundTripIterations: 1,
  coldStartProcesses: 2,
  importRows: 20,
  importIterations: 1,
  bundleLimit: 1,
  loadConnections: 2,
  loadRequests: 20,
  loadKeys: 2,
  abuseSeconds: 3,
  // A budget a slow machine's short flood still exceeds tenfold.
  abuseFlooderPolicy: { limit: 5, windowMs: 60_000 },
  lookupAbuse: { networks: 4, hours: 0.5 },
  photoIngest: { width: 1600, height: 1067, cards: 1, portraits: 1, rounds: 1 },
  faceModel: { loadProcesses: 1, rounds: 1, crops: 2, groupPhotos: 1 },
  faceIngest: { portraits: 2 },
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { smoke: { type: 'boolean' }, out: { type: 'string' }, processes: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (!javaIsInstalled()) throw new Error(JAVA_MISSING_MESSAGE);
  const settings = { ...(values.smoke ? SMOKE : FULL) };
  if (values.processes !== undefined) settings.coldStartProcesses = positiveInteger(values.processes, '--processes');
  const outFile = resolve(values.out ?? 'bench-results.json');
  const startedAt = new Date().toISOString();
  if (values.only !== undefined) {
    if (values.only !== 'photo-lookups') throw new Error(`--only takes photo-lookups, not ${values.only}`);
    await runLookupAbuseOnly(settings.lookupAbuse);
    return;
  }

  // First, while DynamoDB Local's JVM does not yet compete with the child processes for the CPUs.
  log('Cold starts (bundling, then fresh node processes)…');
  const coldStarts = await measureColdStarts({ processes: settings.coldStartProcesses, limit: settings.bundleLimit });
  log('Photo ingest: reading shoot photos against decoding them with sharp alone (child processes)…');
  const photoIngest = await measurePhotoIngest(settings.photoIngest);
  log('Face model alone: cold load, then face crops and group photos (child processes)…');
  const faceModel = await measureFaceModel(settings.faceModel);

  const services = await startLocalServices();
  let closeApi: (() => Promise<void>) | undefined;
  try {
    // Loaded after the environment is set: data access reads TABLE_NAME when it loads.
    const { db } = await import('#lib/platform/table/client');
    const { installRoundTripCounter } = await import('./round-trip-counter');
    const { seedDemo } = await import('../local/seed-demo');
    const { startLocalApi } = await import('../local/api-server');
    const { connectBenchApi } = await import('./bench-api');
    const { measureRoundTrips } = await import('./round-trips');
    const { compareImports } = await import('./import-comparison');
    const { measureLoad } = await import('./load');
    const { measureAbuse } = await import('./abuse');
    const { measureLookupAbuse, formatLookupAbuse } = await import('./photo-lookup-abuse');
    const { measureWebhookDelivery } = await import('./webhook-delivery');
    const { measureFaceIngest, formatFaceIngest } = await import('./face-ingest');
    const { getTenantBySlug } = await import('#lib/tenants/store/tenants');

    const counter = installRoundTripCounter(db);
    const demo = await seedDemo();
    if (!demo) throw new Error('The fresh table already held the demo tenant');
    const localApi = await startLocalApi({ port: 0 });
    closeApi = () => localApi.close();
    const api = await connectBenchApi(localApi.url, demo);

    log('Round trips per request…');
    const roundTrips = await measureRoundTrips(api, counter, {
      iterations: settings.roundTripIterations,
      largeImportRows: settings.importRows,
    });
    log('Photo ingest with and without the second opinion from faces, against the face model alone…');
    const faceIngest = await measureFaceIngest((await getTenantBySlug(demo.tenantSlug))!, counter, settings.faceIngest);
    log('Import through the API against the SDK alone…');
    const importComparison = await compareImports(api, { rows: settings.importRows, iterations: settings.importIterations });
    log('Load with autocannon against the same DynamoDB work alone…');
    const load = await measureLoad(api, counter, {
      baseUrl: localApi.url,
      connections: settings.loadConnections,
      requests: settings.loadRequests,
      keys: settings.loadKeys,
    });

    log(`Abuse: a flood at 10x one client's budget beside well-behaved clients (${settings.abuseSeconds} s without, then with)…`);
    const abuse = await measureAbuse(db, { baseUrl: localApi.url, seconds: settings.abuseSeconds, flooderPolicy: settings.abuseFlooderPolicy });
    log(`Abuse: a distributed guesser of photo lookups beside a participant (${settings.lookupAbuse.networks} networks, ${settings.lookupAbuse.hours} simulated hours)…`);
    const lookupAbuse = await measureLookupAbuse(settings.lookupAbuse);

    // Last, so that no other figure shares the machine with the event pipeline it starts (which first reads the whole stream).
    log('Webhook delivery: the check-in load without and with a subscription, then an import…');
    const webhookDelivery = await measureWebhookDelivery(api, {
      baseUrl: localApi.url,
      connections: settings.loadConnections,
      requests: settings.loadRequests,
      rows: settings.importRows,
    });

    const results: BenchResults & { lookupAbuse: LookupAbuseResult; photoIngest: PhotoIngestResult; faceModel: FaceModelResult; faceIngest: FaceIngestResult } = {
      mode: values.smoke ? 'smoke' : 'full',
      startedAt,
      machine: { node: process.version, cpus: availableParallelism(), platform: `${process.platform} ${process.arch}` },
      settings: {
        roundTripIterations: settings.roundTripIterations,
        coldStartProcesses: settings.coldStartProcesses,
        importRows: settings.importRows,
        importIterations: settings.importIterations,
        loadConnections: settings.loadConnections,
        loadRequests: settings.loadRequests,
        loadKeys: settings.loadKeys,
        abuseSeconds: settings.abuseSeconds,
      },
      roundTrips,
      coldStarts,
      importComparison,
      load,
      abuse,
      lookupAbuse,
      webhookDelivery,
      photoIngest,
      faceModel,
      faceIngest,
    };
    writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\n${formatResults(results)}\n\n${formatLookupAbuse(lookupAbuse)}\n\n${formatPhotoIngest(photoIngest)}\n\n${formatFaceModel(faceModel)}\n\n${formatFaceIngest(faceIngest)}\n\nWritten to ${outFile}`);
  } finally {
    await closeApi?.();
    await services.stop();
  }
}

/** `--only photo-lookups`: the local services, the lookup scenario, its table. */
async function runLookupAbuseOnly(options: { networks: number; hours: number }): Promise<void> {
  const services = await startLocalServices();
  try {
    const { measureLookupAbuse, formatLookupAbuse } = await import('./photo-lookup-abuse');
    log(`Abuse: a distributed guesser of photo lookups beside a participant (${options.networks} networks, ${options.hours} simulated hours)…`);
    console.log(`\n${formatLookupAbuse(await measureLookupAbuse(options))}`);
  } finally {
    await services.stop();
  }
}

function positiveInteger(text: string, option: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${option} needs a whole number ≥ 1, not ${text}`);
  return value;
}

/** Progress goes to stderr, so stdout holds only the tables. */
function log(message: string): void {
  console.error(message);
}

main().catch((error: Error) => {
  console.error(`npm run bench failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
