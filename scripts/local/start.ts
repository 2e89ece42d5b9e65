/**
 * `npm start`: the whole service on this machine. DynamoDB Local, a local S3 server, the
 * table, a seeded demo tenant, the API at http://localhost:3000/v1 serving the same handlers
 * the Lambda functions run, the event dispatcher and webhook delivery worker, and photo-ready
 * emails to a local SES with an inbox in the browser. Ctrl-C stops everything it started.
 */
import { mkdirSync, readFileSync } from 'node:fs';

// Lambda runs Node.js 24; the SDK's notice about Node 20 support is noise where the local tools run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { resolve } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { JAVA_MISSING_MESSAGE, javaIsInstalled } from './dynamodb-local';
import { startLocalServices } from './local-stack';
import { startStripeEmulator } from './stripe-emulator';
import { startSesLocal } from './ses-local';
import type { DemoData } from './seed-demo';
import { DATA_CONNECTION_FILE, type LocalServerInfo, writeConnectionFiles } from './connection-files';
import { LocalFailureStore, localFailureDirectory } from './local-failure-store';
import { invokeAsynchronously } from './local-async-invoke';
import { PHOTO_INGEST_HANDLER } from '#lib/http/handlers';

const usage =
  'Usage: npm start -- [--port N] [--data DIR]   (PORT=N also sets the port; --data persists DynamoDB and S3 data)';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Not a port: ${values.port ?? process.env.PORT}`);
  if (!javaIsInstalled()) {
    console.error(JAVA_MISSING_MESSAGE);
    process.exitCode = 1;
    return;
  }
  const dataDir = values.data === undefined ? undefined : resolve(values.data);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  // What the stream consumers and the ingest give up on after their retries, for `npm run admin -- ops replay`.
  const failures = new LocalFailureStore(
    localFailureDirectory({ dataDir, workingDirectory: process.cwd(), pid: process.pid }),
  );

  const services = await startLocalServices({
    dataDir,
    onS3Event: (event) => void ingestUploadedPhotos(event, failures),
  });
  let apiRef: { close(): Promise<void> } | undefined;
  let stopEvents: (() => Promise<void>) | undefined;
  const stripeEmulator = process.env.STRIPE_SECRET_KEY ? undefined : await startStripeEmulator();
  if (stripeEmulator) {
    process.env.STRIPE_SECRET_KEY = 'sk_test_local_emulator';
    process.env.STRIPE_API_BASE = stripeEmulator.url;
    process.env.STRIPE_WEBHOOK_SECRET = stripeEmulator.webhookSecret;
  }
  // Photo-ready emails go to a local SES, whose inbox is a page in the browser.
  const ses = process.env.SES_ENDPOINT ? undefined : await startSesLocal();
  if (ses) process.env.SES_ENDPOINT = ses.endpoint;
  // The connection file says "this server runs": it goes first when stopping, and at any exit.
  let removeConnectionFile = () => {};
  process.once('exit', () => removeConnectionFile());
  let stopping = false;
  const stopAll = async (api?: { close(): Promise<void> }) => {
    if (stopping) return;
    stopping = true;
    removeConnectionFile();
    console.log('\nStopping the local API, S3 and DynamoDB Local…');
    await api?.close();
    await stopEvents?.();
    await stripeEmulator?.close();
    await ses?.stop();
    await services.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stopAll(apiRef));
  process.once('SIGTERM', () => void stopAll(apiRef));

  try {
    // Loaded after the environment is set: data access reads TABLE_NAME when it loads.
    const { seedDemo } = await import('./seed-demo');
    const { CDN_PATH, startLocalApi } = await import('./api-server');
    const demo = (await seedDemo()) ?? readPreviousDemo(dataDir);
    const api = await startLocalApi({
      port,
      cdn: localCdnSigning(),
      checkinPage: { tenantSlug: demo.tenantSlug },
      docs: true,
      // The default deployment's edge: the web ACL's limit per address, each route's throttle.
      edge: true,
    });
    apiRef = api;
    process.env.PHOTO_CDN_URL = `http://localhost:${api.port}${CDN_PATH}`;
    process.env.CHECKIN_PAGE_URL ??= `http://localhost:${api.port}/checkin/`;
    // The address emails' one-click unsubscribe links name (lib/photos/links/unsubscribe-links.ts).
    process.env.PUBLIC_API_URL ??= api.url;
    if (stripeEmulator) stripeEmulator.webhookUrl = `${api.url}/webhooks/stripe`;
    // The deployed stack runs the reservation sweep on a schedule; locally it runs every minute.
    const { sweepReservations } = await import('#lib/payments/reservation-sweep');
    const { loggableError, logger } = await import('#lib/platform/logger');
    setInterval(
      () =>
        void sweepReservations().catch((error: unknown) =>
          logger.error('reservation sweep failed', { error: loggableError(error) }),
        ),
      60_000,
    ).unref();
    // Events: DynamoDB Local's stream to the dispatcher, a local queue to the delivery worker.
    const { startEventPipeline } = await import('./event-pipeline');
    const events = await startEventPipeline({ photoNotices: true, referenceFaces: true, failures });
    stopEvents = () => events.stop();
    // Retention runs once a day in the stack; locally once an hour, and once at start.
    // The planner queues each gallery on a local queue, whose worker applies its retention.
    const { startRetentionPipeline } = await import('./local-retention-queues');
    const retention = await startRetentionPipeline();
    const retain = () =>
      void retention.run().catch((error: unknown) => logger.error('retention failed', { error: loggableError(error) }));
    retain();
    setInterval(retain, 3_600_000).unref();
    // HR exports: the create endpoint's messages go to a local queue whose consumer builds each export.
    const { startHrExportPipeline } = await import('./local-hr-export-queue');
    await startHrExportPipeline();
    const info: LocalServerInfo = {
      pid: process.pid,
      port: api.port,
      baseUrl: `http://localhost:${api.port}/v1`,
      ...demo,
      dynamoDbEndpoint: services.dynamoDb.endpoint,
      dynamoDbPid: services.dynamoDb.pid,
      tableName: process.env.TABLE_NAME!,
      s3Endpoint: services.s3.endpoint,
      mediaBucket: process.env.MEDIA_BUCKET!,
      dataDir,
      failureDir: failures.directory,
      persisted: dataDir !== undefined,
      stripe: stripeEmulator ? `emulator at ${stripeEmulator.url} (no money moves)` : 'Stripe, with STRIPE_SECRET_KEY',
      emailInbox: process.env.SES_ENDPOINT,
    };
    // The CLIs find this server through its own file; .local/local-api.json is no longer written,
    // as it could not tell which of two servers wrote it (docs/admin-cli.md#against-the-local-stack-npm-start).
    const written = writeConnectionFiles(info, process.cwd());
    removeConnectionFile = () => written.removeServerFile();
    printBanner(
      info,
      [written.serverFile, written.dataFile].filter((file) => file !== undefined),
    );
  } catch (error) {
    await services.stop();
    throw error;
  }
}

