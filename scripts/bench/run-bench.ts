/**
 * `npm run bench`: DynamoDB round trips per request, cold start per function bundle, the
 * import of 500 persons against the SDK alone, load against the same DynamoDB work alone (on
 * DynamoDB Local, and in a child process with AWS-like latency), the announcement burst (a child
 * process), abuse, webhook delivery (commit to verified arrival), the reading of shoot photos
 * against decoding them with sharp alone, the face model alone, the check-in page, the HR export
 * and the studio console, measured side by side in one run on local services it starts and stops
 * itself. Prints Markdown tables and writes bench-results.json.
 * `--smoke` runs each figure once, small, to prove the bench still works. `--only photo-lookups`
 * runs only the abuse section's lookup scenario (a distributed guesser beside a participant);
 * `--only checkin-page` only the check-in page's bytes and Lighthouse scores; `--only hr-export`
 * only the HR export against sharp's crop and encode alone, and its peak memory at two sizes;
 * `--only round-trips` only the DynamoDB round trips per request;
 * `--only announcement-burst` the announcement burst against a DynamoDB that conflicts like the
 * real one, with 1,000 and 3,000 participants (`--participants N` for one run of N).
 */
// Before anything loads the SDK or the logger.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { JAVA_MISSING_MESSAGE, javaIsInstalled } from '../local/dynamodb-local';
import { type LocalServices, startLocalServices } from '../local/local-stack';
import type { DemoData } from '../local/seed-demo';
import { measureColdStarts } from './cold-start';
import { type FaceModelResult, formatFaceModel, measureFaceModel } from './faces';
import type { FaceIngestResult } from './face-ingest';
import { type PhotoIngestResult, formatPhotoIngest, measurePhotoIngest } from './photo-ingest';
import { type BenchResults, formatLoad, formatResults, formatRoundTrips } from './report';
import type { BenchApi } from './bench-api';
import type { RoundTripCounter } from './round-trip-counter';
import type { LookupAbuseResult } from './photo-lookup-abuse';
import { type CheckinPageResult, formatCheckinPage, measureCheckinPage } from './checkin-page';
import type { HrExportBenchResult, HrExportBenchSettings } from './hr-export';
import type { StudioQueueResult, StudioQueueSettings } from './studio-queue';
import type { LoadResult } from './load';
import type { BurstResult } from './announcement-burst';

const usage =
  'Usage: npm run bench -- [--smoke] [--out FILE] [--processes N] [--only round-trips|load [--aws-latency]|photo-lookups|checkin-page|hr-export|announcement-burst [--participants N]|studio-queue]';

