import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as postGroupShoot } from '../../functions/checkin/post-group-shoot';
import { lambdaContext, publicPostEvent } from '../local/api-gateway-event';
import type { RealisticDynamoDbStats } from '../local/realistic-dynamodb/proxy';
import { addShootingDay, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { listPersons } from '#lib/persons/store/persons';
import { createTenant } from '#lib/tenants/store/tenants';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GALLERY_ITEM, RATE_LIMIT_KEY_PREFIX, keys } from '#lib/platform/table/keys';
import { db, tableName } from '#lib/platform/table/client';
import { queryAll } from '#lib/platform/table/queries';
import { createBenchGallery } from './bench-api';
import { percentile, rounded } from './statistics';

/**
 * The announcement burst (docs/benchmarks.md#the-announcement-burst): a company announces the
 * check-in link and `participants` check in within `seconds`, evenly spread, `hotShare` of them
 * to one day of `hotCapacity`, the rest to a day without a limit. Each participant comes from a
 * network of their own (no per-client budget is involved) and calls the check-in handler in
 * process, as API Gateway would, against a DynamoDB that conflicts like the real one
 * (scripts/local/realistic-dynamodb/).
 */
export interface BurstOptions {
  participants: number;
  /**
   * How the hot day counts its spots: `spread` over its counters, as every day made now
   * (lib/galleries/rules/spot-counters.ts), or `single`, on the day's item alone, as a day made
   * before the counters were spread (the design this one replaced, measured side by side).
   */
  counters: 'spread' | 'single';
  seconds: number;
  hotShare: number;
  hotCapacity: number;
}

export interface BurstResult extends BurstOptions {
  admittedHot: number;
  admittedOther: number;
  /** Refused shooting_day_full (the hot day). */
  refusedFull: number;
  /** Any other answer than 200 or shooting_day_full, by error code. */
  failed: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** TransactWriteItems calls per check-in: 1 where no transaction was tried twice. */
  transactionsPerCheckin: number;
  transactionConflicts: number;
  writeConflicts: number;
  throttled: number;
  /** Conflicts and throttles met during the burst, by the kind of item (the day's counter, the gallery's statistics, a rate-limit counter, other). */
  contention: Record<string, { conflicts: number; throttled: number }>;
  /** Persons stored on the hot day beyond its capacity (goal 0). */
  overbooked: number;
  /** The hot day's counter against the persons stored on it (goal equal). */
  hotDayBooked: number;
  hotDayPersons: number;
}

export async function measureAnnouncementBurst(
  options: BurstOptions,
  proxyStats: RealisticDynamoDbStats,
): Promise<BurstResult> {
  const slug = `bench-burst-${randomBytes(3).toString('hex')}`;
  const tenant = await createTenant({ slug, name: 'Bench burst', plan: 'creator' });
  const { token, dayId: otherDayId } = await createBenchGallery(tenant.tenantId, 'Bench burst');
  const hotDay = await addShootingDay(tenant.tenantId, token, {
    date: '2030-01-16',
    label: 'Hot day',
    startTime: '09:00',
    endTime: '17:00',
    maxPersons: options.hotCapacity,
  });
  if (options.counters === 'single') {
    await asSingleCounterDay(tenant.tenantId, token, hotDay.id);
    await asSingleCounterDay(tenant.tenantId, token, otherDayId);
  }
  const transactionsBefore = proxyStats.calls.TransactWriteItems ?? 0;
  const conflictsBefore = {
    transaction: proxyStats.transactionConflicts,
    write: proxyStats.writeConflicts,
    throttled: proxyStats.throttled,
  };
  const contendedBefore = structuredClone(proxyStats.contendedItems);

  const latencies: number[] = [];
  const result = { admittedHot: 0, admittedOther: 0, refusedFull: 0, failed: {} as Record<string, number> };
  const checkIn = async (index: number): Promise<void> => {
    const hot = (index * 7919) % 100 < options.hotShare * 100; // spread the hot day's share evenly over the burst
    const body = {
      action: 'submitCheckin',
      token,
      name: `Burst Participant ${index}`,
      email: `burst-${index}@example.com`,
      shootingDayId: hot ? hotDay.id : otherDayId,
    };
    const sourceIp = `10.${Math.floor(index / 250) % 256}.${index % 250}.7`;
    const startedAt = performance.now();
    const event = publicPostEvent(
      { routeKey: 'POST /group-shoot', path: '/group-shoot' },
      { 'x-tenant-slug': slug },
      sourceIp,
      body,
      Date.now(),
    );
    const answer = (await postGroupShoot(event as any, lambdaContext('burst'))) as APIGatewayProxyStructuredResultV2;
    latencies.push(performance.now() - startedAt);
    const parsed = JSON.parse(String(answer.body)) as { error?: string };
    if (answer.statusCode === 200 || answer.statusCode === 201) {
      if (hot) result.admittedHot += 1;
      else result.admittedOther += 1;
    } else if (parsed.error === 'shooting_day_full') result.refusedFull += 1;
    else
      result.failed[`${answer.statusCode} ${parsed.error}`] =
        (result.failed[`${answer.statusCode} ${parsed.error}`] ?? 0) + 1;
  };

  const spacingMs = (options.seconds * 1000) / options.participants;
  const started = performance.now();
  const running: Promise<void>[] = [];
  for (let index = 0; index < options.participants; index += 1) {
    const wait = started + index * spacingMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(checkIn(index));
  }
  await Promise.all(running);

  const scope = { tenantId: tenant.tenantId, token };
  let hotDayPersons = 0;
  let afterPersonId: string | undefined;
  do {
    const page = await listPersons(scope, { limit: 100, afterPersonId });
    hotDayPersons += page.persons.filter((person) => person.shootingDayId === hotDay.id).length;
    afterPersonId = page.lastPersonId;
  } while (afterPersonId);
  const hotDayBooked =
    (await getGalleryConfiguration(tenant.tenantId, token))?.shootingDays.find((day) => day.id === hotDay.id)?.booked ??
    0;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    ...options,
    ...result,
    p50Ms: rounded(percentile(sorted, 50)),
    p99Ms: rounded(percentile(sorted, 99)),
    maxMs: rounded(sorted.at(-1) ?? 0),
    transactionsPerCheckin: rounded(
      ((proxyStats.calls.TransactWriteItems ?? 0) - transactionsBefore) / options.participants,
    ),
    transactionConflicts: proxyStats.transactionConflicts - conflictsBefore.transaction,
    writeConflicts: proxyStats.writeConflicts - conflictsBefore.write,
    throttled: proxyStats.throttled - conflictsBefore.throttled,
    contention: contentionByKind(proxyStats.contendedItems, contendedBefore),
    overbooked: Math.max(0, hotDayPersons - options.hotCapacity),
    hotDayBooked,
    hotDayPersons,
  };
}