/**
 * A fresh CloudFront-style key pair per run: the photo endpoint signs with the private key,
 * the local CDN at /cdn verifies with the public one.
 */
function localCdnSigning() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  process.env.CLOUDFRONT_PRIVATE_KEY = privateKey;
  process.env.CLOUDFRONT_KEY_PAIR_ID = 'KLOCALDEVELOPMENT';
  const endpoint = process.env.S3_ENDPOINT;
  return {
    publicKeyPem: publicKey,
    keyPairId: 'KLOCALDEVELOPMENT',
    s3: new S3Client({ endpoint, forcePathStyle: true }),
    bucket: process.env.MEDIA_BUCKET!,
  };
}

/**
 * What S3 event notifications do in AWS: objects under photos/ reach the ingest function,
 * asynchronously, retried as Lambda retries it; an event that still fails is kept in `failures`.
 */
async function ingestUploadedPhotos(event: S3Event, failures: LocalFailureStore): Promise<void> {
  const { handler } = await import('../../functions/photos/sorting/ingest-photo');
  await invokeAsynchronously(handler, event, {
    handlerName: PHOTO_INGEST_HANDLER,
    store: failures,
    // The handler logged the details; the note names only where the event was kept.
    onKept: (id) => console.error(`Photo ingest failed after its retries; kept as ${id} (npm run admin -- ops replay)`),
  });
}

/** The demo tenant of an earlier run on the same --data, from the connection file it left there; nothing else of that run. */
function readPreviousDemo(dataDir: string | undefined): DemoData {
  const infoFile = resolve(dataDir ?? '.', DATA_CONNECTION_FILE);
  let previous: DemoData;
  try {
    previous = JSON.parse(readFileSync(infoFile, 'utf8')) as DemoData;
  } catch {
    throw new Error(
      `The data directory holds a demo tenant but not ${infoFile}; start with an empty --data directory.`,
    );
  }
  const { tenantSlug, apiKey, galleryToken, otherGalleryToken, shootingDayIds, packageIds } = previous;
  return { tenantSlug, apiKey, galleryToken, otherGalleryToken, shootingDayIds, packageIds };
}

function printBanner(info: LocalServerInfo, connectionFiles: string[]): void {
  const tenant = `-H 'X-Tenant-Slug: ${info.tenantSlug}'`;
  console.log(`
groupshoot-api is running locally

  Base URL     ${info.baseUrl}
  Tenant slug  ${info.tenantSlug}
  API key      ${info.apiKey}
  Gallery      ${info.galleryToken}   (group shoot; not a group shoot: ${info.otherGalleryToken})
  DynamoDB     ${info.dynamoDbEndpoint}   table ${info.tableName} (${info.persisted ? 'persisted' : 'in memory'})
  S3           ${info.s3Endpoint}   bucket ${info.mediaBucket}
  Payments     ${info.stripe}
  Emails       ${info.emailInbox}   (local SES: open it in a browser to read the photo-ready emails)
  Written to   ${connectionFiles.join(', ')}   (how npm run admin, import and photos find this server)

API reference:
  ${info.baseUrl.replace(/\/v1$/, '')}/docs

Check-in page:
  ${info.baseUrl.replace(/\/v1$/, '')}/checkin/?token=${info.galleryToken}

Webhooks (the event dispatcher runs on DynamoDB Local's stream): subscribe a local receiver,
then start it with the signing secret the first command prints:
  npm run admin -- webhook add --tenant ${info.tenantSlug} --url http://localhost:4000/webhooks --events all
  npm run webhook-receiver -- --port 4000 --secret whsec_…

Try:
  curl -sS --fail-with-body ${info.baseUrl}/group-shoot/checkin/${info.galleryToken} ${tenant}
  curl -sS --fail-with-body ${info.baseUrl}/groupshoot/${info.galleryToken}/days ${tenant} -H 'Authorization: Bearer ${info.apiKey}'
  curl -sS --fail-with-body ${info.baseUrl}/group-shoot/checkin/${info.galleryToken}/days ${tenant} -H 'X-Api-Key: ${info.apiKey}'

The README's and the guides' examples use BASE, TENANT, API_KEY and TOKEN; in another terminal here:
  eval "$(npm run -s local-env)"${info.dataDir ? `    (or npm run -s local-env -- --data ${info.dataDir})` : ''}

Press Ctrl-C to stop.`);
}

main().catch((error: Error) => {
  console.error(`npm start failed: ${error.message}`);
  process.exit(1);
});