const FULL = {
  roundTripIterations: 3,
  coldStartProcesses: 7,
  importRows: 500,
  importIterations: 5,
  bundleLimit: undefined,
  loadConnections: 10,
  loadRequests: 2000,
  loadKeys: 120,
  abuseSeconds: 60,
  abuseFlooderPolicy: undefined,
  lookupAbuse: { networks: 48, hours: 3 },
  photoIngest: { width: 6000, height: 4000, cards: 3, portraits: 9, rounds: 3 },
  faceModel: { loadProcesses: 3, rounds: 2 },
  faceIngest: { portraits: 12 },
  checkinPageRuns: 3,
  hrExport: {
    persons: [100, 500],
    width: 3000,
    height: 2000,
    distinctPhotos: 8,
    size: 648,
    rounds: 3,
  } as HrExportBenchSettings,
  studioQueue: { photos: 500, runs: 3, photoWidth: 2400, photoHeight: 1600 } as StudioQueueSettings,
};
const SMOKE = {
  roundTripIterations: 1,
  coldStartProcesses: 2,
  importRows: 20,
  importIterations: 1,
  bundleLimit: 1,
  loadConnections: 2,
  loadRequests: 20,
  loadKeys: 4,
  abuseSeconds: 3,
  // A budget a slow machine's short flood still exceeds tenfold.
  abuseFlooderPolicy: { limit: 5, windowMs: 60_000 },
  lookupAbuse: { networks: 4, hours: 0.5 },
  photoIngest: { width: 1600, height: 1067, cards: 1, portraits: 1, rounds: 1 },
  faceModel: { loadProcesses: 1, rounds: 1, crops: 2, groupPhotos: 1 },
  faceIngest: { portraits: 2 },
  checkinPageRuns: 1,
  hrExport: {
    persons: [2, 4],
    width: 400,
    height: 300,
    distinctPhotos: 2,
    size: 64,
    rounds: 1,
  } as HrExportBenchSettings,
  studioQueue: { photos: 24, runs: 1, photoWidth: 800, photoHeight: 533 } as StudioQueueSettings,
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean' },
      out: { type: 'string' },
      processes: { type: 'string' },
      only: { type: 'string' },
      participants: { type: 'string' },
      'aws-latency': { type: 'boolean' },
      help: { type: 'boolean' },
    },
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
  if (values.only === 'round-trips')
    return runRoundTripsOnly({ iterations: settings.roundTripIterations, largeImportRows: settings.importRows });
  if (values.only === 'load')
    return runLoadOnly(
      { connections: settings.loadConnections, requests: settings.loadRequests, keys: settings.loadKeys },
      values['aws-latency'] === true,
      outFile,
    );
  if (values.only === 'photo-lookups') return runLookupAbuseOnly(settings.lookupAbuse);
  if (values.only === 'checkin-page') return runCheckinPageOnly(settings.checkinPageRuns);
  if (values.only === 'hr-export') return runHrExportOnly(settings.hrExport);
  if (values.only === 'announcement-burst') {
    const crowds =
      values.participants !== undefined
        ? [positiveInteger(values.participants, '--participants')]
        : values.smoke
          ? [50]
          : [1_000, 3_000];
    return runAnnouncementBurstOnly(crowds, values.smoke ? 5 : 60, outFile);
  }
  if (values.only === 'studio-queue') return runStudioQueueOnly(settings.studioQueue);
  if (values.only !== undefined)
    throw new Error(
      `--only takes round-trips, load, photo-lookups, checkin-page, hr-export, announcement-burst or studio-queue, not ${values.only}`,
    );

  // First, while DynamoDB Local's JVM does not yet compete with the child processes for the CPUs.
  log('Cold starts (bundling, then fresh node processes)…');
  const coldStarts = await measureColdStarts({ processes: settings.coldStartProcesses, limit: settings.bundleLimit });
  log('Photo ingest: reading shoot photos against decoding them with sharp alone (child processes)…');
  const photoIngest = await measurePhotoIngest(settings.photoIngest);
  log('Face model alone: cold load, then face crops and group photos (child processes)…');
  const faceModel = await measureFaceModel(settings.faceModel);
  // Each in a child process with services of its own: its DynamoDB calls go through the DynamoDB that answers like the real one.
  const smokeOption = values.smoke ? ['--smoke'] : [];
  log(
    'Load with AWS-like DynamoDB latency: the functions and the API against the same DynamoDB work alone (child process)…',
  );
  const { load: loadAwsLike } = await runBenchChild<{ load: LoadResult[] }>([
    '--only',
    'load',
    '--aws-latency',
    ...smokeOption,
  ]);
  log('The announcement burst against a DynamoDB that conflicts like the real one (child process)…');
  const { announcementBurst } = await runBenchChild<{ announcementBurst: BurstResult[] }>([
    '--only',
    'announcement-burst',
    ...smokeOption,
  ]);

  await withDemoApi(async ({ api, counter, apiUrl, demo, services }) => {
    // Loaded after the environment is set: data access reads TABLE_NAME when it loads.
    const { db } = await import('#lib/platform/table/client');
    const { measureRoundTrips } = await import('./round-trips');
    const { compareImports } = await import('./import-comparison');
    const { measureLoad } = await import('./load');
    const { measureAbuse } = await import('./abuse');
    const { measureLookupAbuse, formatLookupAbuse } = await import('./photo-lookup-abuse');
    const { measureWebhookDelivery } = await import('./webhook-delivery');
    const { measureFaceIngest, formatFaceIngest } = await import('./face-ingest');
    const { getTenantBySlug } = await import('#lib/tenants/store/tenants');

    log('Round trips per request…');
    const roundTrips = await measureRoundTrips(api, counter, {
      iterations: settings.roundTripIterations,
      largeImportRows: settings.importRows,
    });
    log('Photo ingest with and without the second opinion from faces, against the face model alone…');
    const faceIngest = await measureFaceIngest((await getTenantBySlug(demo.tenantSlug))!, counter, settings.faceIngest);
    log('Import through the API against the SDK alone…');
    const importComparison = await compareImports(api, {
      rows: settings.importRows,
      iterations: settings.importIterations,
    });
    log('Load: the API and its functions against the same DynamoDB work alone…');
    const load = await measureLoad(api, counter, {
      baseUrl: apiUrl,
      connections: settings.loadConnections,
      requests: settings.loadRequests,
      keys: settings.loadKeys,
    });

    log(
      `Abuse: a flood at 10x one client's budget beside well-behaved clients (${settings.abuseSeconds} s without, then with)…`,
    );
    const abuse = await measureAbuse(db, {
      baseUrl: apiUrl,
      seconds: settings.abuseSeconds,
      flooderPolicy: settings.abuseFlooderPolicy,
    });
    log(
      `Abuse: a distributed guesser of photo lookups beside a participant (${settings.lookupAbuse.networks} networks, ${settings.lookupAbuse.hours} simulated hours)…`,
    );
    const lookupAbuse = await measureLookupAbuse(settings.lookupAbuse);

    log(`Check-in page: its files and Lighthouse at mobile settings (${settings.checkinPageRuns} runs)…`);
    const checkinPage = await measureCheckinPage({
      pageUrl: checkinPageUrlOf(apiUrl, demo.galleryToken),
      runs: settings.checkinPageRuns,
    });

    const { measureHrExport, formatHrExport } = await import('./hr-export');
    log(
      `HR export: ${settings.hrExport.persons.join(' and ')} persons against sharp's crop and encode alone (child processes)…`,
    );
    const hrExport = await measureHrExport(settings.hrExport, { pids: [services.dynamoDb.pid] });
    log(
      `Studio console: the first screen of a review queue of ${settings.studioQueue.photos} photos, against the same thumbnails as static files…`,
    );
    const { measureStudioQueue, formatStudioQueue } = await import('./studio-queue');
    const studioQueue = await measureStudioQueue(settings.studioQueue);

    // Last, so that no other figure shares the machine with the event pipeline it starts (which first reads the whole stream).
    log('Webhook delivery: the check-in load without and with a subscription, then an import…');
    const webhookDelivery = await measureWebhookDelivery(api, {
      baseUrl: apiUrl,
      connections: settings.loadConnections,
      requests: settings.loadRequests,
      rows: settings.importRows,
    });

    const results: BenchResults & {
      lookupAbuse: LookupAbuseResult;
      photoIngest: PhotoIngestResult;
      faceModel: FaceModelResult;
      faceIngest: FaceIngestResult;
      checkinPage: CheckinPageResult;
      hrExport: HrExportBenchResult;
      studioQueue: StudioQueueResult;
      loadAwsLike: LoadResult[];
      announcementBurst: BurstResult[];
    } = {
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
      loadAwsLike,
      announcementBurst,
      abuse,
      lookupAbuse,
      webhookDelivery,
      photoIngest,
      faceModel,
      faceIngest,
      checkinPage,
      hrExport,
      studioQueue,
    };
    writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
    const { formatAnnouncementBurst } = await import('./announcement-burst');
    const loadAwsLikeTable = `### Load with AWS-like DynamoDB latency (the goal's measure): ${settings.loadRequests} requests per scenario and side\n\n${formatLoad(loadAwsLike)}`;
    console.log(
      `\n${formatResults(results)}\n\n${loadAwsLikeTable}\n\n${formatAnnouncementBurst(announcementBurst)}\n\n${formatLookupAbuse(lookupAbuse)}\n\n${formatPhotoIngest(photoIngest)}\n\n${formatFaceModel(faceModel)}\n\n${formatFaceIngest(faceIngest)}\n\n${formatCheckinPage(checkinPage)}\n\n${formatHrExport(hrExport)}\n\n${formatStudioQueue(studioQueue)}\n\nWritten to ${outFile}`,
    );
  });
}