/** Makes a day count its spots on its own item alone, as a day made before the counters were spread did. */
async function asSingleCounterDay(tenantId: string, token: string, dayId: string): Promise<void> {
  const dayKey = keys.shootingDay(tenantId, token, dayId);
  const shards = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :shards)',
    ExpressionAttributeValues: { ':pk': dayKey.pk, ':shards': `${dayKey.sk}${GALLERY_ITEM.daySpotShard}` },
  });
  await Promise.all(
    shards.map((shard) => db.send(new DeleteCommand({ TableName: tableName, Key: { pk: shard.pk, sk: shard.sk } }))),
  );
  await db.send(
    new UpdateCommand({ TableName: tableName, Key: dayKey, UpdateExpression: 'REMOVE spotShards, spotShare' }),
  );
}

/** What kind of item an item ID of the proxy names, by its sort key. */
function itemKind(itemId: string): string {
  if (itemId.includes(GALLERY_ITEM.daySpotShard)) return 'day spot shard';
  if (itemId.includes(`"${GALLERY_ITEM.shootingDay}`)) return 'day item';
  if (itemId.includes(`"${GALLERY_ITEM.stats}"`)) return 'gallery statistics';
  if (itemId.includes(`"${RATE_LIMIT_KEY_PREFIX}`)) return 'rate-limit counter';
  return 'other';
}

function contentionByKind(
  now: RealisticDynamoDbStats['contendedItems'],
  before: RealisticDynamoDbStats['contendedItems'],
): BurstResult['contention'] {
  const byKind: BurstResult['contention'] = {};
  for (const [itemId, counts] of Object.entries(now)) {
    const earlier = before[itemId] ?? { conflicts: 0, throttled: 0 };
    if (counts.conflicts === earlier.conflicts && counts.throttled === earlier.throttled) continue;
    const kind = (byKind[itemKind(itemId)] ??= { conflicts: 0, throttled: 0 });
    kind.conflicts += counts.conflicts - earlier.conflicts;
    kind.throttled += counts.throttled - earlier.throttled;
  }
  return byKind;
}

export function formatAnnouncementBurst(results: BurstResult[]): string {
  const header = `### The announcement burst: check-ins within ${results[0]?.seconds ?? 60} s, ${results[0]?.hotShare ? results[0].hotShare * 100 : 80} % to one day of capacity ${results[0]?.hotCapacity ?? 600}, against a DynamoDB that conflicts like the real one`;
  const rows = results.map((r) =>
    [
      r.counters === 'spread' ? 'spread over counters' : 'single counter',
      r.participants,
      r.admittedHot,
      r.admittedOther,
      r.refusedFull,
      Object.entries(r.failed)
        .map(([code, count]) => `${count} × ${code}`)
        .join(', ') || '0',
      r.p50Ms,
      r.p99Ms,
      r.maxMs,
      r.transactionsPerCheckin,
      r.transactionConflicts,
      r.writeConflicts,
      r.throttled,
      Object.entries(r.contention)
        .map(([kind, counts]) => `${kind}: ${counts.conflicts} conflicts, ${counts.throttled} throttled`)
        .join('; ') || 'none',
      `${r.hotDayBooked} / ${r.hotDayPersons}`,
      r.overbooked,
    ].join(' | '),
  );
  return [
    header,
    '',
    '| Hot day counted on | Participants | Admitted (hot day) | Admitted (other day) | Refused shooting_day_full | Failed (goal 0) | p50 ms | p99 ms | max ms | Transactions per check-in | Transaction conflicts | Write conflicts | Throttled | Contended items | Hot day booked / persons | Overbooked (goal 0) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
