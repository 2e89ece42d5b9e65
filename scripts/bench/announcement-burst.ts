import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RealisticDynamoDbStats } from '../local/realistic-dynamodb/proxy';
import { addShootingDay, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { GALLERY_ITEM, galleryKeys } from '#lib/galleries/store/keys';
import { personKeys } from '#lib/persons/store/keys';
import { db, tableName } from '#lib/platform/table/client';
import { queryAll, queryPartition } from '#lib/platform/table/queries';
import { checkinBody, createBenchStudio, postGroupShootInProcess } from './bench-api';
import { percentile, rounded, startAtRate } from './statistics';

export type BurstResult = Awaited<ReturnType<typeof measureAnnouncementBurst>>;

/**
 * The announcement burst at each size, with the hot day's spots `spread` over its counters
 * (lib/galleries/rules/spot-counters.ts) and on its item alone (`single`, the design before).
 * A small burst first, not reported, warms the modules and connections for both.
 */
export async function measureAnnouncementBursts(
  crowds: number[],
  seconds: number,
  proxyStats: RealisticDynamoDbStats,
): Promise<BurstResult[]> {
  await measureAnnouncementBurst({ participants: 20, seconds: 1, counters: 'spread' }, proxyStats);
  const results = [];
  for (const participants of crowds) {
    for (const counters of ['spread', 'single'] as const)
      results.push(await measureAnnouncementBurst({ participants, seconds, counters }, proxyStats));
  }
  return results;
}

/**
 * `participants` check in within `seconds`, 80 % to one day of capacity 600, each from a network
 * of their own, through the handler in process (docs/benchmarks/announcement-burst.md); the
 * realistic DynamoDB's counts give the conflicts and throttles.
 */
async function measureAnnouncementBurst(
  options: { participants: number; seconds: number; counters: 'spread' | 'single' },
  proxyStats: RealisticDynamoDbStats,
) {
  const [hotShare, hotCapacity] = [0.8, 600];
  const { tenantId, slug, token, dayId: otherDayId } = await createBenchStudio('burst');
  const hotDay = await addShootingDay(tenantId, token, {
    date: '2030-01-16',
    label: 'Hot day',
    startTime: '09:00',
    endTime: '17:00',
    maxPersons: hotCapacity,
  });
  if (options.counters === 'single') {
    for (const dayId of [hotDay.id, otherDayId]) await asSingleCounterDay(tenantId, token, dayId);
  }
  const proxyCounts = () => ({
    transactions: proxyStats.calls.TransactWriteItems ?? 0,
    transactionConflicts: proxyStats.transactionConflicts,
    writeConflicts: proxyStats.writeConflicts,
    throttled: proxyStats.throttled,
  });
  const before = proxyCounts();
  const latencies: number[] = [];
  const answers = { admittedHot: 0, admittedOther: 0, refusedFull: 0, failed: {} as Record<string, number> };
  const checkIn = async (index: number): Promise<void> => {
    const hot = (index * 7919) % 100 < hotShare * 100; // the hot day's share spread evenly over the burst
    const startedAt = performance.now();
    const sourceIp = `10.${Math.floor(index / 250) % 256}.${index % 250}.7`;
    const body = checkinBody(token, hot ? hotDay.id : otherDayId, `burst-${index}`);
    const answer = await postGroupShootInProcess(slug, sourceIp, body);
    latencies.push(performance.now() - startedAt);
    const { error } = answer.body;
    if (answer.status === 200 || answer.status === 201) answers[hot ? 'admittedHot' : 'admittedOther'] += 1;
    else if (error === 'shooting_day_full') answers.refusedFull += 1;
    else answers.failed[`${answer.status} ${error}`] = (answers.failed[`${answer.status} ${error}`] ?? 0) + 1;
  };
  await startAtRate(options.participants, options.participants / options.seconds, checkIn);

  const persons = await queryPartition(personKeys.personsOfGallery(tenantId, token));
  const hotDayPersons = persons.filter((person) => person.shootingDayId === hotDay.id).length;
  const configuration = await getGalleryConfiguration(tenantId, token);
  const after = proxyCounts();
  return {
    ...options,
    hotShare,
    hotCapacity,
    ...answers,
    p50Ms: rounded(percentile(latencies, 50)),
    p99Ms: rounded(percentile(latencies, 99)),
    maxMs: rounded(Math.max(...latencies)),
    /** TransactWriteItems calls per check-in: 1 where no transaction was tried twice. */
    transactionsPerCheckin: rounded((after.transactions - before.transactions) / options.participants),
    transactionConflicts: after.transactionConflicts - before.transactionConflicts,
    writeConflicts: after.writeConflicts - before.writeConflicts,
    throttled: after.throttled - before.throttled,
    /** Persons stored on the hot day beyond its capacity (goal 0); its counter against the persons stored on it (goal equal). */
    overbooked: Math.max(0, hotDayPersons - hotCapacity),
    hotDayBooked: configuration?.shootingDays.find((day) => day.id === hotDay.id)?.booked ?? 0,
    hotDayPersons,
  };
}

/** Makes a day count its spots on its own item alone, as a day made before the counters were spread did. */
async function asSingleCounterDay(tenantId: string, token: string, dayId: string): Promise<void> {
  const dayKey = galleryKeys.shootingDay(tenantId, token, dayId);
  const shards = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :shards)',
    ExpressionAttributeValues: { ':pk': dayKey.pk, ':shards': `${dayKey.sk}${GALLERY_ITEM.daySpotShard}` },
  });
  for (const shard of shards)
    await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: shard.pk as string, sk: shard.sk as string } }));
  await db.send(
    new UpdateCommand({ TableName: tableName, Key: dayKey, UpdateExpression: 'REMOVE spotShards, spotShare' }),
  );
}
