import { randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { keys } from '#lib/platform/table/keys';
import { queryPartition } from '#lib/platform/table/queries';
import { createTenant } from '#lib/tenants/store/tenants';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import { createBenchGallery } from './bench-api';
import { percentile, rounded } from './statistics';

/** What the well-behaved clients saw in one phase. */
export interface CalmFigures {
  requests: number;
  refused: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
}

export interface AbuseResult {
  durationSeconds: number;
  /** The flooder's budget over the flood: the default burst plus what refills meanwhile. */
  flooderBudget: number;
  flooderRequests: number;
  flooderAdmitted: number;
  /** Persons the flood created in its gallery (spots taken). */
  flooderSpots: number;
  /** Successful DynamoDB writes on the flooded tenant beyond the three each admitted check-in makes. */
  writesByRefused: number;
  /** The well-behaved check-in client (another tenant) and integration (API key), without and with the flood. */
  calm: { withoutFlood: CalmFigures; withFlood: CalmFigures };
  /** p99 with the flood over p99 without (goal ≤ 1.5). */
  p99Ratio: number;
}

interface Studio {
  tenantId: string;
  slug: string;
  token: string;
  dayId: string;
  apiKey: string;
}

async function createStudio(label: string): Promise<Studio> {
  const slug = `bench-${label}-${randomBytes(3).toString('hex')}`;
  const tenant = await createTenant({ slug, name: `Bench ${label}`, plan: 'creator' });
  const { token, dayId } = await createBenchGallery(tenant.tenantId, `Bench ${label}`);
  const { secret } = await createApiKey(tenant.tenantId, 'bench integration');
  return { tenantId: tenant.tenantId, slug, token, dayId, apiKey: secret };
}

const checkinBody = (studio: Studio, id: string) =>
  JSON.stringify({
    action: 'submitCheckin',
    token: studio.token,
    name: `Participant ${id}`,
    email: `p-${id}@example.com`,
    shootingDayId: studio.dayId,
  });

/**
 * Counts successful DynamoDB writes whose keys name a tenant, in the shared document client the
 * API uses (it runs in this process): a refused request must write nothing.
 */
function countWritesOf(client: DynamoDBDocumentClient, tenantId: string): { readonly count: number; stop(): void } {
  const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);
  const state = { count: 0, stop: () => client.middlewareStack.remove('benchWriteCounter') };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (WRITES.has(context.commandName ?? '') && JSON.stringify(args.input).includes(tenantId)) state.count += 1;
      return result;
    },
    { step: 'initialize', name: 'benchWriteCounter' },
  );
  return state;
}

/** The well-behaved clients for `seconds`: one check-in a second on `calm`, one persons read every two seconds. */
async function runCalmClients(baseUrl: string, calm: Studio, seconds: number): Promise<CalmFigures> {
  const latencies: number[] = [];
  let refused = 0;
  const send = async (path: string, init: RequestInit) => {
    const startedAt = performance.now();
    const response = await fetch(`${baseUrl}${path}`, init);
    await response.text();
    latencies.push(performance.now() - startedAt);
    if (response.status !== 200) refused += 1;
  };
  const ticks = Array.from({ length: seconds }, (_, second) => second);
  await Promise.all(
    ticks.flatMap((second) => [
      delay(second * 1000).then(() =>
        send('/group-shoot', {
          method: 'POST',
          headers: { 'X-Tenant-Slug': calm.slug, 'Content-Type': 'application/json' },
          body: checkinBody(calm, `calm-${second}-${randomBytes(3).toString('hex')}`),
        }),
      ),
      ...(second % 2 === 0
        ? [
            delay(second * 1000 + 500).then(() =>
              send(`/groupshoot/${calm.token}/persons?limit=10`, {
                headers: { 'X-Tenant-Slug': calm.slug, Authorization: `Bearer ${calm.apiKey}` },
              }),
            ),
          ]
        : []),
    ]),
  );
  return {
    requests: latencies.length,
    refused,
    p50Milliseconds: rounded(percentile(latencies, 50)),
    p99Milliseconds: rounded(percentile(latencies, 99)),
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One client floods POST /group-shoot of gallery A at ten times its check-in budget while a
 * well-behaved client checks in to another tenant's gallery and an integration reads persons;
 * the same well-behaved clients run once without the flood first, side by side in this run.
 */
export async function measureAbuse(
  client: DynamoDBDocumentClient,
  options: {
    baseUrl: string;
    seconds: number;
    /** The flooded gallery's check-in budget; the default when absent. */ flooderPolicy?: RateLimitPolicy;
  },
): Promise<AbuseResult> {
  const [flooded, calm, calmAlone] = await Promise.all([
    createStudio('flooded'),
    createStudio('calm'),
    createStudio('calm-alone'),
  ]);
  const withoutFlood = await runCalmClients(options.baseUrl, calmAlone, options.seconds);

  const policy = options.flooderPolicy ?? DEFAULT_PUBLIC_LIMITS.checkins;
  if (options.flooderPolicy)
    await updateGallerySettings(flooded.tenantId, flooded.token, { publicLimits: { checkins: options.flooderPolicy } });
  const flooderBudget = policy.limit + Math.floor((options.seconds * 1000) / (policy.windowMs / policy.limit));
  const writes = countWritesOf(client, flooded.tenantId);
  const flood = autocannon({
    url: new URL(options.baseUrl).origin,
    connections: 10,
    duration: options.seconds,
    overallRate: Math.ceil((flooderBudget * 10) / options.seconds),
    requests: [
      {
        method: 'POST',
        path: '/v1/group-shoot',
        headers: { 'X-Tenant-Slug': flooded.slug, 'Content-Type': 'application/json' },
        body: checkinBody(flooded, '[<id>]'),
      },
    ],
    idReplacement: true,
    workers: 1,
    timeout: 30,
  });
  const [floodResult, withFlood] = await Promise.all([flood, runCalmClients(options.baseUrl, calm, options.seconds)]);
  writes.stop();

  const flooderSpots = (await queryPartition(keys.personsOfGallery(flooded.tenantId, flooded.token))).length;
  const admitted = floodResult['2xx'];
  return {
    durationSeconds: options.seconds,
    flooderBudget,
    flooderRequests: floodResult.requests.total,
    flooderAdmitted: admitted,
    flooderSpots,
    // Each admitted check-in writes its rate-limit counter, its transaction and the statistics.
    writesByRefused: writes.count - 3 * admitted,
    calm: { withoutFlood, withFlood },
    p99Ratio: rounded(withFlood.p99Milliseconds / withoutFlood.p99Milliseconds),
  };
}
