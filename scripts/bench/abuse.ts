import { randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { personKeys } from '#lib/persons/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import { createTenant } from '#lib/tenants/store/tenants';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import { createBenchGallery } from './bench-api';
import { percentile, rounded } from './statistics';

type Studio = Awaited<ReturnType<typeof createStudio>>;

/**
 * One client floods POST /group-shoot of gallery A at ten times its check-in budget for
 * `seconds` (autocannon at a fixed overall rate on 10 connections, in a worker thread) while a
 * well-behaved client checks in to another tenant's gallery (one a second) and an integration
 * reads persons of that tenant (one every two seconds); the same well-behaved clients run first
 * without the flood, on a gallery of a third tenant. Refused requests must write nothing: the
 * writes naming tenant A are counted in the shared document client the API uses.
 */
export async function measureAbuse(
  client: DynamoDBDocumentClient,
  options: {
    baseUrl: string;
    seconds: number;
    /** The flooded gallery's check-in budget; the default when absent. */ flooderPolicy?: RateLimitPolicy;
  },
) {
  const [flooded, calm, calmAlone] = await Promise.all(['flooded', 'calm', 'calm-alone'].map(createStudio));
  const withoutFlood = await runCalmClients(options.baseUrl, calmAlone!, options.seconds);
  const policy = options.flooderPolicy ?? DEFAULT_PUBLIC_LIMITS.checkins;
  if (options.flooderPolicy)
    await updateGallerySettings(flooded!.tenantId, flooded!.token, {
      publicLimits: { checkins: options.flooderPolicy },
    });
  // The default burst plus what refills during the flood.
  const flooderBudget = policy.limit + Math.floor((options.seconds * 1000) / (policy.windowMs / policy.limit));
  const writes = { count: 0 };
  const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (WRITES.has(context.commandName ?? '') && JSON.stringify(args.input).includes(flooded!.tenantId))
        writes.count += 1;
      return result;
    },
    { step: 'initialize', name: 'benchWriteCounter' },
  );
  const flood = autocannon({
    url: new URL(options.baseUrl).origin,
    connections: 10,
    duration: options.seconds,
    overallRate: Math.ceil((flooderBudget * 10) / options.seconds),
    requests: [
      {
        method: 'POST',
        path: '/v1/group-shoot',
        headers: { 'X-Tenant-Slug': flooded!.slug, 'Content-Type': 'application/json' },
        body: checkinBody(flooded!, '[<id>]'),
      },
    ],
    idReplacement: true,
    workers: 1,
    timeout: 30,
  });
  const [floodResult, withFlood] = await Promise.all([flood, runCalmClients(options.baseUrl, calm!, options.seconds)]);
  client.middlewareStack.remove('benchWriteCounter');
  const admitted = floodResult['2xx'];
  return {
    durationSeconds: options.seconds,
    flooderBudget,
    flooderRequests: floodResult.requests.total,
    flooderAdmitted: admitted,
    /** Persons the flood created in its gallery (spots taken; goal ≤ its budget). */
    flooderSpots: (await queryPartition(personKeys.personsOfGallery(flooded!.tenantId, flooded!.token))).length,
    /** Writes naming tenant A beyond the three each admitted check-in makes (rate-limit counter, transaction, statistics): goal 0. */
    writesByRefused: writes.count - 3 * admitted,
    calm: { withoutFlood, withFlood },
    /** The well-behaved clients' p99 with the flood over without (goal ≤ 1.5). */
    p99Ratio: rounded(withFlood.p99Milliseconds / withoutFlood.p99Milliseconds),
  };
}

async function createStudio(label: string) {
  const slug = `bench-${label}-${randomBytes(3).toString('hex')}`;
  const tenant = await createTenant({ slug, name: `Bench ${label}`, plan: 'creator' });
  const { token, dayId } = await createBenchGallery(tenant.tenantId, `Bench ${label}`);
  const { secret } = await createApiKey(tenant.tenantId, 'bench integration');
  return { tenantId: tenant.tenantId, slug, token, dayId, apiKey: secret };
}

function checkinBody(studio: Studio, id: string): string {
  const { token, dayId: shootingDayId } = studio;
  return JSON.stringify({
    action: 'submitCheckin',
    token,
    name: `Participant ${id}`,
    email: `p-${id}@example.com`,
    shootingDayId,
  });
}

/** The well-behaved clients for `seconds`: one check-in a second on `calm`, one persons read every two seconds. */
async function runCalmClients(baseUrl: string, calm: Studio, seconds: number) {
  const latencies: number[] = [];
  let refused = 0;
  const send = async (delayMs: number, path: string, init: RequestInit) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const startedAt = performance.now();
    const response = await fetch(`${baseUrl}${path}`, init);
    await response.text();
    latencies.push(performance.now() - startedAt);
    if (response.status !== 200) refused += 1;
  };
  const headers = { 'X-Tenant-Slug': calm.slug };
  await Promise.all(
    Array.from({ length: seconds }, (_, second) => [
      send(second * 1000, '/group-shoot', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: checkinBody(calm, `calm-${second}-${randomBytes(3).toString('hex')}`),
      }),
      second % 2 === 1
        ? Promise.resolve()
        : send(second * 1000 + 500, `/groupshoot/${calm.token}/persons?limit=10`, {
            headers: { ...headers, Authorization: `Bearer ${calm.apiKey}` },
          }),
    ]).flat(),
  );
  const [p50Milliseconds, p99Milliseconds] = [50, 99].map((p) => rounded(percentile(latencies, p)));
  return { requests: latencies.length, refused, p50Milliseconds: p50Milliseconds!, p99Milliseconds: p99Milliseconds! };
}
