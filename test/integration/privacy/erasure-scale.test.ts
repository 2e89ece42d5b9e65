import { PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { GSI1 } from '#lib/platform/table/table-definition';
import { queryGsi1 } from '#lib/platform/table/queries';
import { erasePersons, eraseGallery } from '#lib/privacy/erasure';
import { ERASURE_PAGE_SIZE } from '#lib/privacy/gallery-erasure';
import { claimIdempotencyKey, completeIdempotencyKey } from '#lib/idempotency/store/idempotency-records';
import { pointOrdersToParticipants } from '#lib/payments/store/order-pointers';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useLocalApi } from '../../support/local-api';
import { observingCommands } from '../../support/sent-commands';
import { admin } from '../../support/admin';
import { ITEM_PREFIX, galleryPartitionPrefix, keys } from '../../support/table-keys';

const api = useLocalApi();

type Item = Record<string, any>;

interface SentQuery {
  partition: string;
  index?: string;
  limit?: number;
}

/** The Queries sent to DynamoDB while `act` runs (the partition each names), and whether a Scan was. */
async function queriesDuring(act: () => Promise<unknown>): Promise<{ queries: SentQuery[]; scans: number }> {
  const queries: SentQuery[] = [];
  let scans = 0;
  await observingCommands(act, (commandName, input) => {
    if (commandName === 'ScanCommand') scans += 1;
    if (commandName !== 'QueryCommand') return;
    const query = input as { IndexName?: string; Limit?: number; ExpressionAttributeValues: Record<string, unknown> };
    queries.push({
      partition: String(query.ExpressionAttributeValues[':pk']),
      index: query.IndexName,
      limit: query.Limit,
    });
  });
  return { queries, scans };
}

async function importPersons(studio: CheckinStudio, count: number, firstEmployeeNumber = 0) {
  const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: {
      persons: Array.from({ length: count }, (_, index) => ({
        name: `Person ${firstEmployeeNumber + index}`,
        email: `person.${firstEmployeeNumber + index}@example.com`,
        employeeId: `E-${firstEmployeeNumber + index}`,
      })),
    },
  });
  expect(answer.status).toBe(200);
  return answer.body.persons as { personId: string; employeeId: string }[];
}

/** Ended orders of participants who never became persons, as a reservation that expired leaves them. */
async function plantEndedOrders(studio: CheckinStudio, count: number) {
  for (let index = 0; index < count; index += 1) {
    const orderId = `ord_scale${String(index).padStart(4, '0')}`;
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.order(studio.tenant.tenantId, studio.token, orderId),
          orderId,
          tenantId: studio.tenant.tenantId,
          galleryToken: studio.token,
          status: 'expired',
          createdAt: '2026-01-01T00:00:00.000Z',
          person: {
            personId: `per_reserved${index}`,
            name: `Reserved ${index}`,
            email: `reserved.${index}@example.com`,
          },
        },
      }),
    );
  }
}

async function plantIdempotencyRecords(studio: CheckinStudio, personIds: readonly string[]) {
  for (const [index, personId] of personIds.entries()) {
    const scopeHash = `${index.toString(16).padStart(8, '0')}${studio.token}`.padEnd(64, '0');
    await claimIdempotencyKey(scopeHash, 'request', Date.now());
    await completeIdempotencyKey(scopeHash, {
      sealedAnswer: Buffer.from('sealed'),
      gallery: { tenantId: studio.tenant.tenantId, token: studio.token },
      personIds: [personId],
      orderIds: [],
    });
  }
}

