import type { LocalServices } from '../local/local-stack';
import type { RealisticDynamoDbStats } from '../local/realistic-dynamodb/proxy';
import type { BenchApi } from './bench-api';
import type { RoundTripCounter } from './round-trip-counter';

/** The local services, the local API on them as the seeded demo tenant, and the round-trip counter on the shared document client. */
export interface BenchEnvironment {
  services: LocalServices;
  api: BenchApi;
  counter: RoundTripCounter;
  /** Set when every DynamoDB call goes through the DynamoDB that conflicts like the real one. */
  proxyStats?: RealisticDynamoDbStats;
}

/** `--smoke` (each figure once, small), `--processes N` and `--participants N` (docs/benchmarks.md). */
export interface BenchOptions {
  smoke: boolean;
  processes?: number;
  participants?: number;
}

/**
 * A section: its name (`--only NAME`; in camelCase, its key in the JSON), heading and run.
 * `machineOnly` ones run before the local services start, so that DynamoDB Local's JVM does not
 * compete with their child processes; `awsLike` ones behind the DynamoDB that conflicts like the
 * real one. Each loads its module when it runs: data access reads TABLE_NAME when it loads.
 */
export interface Section {
  name: string;
  measures: string;
  machineOnly?: boolean;
  awsLike?: boolean;
  run(options: BenchOptions, environment: BenchEnvironment): Promise<unknown>;
}

