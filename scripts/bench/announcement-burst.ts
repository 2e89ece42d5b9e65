import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RealisticDynamoDbStats } from '../local/realistic-dynamodb/proxy';
import { addPackage, addShootingDay, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { updateTenantSettings } from '#lib/tenants/store/tenants';
import { GALLERY_ITEM, galleryKeys } from '#lib/galleries/store/keys';
import { personKeys } from '#lib/persons/store/keys';
import { db, tableName } from '#lib/platform/table/client';
import { queryAll, queryPartition } from '#lib/platform/table/queries';
import { checkinBody, createBenchStudio, postGroupShootInProcess } from './bench-api';
import { percentile, rounded, startAtRate } from './statistics';

export type BurstResult = Awaited<ReturnType<typeof measureAnnouncementBurst>>;
export type EdgeBurstResult = Awaited<ReturnType<typeof measureAnnouncementThroughEdge>>;

/**
 * The announcement burst at each size, with the hot day's spots `spread` over its counters
 * (lib/galleries/rules/spot-counters.ts) and on its item alone (`single`, the design before);
 * then the real announcement through the local front with the stack's edge (`throughEdge`).
 * A small burst first, not reported, warms the modules and connections for both.
 */
export async function measureAnnouncementBursts(
  crowds: number[],
  seconds: number,
  proxyStats: RealisticDynamoDbStats,
  edgeSize: EdgeBurstSize,
): Promise<{ designs: BurstResult[]; throughEdge: EdgeBurstResult[] }> {
  await measureAnnouncementBurst({ participants: 20, seconds: 1, counters: 'spread' }, proxyStats);
  const designs = [];
  for (const participants of crowds) {
    for (const counters of ['spread', 'single'] as const)
      designs.push(await measureAnnouncementBurst({ participants, seconds, counters }, proxyStats));
  }
  return { designs, throughEdge: [await measureAnnouncementThroughEdge(edgeSize, proxyStats)] };
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

/** The real announcement's size (docs/benchmarks/announcement-burst.md#through-the-edge). */
export interface EdgeBurstSize {
  /** Tenant A's participants, from `addresses` client addresses, within `seconds`, 80 % to one day of capacity 600. */
  participants: number;
  addresses: number;
  seconds: number;
  /** Tenant B's steady check-ins a second, alone first, then beside A. */
  steadyPerSecond: number;
  /** One address flooding A's check-in. */
  flooderPerSecond: number;
  /** Paid check-ins of tenant C, within `seconds`, after the burst. */
  paidCheckins: number;
}

/**
 * Who answered a request: `admitted`, the edge (`edgeRoute`, `edgeAddress`), the application's
 * limits (`perClient`, `perTenant`, `stripeLimit`), the day (`dayFull`), or anything else as its
 * status and error.
 */
type Answer = string;

function answerOf(status: number, body: { error?: string; message?: string }): Answer {
  if (status === 200 || status === 201) return 'admitted';
  if (status === 409 && body.error === 'shooting_day_full') return 'dayFull';
  if (status !== 429) return `${status} ${body.error}`;
  if (body.error === undefined) return 'edgeRoute';
  const message = body.message ?? '';
  if (message.startsWith('Too many requests from this address')) return 'edgeAddress';
  if (message.startsWith('Rate limit of')) return 'perClient';
  if (message.startsWith('Many participants are paying')) return 'stripeLimit';
  return message.includes('very busy') ? 'perTenant' : `429 ${message}`;
}

/** A request's answer, how long it took, and when it started (ms from the burst's start). */
interface TimedAnswer {
  ms: number;
  kind: Answer;
  startedAtMs: number;
}

/** A request slower than this counts in `slowBySecond`. */
const SLOW_MS = 1_000;

/** The answers of one sender, how long each took, and in which second of the burst the slow ones started. */
function tally() {
  const latencies: number[] = [];
  const answers: Record<Answer, number> = {};
  const slowBySecond: Record<number, number> = {};
  return {
    record(answer: TimedAnswer) {
      latencies.push(answer.ms);
      answers[answer.kind] = (answers[answer.kind] ?? 0) + 1;
      const second = Math.floor(answer.startedAtMs / 1000);
      if (answer.ms > SLOW_MS) slowBySecond[second] = (slowBySecond[second] ?? 0) + 1;
    },
    figures: (): Record<Answer, number> & { requests: number; p50Ms: number; p99Ms: number } => ({
      requests: latencies.length,
      ...answers,
      p50Ms: rounded(percentile(latencies, 50)),
      p99Ms: rounded(percentile(latencies, 99)),
    }),
    /** Requests slower than 1 s, by the second of the burst they started in. */
    slowBySecond: () => ({ ...slowBySecond }),
  };
}

/**
 * The announcement as the deployed stack meets it, through the local front with the default
 * deployment's edge (scripts/local/local-edge.ts) and the DynamoDB with AWS-like latency: tenant A's
 * participants from a few addresses each, tenant B's steady check-ins (alone first, for its p99
 * without A), one address flooding A's check-in at once; then tenant C's paid check-ins through the
 * Stripe limit (the local Stripe emulator). Every answer is counted by the layer that gave it.
 */
async function measureAnnouncementThroughEdge(size: EdgeBurstSize, proxyStats: RealisticDynamoDbStats) {
  const { startLocalApi, LOCAL_CLIENT_ADDRESS_HEADER } = await import('../local/api-server');
  const { startStripeEmulator } = await import('../local/stripe-emulator');
  const [api, stripe] = await Promise.all([startLocalApi({ port: 0, edge: true }), startStripeEmulator()]);
  Object.assign(process.env, { STRIPE_SECRET_KEY: 'sk_test_groupshoot', STRIPE_API_BASE: stripe.url });
  process.env.CHECKIN_PAGE_URL ??= 'https://checkin.example.com/';
  let burstStartedAt = performance.now();
  const post = async (slug: string, address: string, body: Record<string, unknown>): Promise<TimedAnswer> => {
    const startedAt = performance.now();
    const response = await fetch(`${api.url}/group-shoot`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Tenant-Slug': slug, [LOCAL_CLIENT_ADDRESS_HEADER]: address },
      body: JSON.stringify(body),
    });
    const kind = answerOf(response.status, (await response.json()) as { error?: string; message?: string });
    return { ms: performance.now() - startedAt, kind, startedAtMs: startedAt - burstStartedAt };
  };
  try {
    const [a, b, c] = await Promise.all([
      createBenchStudio('edge-a'),
      createBenchStudio('edge-b'),
      createBenchStudio('edge-c'),
    ]);
    const hotCapacity = 600;
    const hotDay = await addShootingDay(a.tenantId, a.token, {
      date: '2030-01-16',
      label: 'Hot day',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: hotCapacity,
    });
    const steady = (into: ReturnType<typeof tally>, label: string) =>
      startAtRate(size.seconds * size.steadyPerSecond, size.steadyPerSecond, async (index) =>
        into.record(await post(b.slug, `172.16.${index % 250}.9`, checkinBody(b.token, b.dayId, `${label}-${index}`))),
      );
    const tenantBAlone = tally();
    await steady(tenantBAlone, 'alone');
    burstStartedAt = performance.now();
    const before = {
      throttled: proxyStats.throttled,
      conflicts: proxyStats.transactionConflicts + proxyStats.writeConflicts,
    };

    const [tenantA, tenantB, flooder] = [tally(), tally(), tally()];
    const participant = async (index: number) => {
      const hot = (index * 7919) % 100 < 80;
      const address = `10.${Math.floor((index % size.addresses) / 250)}.${(index % size.addresses) % 250}.20`;
      tenantA.record(await post(a.slug, address, checkinBody(a.token, hot ? hotDay.id : a.dayId, `edge-${index}`)));
    };
    await Promise.all([
      startAtRate(size.participants, size.participants / size.seconds, participant),
      steady(tenantB, 'beside'),
      startAtRate(size.flooderPerSecond * size.seconds, size.flooderPerSecond, async (index) =>
        flooder.record(await post(a.slug, '198.51.100.200', checkinBody(a.token, a.dayId, `flood-${index}`))),
      ),
    ]);
    const proxyDuringBurst = {
      throttled: proxyStats.throttled - before.throttled,
      conflicts: proxyStats.transactionConflicts + proxyStats.writeConflicts - before.conflicts,
    };
    const hotDayPersons = (await queryPartition(personKeys.personsOfGallery(a.tenantId, a.token))).filter(
      (person) => person.shootingDayId === hotDay.id,
    ).length;
    const configuration = await getGalleryConfiguration(a.tenantId, a.token);

    await updateTenantSettings(c.slug, {
      paymentAccessApproved: true,
      stripeAccountId: `acct_${c.slug.replace(/-/g, '')}`,
    });
    const paidPackage = await addPackage(c.tenantId, c.token, {
      name: 'Paid',
      description: '',
      price: 2900,
      currency: 'eur',
      position: 1,
    });
    const paying = tally();
    await startAtRate(size.paidCheckins, size.paidCheckins / size.seconds, async (index) =>
      paying.record(
        await post(c.slug, `192.168.${index % 250}.7`, {
          ...checkinBody(c.token, c.dayId, `paid-${index}`),
          selectedPackageId: paidPackage.id,
          termsAccepted: true,
        }),
      ),
    );
    const bAlone = tenantBAlone.figures();
    const bBeside = tenantB.figures();
    return {
      ...size,
      tenantA: tenantA.figures(),
      tenantBAlone: bAlone,
      tenantB: bBeside,
      /** Tenant B's p99 beside the announcement and the flood over its p99 alone (goal ≤ 1.3). */
      tenantBP99Ratio: rounded(bBeside.p99Ms / bAlone.p99Ms),
      flooder: flooder.figures(),
      /** What the realistic DynamoDB refused during the burst: writes throttled for their partition, and conflicts. */
      proxyDuringBurst,
      /** Requests slower than 1 s, by the second of the burst (from A's first) they started in. */
      slowBySecond: {
        tenantA: tenantA.slowBySecond(),
        tenantB: tenantB.slowBySecond(),
        flooder: flooder.slowBySecond(),
      },
      /** Persons on the hot day beyond its capacity (goal 0); its counter against the persons stored on it (goal equal). */
      overbooked: Math.max(0, hotDayPersons - hotCapacity),
      hotDayBooked: configuration?.shootingDays.find((day) => day.id === hotDay.id)?.booked ?? 0,
      hotDayPersons,
      paid: paying.figures(),
      /** Checkout Sessions the Stripe emulator opened (goal: one per admitted paid check-in). */
      checkoutSessions: stripe.sessions.size,
    };
  } finally {
    await Promise.all([api.close(), stripe.close()]);
  }
}