async function itemsOfGallery(studio: CheckinStudio): Promise<Item[]> {
  const prefix = galleryPartitionPrefix(studio.tenant.tenantId, studio.token);
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(
      ...(page.Items ?? []).filter(
        (item) => String(item.pk).startsWith(prefix) || String(item[GSI1.partitionKey] ?? '').startsWith(prefix),
      ),
    );
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

describe('erasure at scale', () => {
  it("erases one person without reading the gallery's persons, events or orders", async () => {
    // Prepare
    const studio = await createPayingStudio();
    const persons = await importPersons(studio, 150);
    await plantEndedOrders(studio, 5);
    await pointOrdersToParticipants({ tenantId: studio.tenant.tenantId, token: studio.token });
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const [byId, byEmployeeId] = [persons[17]!, persons[42]!];
    const whole = [
      keys.personsOfGallery(scope.tenantId, scope.token),
      keys.eventsOfGallery(scope.tenantId, scope.token),
      keys.ordersOfGallery(scope.tenantId, scope.token),
    ];
    // Act
    let receipts: Awaited<ReturnType<typeof erasePersons>>[] = [];
    const byKeyAndIndex = await queriesDuring(async () => {
      receipts = [
        await erasePersons(scope, { personId: byId.personId }),
        await erasePersons(scope, { employeeId: byEmployeeId.employeeId }),
      ];
    });
    const byAddress = await queriesDuring(async () => {
      receipts.push(await erasePersons(scope, { email: 'reserved.3@example.com' }));
    });
    // Assess
    expect(receipts.map((receipt) => receipt.persons)).toEqual([[byId.personId], [byEmployeeId.personId], []]);
    expect(receipts.map((receipt) => receipt.events)).toEqual([1, 1, 0]); // person.created
    expect(receipts[2]!.ordersRedacted).toEqual(['ord_scale0003']);
    expect(byKeyAndIndex.scans + byAddress.scans).toBe(0);
    expect(
      byKeyAndIndex.queries.filter((query) => query.index === undefined && whole.includes(query.partition)),
    ).toEqual([]);
    // The address has no index of its own yet: erasure by email reads the persons' addresses (personsWithAddress), nothing else whole.
    expect(byAddress.queries.filter((query) => whole.slice(1).includes(query.partition))).toEqual([]);
    const left = await api.call(`/groupshoot/${studio.token}/persons?limit=500`, { headers: studio.serverHeaders });
    expect(left.body.persons).toHaveLength(148);
  }, 120_000);

  it('erases a gallery larger than a page, a page at a time, and leaves nothing but accounting', async () => {
    // Prepare: more of each than a page holds, none a whole number of pages.
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const persons = await importPersons(studio, 2 * ERASURE_PAGE_SIZE + 37);
    await plantEndedOrders(studio, ERASURE_PAGE_SIZE + 29);
    await pointOrdersToParticipants(scope);
    await plantIdempotencyRecords(
      studio,
      persons.slice(0, ERASURE_PAGE_SIZE + 3).map((person) => person.personId),
    );
    const pagedPartitions = [
      keys.personsOfGallery(scope.tenantId, scope.token),
      keys.eventsOfGallery(scope.tenantId, scope.token),
      keys.ordersOfGallery(scope.tenantId, scope.token),
      keys.idempotencyRecordsOfGallery(scope.tenantId, scope.token),
      keys.shootOfGallery(scope.tenantId, scope.token),
      keys.referenceFacesOfGallery(scope.tenantId, scope.token),
    ];
    // Act
    const dryRun = await eraseGallery(scope, { dryRun: true });
    let receipt: Awaited<ReturnType<typeof eraseGallery>> | undefined;
    const sent = await queriesDuring(async () => {
      receipt = await eraseGallery(scope);
    });
    // Assess: the receipt counts everything, the same as its dry run
    const expected = {
      personCount: persons.length,
      accessCodes: persons.length,
      ordersRedactedCount: ERASURE_PAGE_SIZE + 29,
      idempotencyRecords: ERASURE_PAGE_SIZE + 3,
      events: persons.length, // person.created
    };
    expect(dryRun).toEqual(expect.objectContaining({ ...expected, dryRun: true }));
    expect(receipt).toEqual(expect.objectContaining({ ...expected, dryRun: false }));
    expect([...receipt!.persons].sort()).toEqual(persons.map((person) => person.personId).sort());
    expect({ ...receipt, dryRun: true }).toEqual(dryRun);
    // Assess: every read of a gallery-wide collection asked for a page at most
    const pagedReads = sent.queries.filter((query) => pagedPartitions.includes(query.partition));
    expect(pagedReads.length).toBeGreaterThan(8);
    expect(pagedReads.filter((query) => query.limit === undefined || query.limit > ERASURE_PAGE_SIZE)).toEqual([]);
    expect(sent.scans).toBe(0);
    // Assess: only the orders stay, without their participants (their pointers are gone too)
    const left = await itemsOfGallery(studio);
    expect(left.every((item) => String(item.sk).startsWith(ITEM_PREFIX.order) && item.person === undefined)).toBe(true);
    expect(left).toHaveLength(ERASURE_PAGE_SIZE + 29);
  }, 300_000);

  it('gallery erasure-indexes lists events and orders written before the indexes, so that erasing a person finds them', async () => {
    // Prepare: a person's event as written before the per-person index, and an order without pointers
    const studio = await createPayingStudio();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const [person] = await importPersons(studio, 1);
    const events = await queryGsi1(keys.eventsOfPerson(scope.tenantId, scope.token, person!.personId));
    for (const event of events)
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: event.pk, sk: event.sk },
          UpdateExpression: 'REMOVE #pk, #sk',
          ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
        }),
      );
    await plantEndedOrders(studio, 1);
    const before = await erasePersons(scope, { email: 'reserved.0@example.com' }, { dryRun: true });
    // Act
    const run = await admin('gallery', 'erasure-indexes', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    const again = await admin(
      'gallery',
      'erasure-indexes',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--json',
    );
    // Assess
    expect(events).toHaveLength(1);
    expect(before.ordersRedacted).toEqual([]);
    expect(run.json()).toEqual({ orders: 1, events: 1 });
    expect(again.json()).toEqual({ orders: 1, events: 0 });
    expect((await erasePersons(scope, { personId: person!.personId })).events).toBe(1);
    expect((await erasePersons(scope, { email: 'reserved.0@example.com' })).ordersRedacted).toEqual(['ord_scale0000']);
  }, 120_000);
});