/** Every section, in the order a full run measures them; docs/benchmarks.md describes each. */
export const SECTIONS: Section[] = [
  {
    name: 'cold-starts',
    measures:
      'Cold start: module initialisation of each function bundle against a baseline, median of fresh processes (goal ≤ 1.3x)',
    machineOnly: true,
    run: async ({ smoke, processes }) =>
      (await import('./cold-start')).measureColdStarts(processes ?? (smoke ? 2 : 7), smoke ? 1 : undefined),
  },
  {
    name: 'photo-ingest',
    measures: 'Photo ingest: reading shoot photos against decoding them with sharp alone, one at a time',
    machineOnly: true,
    run: async ({ smoke }) =>
      (await import('./photo-ingest')).measurePhotoIngest(
        smoke
          ? { width: 1600, height: 1067, cards: 1, portraits: 1, rounds: 1 }
          : { width: 6000, height: 4000, cards: 3, portraits: 9, rounds: 3 },
      ),
  },
  {
    name: 'face-framing',
    measures:
      "Faces on a 24 MP photo: describeFaces's search in one pass against the service's path with its second pass",
    machineOnly: true,
    run: async ({ smoke }) => (await import('./face-framing')).measureFaceFraming(smoke ? 1 : 5),
  },
  {
    name: 'load-aws-like',
    measures:
      "Load with AWS-like DynamoDB latency (the goal's measure): the functions in process against the same DynamoDB work alone (goal ≤ 1.3x)",
    awsLike: true,
    run: async ({ smoke }, { api, counter }) => (await import('./load')).measureLoad(api, counter, loadSize(smoke)),
  },
  {
    name: 'announcement-burst',
    measures:
      'The announcement burst: check-ins within a minute, 80 % to one day of capacity 600, against a DynamoDB that conflicts like the real one; then through the stack edge, beside another tenant and a flooder',
    awsLike: true,
    run: async ({ smoke, participants }, { proxyStats }) =>
      (await import('./announcement-burst')).measureAnnouncementBursts(
        participants ? [participants] : smoke ? [50] : [1_000, 3_000],
        smoke ? 5 : 60,
        proxyStats!,
        smoke
          ? { participants: 50, addresses: 10, seconds: 6, steadyPerSecond: 5, flooderPerSecond: 200, paidCheckins: 10 }
          : {
              participants: 3_000,
              addresses: 600,
              seconds: 60,
              steadyPerSecond: 5,
              flooderPerSecond: 200,
              paidCheckins: 200,
            },
      ),
  },
  {
    name: 'scale',
    measures:
      'Scale: every request path (DynamoDB calls and waves against their floors, reads, latency) and the background work at galleries of growing size (goal: items read ≤ 1.05x, latency ≤ 1.2x, time per item ≤ 1.3x)',
    // --participants N: the largest gallery instead of 10,000 (with one of 100).
    run: async ({ smoke, participants }, { api, counter }) =>
      (await import('./scale')).measureScale(
        api.baseUrl,
        counter,
        smoke
          ? {
              sizes: [20, 100],
              iterations: 1,
              personsPages: [10],
              largeImportRows: 50,
              background: true,
              ingestSamples: 2,
            }
          : {
              sizes: participants ? [100, participants] : [100, 1_000, 10_000],
              iterations: 5,
              personsPages: [undefined, 50],
              largeImportRows: 500,
              background: true,
              ingestSamples: 20,
            },
      ),
  },
  {
    name: 'face-ingest',
    measures: 'Photo ingest with and without the second opinion from faces, against the face model alone (goal ≤ 1.3x)',
    run: async ({ smoke }, { api, counter }) =>
      (await import('./face-ingest')).measureFaceIngest(api.tenant, counter, smoke ? 2 : 12),
  },
  {
    name: 'import-comparison',
    measures: 'Import of persons through the API against the SDK alone (goal ≤ 1.5x)',
    run: async ({ smoke }, { api }) =>
      (await import('./import-comparison')).compareImports(
        api,
        smoke ? { rows: 20, iterations: 1 } : { rows: 500, iterations: 5 },
      ),
  },
  {
    name: 'load',
    measures: 'Load on DynamoDB Local as it is: the functions in process against the same DynamoDB work alone',
    run: async ({ smoke }, { api, counter }) => (await import('./load')).measureLoad(api, counter, loadSize(smoke)),
  },
  {
    name: 'abuse',
    measures:
      "Abuse: one client floods a gallery's check-in at 10x its budget beside well-behaved clients, without then with the flood",
    run: async ({ smoke }, { api }) =>
      (await import('./abuse')).measureAbuse(
        api.baseUrl,
        smoke ? 3 : 60,
        // A budget a slow machine's short flood still exceeds tenfold.
        smoke ? { limit: 5, windowMs: 60_000 } : undefined,
      ),
  },
  {
    name: 'lookup-abuse',
    measures: 'Abuse: a distributed guesser of photo lookups beside a participant (simulated clock, default budgets)',
    run: async ({ smoke }) =>
      (await import('./abuse')).measureLookupAbuse(smoke ? { networks: 4, hours: 0.5 } : { networks: 48, hours: 3 }),
  },
  {
    name: 'checkin-page',
    measures: 'Check-in page (Lighthouse at mobile settings, median of runs): scores, metrics and the files it loads',
    run: async ({ smoke }, { api }) =>
      (await import('./checkin-page')).measureCheckinPage({
        pageUrl: `${api.baseUrl.replace(/\/v1$/, '')}/checkin/${api.demo.galleryToken}`,
        runs: smoke ? 1 : 3,
      }),
  },
  {
    name: 'hr-export',
    measures:
      "HR export: the whole build at two gallery sizes against sharp's crop and encode alone (goal ≤ 1.3x, memory flat)",
    run: async ({ smoke }, { services }) =>
      (await import('./hr-export')).measureHrExport(
        smoke
          ? { persons: [2, 4], width: 400, height: 300, distinctPhotos: 2, size: 64, rounds: 1 }
          : { persons: [100, 500], width: 3000, height: 2000, distinctPhotos: 8, size: 648, rounds: 3 },
        [services.dynamoDb.pid],
      ),
  },
  {
    name: 'studio-queue',
    measures:
      'Studio console: the first screen of a large review queue in Chromium, against the same thumbnails as static files',
    run: async ({ smoke }) =>
      (await import('./studio-queue')).measureStudioQueue(
        smoke
          ? { photos: 24, photosWithImages: 24, runs: 1, photoWidth: 800, photoHeight: 533 }
          : { photos: 5000, photosWithImages: 200, runs: 3, photoWidth: 2400, photoHeight: 1600 },
      ),
  },
  // Last, so that no other figure shares the machine with the event pipeline it starts (which first reads the whole stream).
  {
    name: 'webhook-delivery',
    measures:
      'Webhook delivery: the check-in load without and with a subscription, commit to verified arrival, then an import',
    run: async ({ smoke }, { api }) =>
      (await import('./webhook-delivery')).measureWebhookDelivery(api, { ...loadSize(smoke), rows: smoke ? 20 : 500 }),
  },
];

/** The load's size: simulated Lambda instances, measured requests per side, API keys the persons reads cycle through. */
function loadSize(smoke: boolean) {
  return smoke ? { connections: 2, requests: 20, keys: 4 } : { connections: 10, requests: 2000, keys: 120 };
}