/** What withDemoApi sets up: the running services, the seeded demo, the local API on them and the round-trip counter. */
interface DemoApi {
  api: BenchApi;
  counter: RoundTripCounter;
  apiUrl: string;
  demo: DemoData;
  services: LocalServices;
}

/** The local services with the demo tenant, the local API on them and the round-trip counter, for `run`; all stopped after. */
async function withDemoApi(
  run: (setup: DemoApi) => Promise<void>,
  options: { awsLikeDynamoDb?: boolean } = {},
): Promise<void> {
  const services = await startLocalServices();
  let closeApi: (() => Promise<void>) | undefined;
  let stopProxy: (() => Promise<void>) | undefined;
  try {
    if (options.awsLikeDynamoDb) {
      const { startRealisticDynamoDb } = await import('../local/realistic-dynamodb/proxy');
      const proxy = await startRealisticDynamoDb({ target: services.dynamoDb.endpoint });
      stopProxy = () => proxy.stop();
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
    closeApi = () => localApi.close();
    await run({ api: await connectBenchApi(localApi.url, demo), counter, apiUrl: localApi.url, demo, services });
  } finally {
    await closeApi?.();
    await stopProxy?.();
    await services.stop();
  }
}

/** `--only round-trips`: the round trips per request. */
function runRoundTripsOnly(options: { iterations: number; largeImportRows: number }): Promise<void> {
  return withDemoApi(async ({ api, counter }) => {
    const { measureRoundTrips } = await import('./round-trips');
    log('Round trips per request…');
    console.log(`\n${formatRoundTrips(await measureRoundTrips(api, counter, options))}`);
  });
}

/**
 * `--only load`: the load scenarios against the same DynamoDB work alone, their table;
 * `awsLikeDynamoDb`: both sides through the DynamoDB that answers with AWS-like latency and
 * conflicts like the real one (scripts/local/realistic-dynamodb/).
 */
function runLoadOnly(
  options: { connections: number; requests: number; keys: number },
  awsLikeDynamoDb: boolean,
  outFile: string,
): Promise<void> {
  return withDemoApi(
    async ({ api, counter, apiUrl }) => {
      const { measureLoad } = await import('./load');
      log(
        `Load: the API and its functions against the same DynamoDB work alone${awsLikeDynamoDb ? ', with AWS-like latency' : ''}…`,
      );
      const load = await measureLoad(api, counter, { baseUrl: apiUrl, ...options });
      writeFileSync(outFile, `${JSON.stringify({ load }, null, 2)}\n`);
      console.log(
        `\n### Load: ${options.requests} requests per scenario and side${awsLikeDynamoDb ? ', DynamoDB with AWS-like latency' : ''}\n\n${formatLoad(load)}\n\nWritten to ${outFile}`,
      );
    },
    { awsLikeDynamoDb },
  );
}

/** `--only photo-lookups`: the local services, the lookup scenario, its table. */
async function runLookupAbuseOnly(options: { networks: number; hours: number }): Promise<void> {
  const services = await startLocalServices();
  try {
    const { measureLookupAbuse, formatLookupAbuse } = await import('./photo-lookup-abuse');
    log(
      `Abuse: a distributed guesser of photo lookups beside a participant (${options.networks} networks, ${options.hours} simulated hours)…`,
    );
    console.log(`\n${formatLookupAbuse(await measureLookupAbuse(options))}`);
  } finally {
    await services.stop();
  }
}

/** `--only checkin-page`: the local services with the demo gallery, the page served by the local API, its figures. */
function runCheckinPageOnly(runs: number): Promise<void> {
  return withDemoApi(async ({ apiUrl, demo }) => {
    log(`Check-in page: its files and Lighthouse at mobile settings (${runs} runs)…`);
    console.log(
      `\n${formatCheckinPage(await measureCheckinPage({ pageUrl: checkinPageUrlOf(apiUrl, demo.galleryToken), runs }))}`,
    );
  });
}

/** `--only studio-queue`: the local services, the studio console's first screen of a large review queue against static files. */
async function runStudioQueueOnly(settings: StudioQueueSettings): Promise<void> {
  const services = await startLocalServices();
  try {
    const { measureStudioQueue, formatStudioQueue } = await import('./studio-queue');
    log(
      `Studio console: the first screen of a review queue of ${settings.photos} photos, against the same thumbnails as static files…`,
    );
    console.log(`\n${formatStudioQueue(await measureStudioQueue(settings))}`);
  } finally {
    await services.stop();
  }
}

/** `--only hr-export`: the local services, the HR export figure. */
async function runHrExportOnly(settings: HrExportBenchSettings): Promise<void> {
  const services = await startLocalServices();
  try {
    const { measureHrExport, formatHrExport } = await import('./hr-export');
    log(
      `HR export: ${settings.persons.join(' and ')} persons against sharp's crop and encode alone (child processes)…`,
    );
    console.log(`\n${formatHrExport(await measureHrExport(settings, { pids: [services.dynamoDb.pid] }))}`);
  } finally {
    await services.stop();
  }
}

/**
 * `--only announcement-burst`: the local services behind a DynamoDB that conflicts like the real
 * one, a burst of each size in a gallery of its own, one table.
 */
async function runAnnouncementBurstOnly(crowds: number[], seconds: number, outFile: string): Promise<void> {
  const services = await startLocalServices();
  const { startRealisticDynamoDb } = await import('../local/realistic-dynamodb/proxy');
  const proxy = await startRealisticDynamoDb({ target: services.dynamoDb.endpoint });
  // Before anything loads the table client: the service's calls go through the proxy.
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  try {
    const { measureAnnouncementBurst, formatAnnouncementBurst } = await import('./announcement-burst');
    const results = [];
    // A small burst first, not reported: the handler's modules and connections warm, so that neither design pays for them.
    await measureAnnouncementBurst(
      { participants: 20, seconds: 1, hotShare: 0.8, hotCapacity: 600, counters: 'spread' },
      proxy.stats,
    );
    // Each size twice, side by side: the day's spots spread over its counters, and on its item alone (the design before).
    for (const participants of crowds) {
      for (const counters of ['spread', 'single'] as const) {
        log(
          `The announcement burst: ${participants} check-ins within ${seconds} s, 80 % to one day of capacity 600, counted ${counters === 'spread' ? 'on its spread counters' : 'on one counter'}…`,
        );
        results.push(
          await measureAnnouncementBurst(
            { participants, seconds, hotShare: 0.8, hotCapacity: 600, counters },
            proxy.stats,
          ),
        );
      }
    }
    writeFileSync(outFile, `${JSON.stringify({ announcementBurst: results }, null, 2)}\n`);
    console.log(`\n${formatAnnouncementBurst(results)}\n\nWritten to ${outFile}`);
  } finally {
    await proxy.stop();
    await services.stop();
  }
}

/**
 * This bench run again in a child process with `args`, its progress on this one's stderr; the
 * JSON it wrote. Its table client, services and proxy are its own, so that its DynamoDB calls
 * can go through the realistic DynamoDB while this process's go to DynamoDB Local directly.
 */
async function runBenchChild<Result>(args: string[]): Promise<Result> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-child-'));
  const outFile = join(directory, 'results.json');
  try {
    const child = spawn(process.execPath, [...process.execArgv, __filename, ...args, '--out', outFile], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`npm run bench -- ${args.join(' ')} failed (exit ${code})`);
    return JSON.parse(readFileSync(outFile, 'utf8')) as Result;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The check-in form of a gallery as the local API serves it (/checkin/, beside /v1). */
function checkinPageUrlOf(apiUrl: string, galleryToken: string): string {
  return `${apiUrl.replace(/\/v1$/, '')}/checkin/${galleryToken}`;
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
