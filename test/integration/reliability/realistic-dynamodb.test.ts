import {
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { type RealisticDynamoDb, startRealisticDynamoDb } from '../../../scripts/local/realistic-dynamodb/proxy';
import { logNormalSampler } from '../../../scripts/local/realistic-dynamodb/latency';
import { useTestTable } from '../../support/test-table';

useTestTable();

const TABLE = () => process.env.TABLE_NAME!;
const key = (pk: string, sk = 'item') => ({ pk: { S: pk }, sk: { S: sk } });
/** Every transaction is ongoing for about 150 ms: long enough for a second call to meet it on any machine. */
const SLOW_TRANSACTIONS = {
  read: { p50Ms: 2, p99Ms: 2.01 },
  write: { p50Ms: 2, p99Ms: 2.01 },
  transaction: { p50Ms: 150, p99Ms: 150.01 },
  batch: { p50Ms: 2, p99Ms: 2.01 },
};

let proxy: RealisticDynamoDb;
let client: DynamoDBClient;
let clock = 0;

beforeAll(async () => {
  proxy = await startRealisticDynamoDb({
    target: process.env.DYNAMODB_ENDPOINT!,
    latency: SLOW_TRANSACTIONS,
    partitionWriteUnitsPerSecond: 5,
    now: () => clock,
  });
  // One attempt: what DynamoDB answered, not what the SDK's retries made of it.
  client = new DynamoDBClient({ endpoint: proxy.endpoint, maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await proxy.stop();
});
beforeEach(() => {
  // A fresh second for each test: every partition has its units.
  clock += 10_000;
});

const increment = (pk: string) => ({
  Update: {
    TableName: TABLE(),
    Key: key(pk),
    UpdateExpression: 'ADD booked :one',
    ExpressionAttributeValues: { ':one': { N: '1' } },
  },
});
const put = (pk: string) => ({ Put: { TableName: TABLE(), Item: { ...key(pk), note: { S: 'written' } } } });
const booked = async (pk: string) =>
  Number(
    (await client.send(new GetItemCommand({ TableName: TABLE(), Key: key(pk), ConsistentRead: true }))).Item?.booked
      ?.N ?? 0,
  );
const exists = async (pk: string) =>
  (await client.send(new GetItemCommand({ TableName: TABLE(), Key: key(pk), ConsistentRead: true }))).Item !==
  undefined;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error & { CancellationReasons?: { Code: string }[] }) => error,
  );
const afterMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a DynamoDB that conflicts like the real one', () => {
  it('cancels a transaction that touches an item of an ongoing one, with TransactionConflict at that item, and Local applies only the first', async () => {
    // Act
    const first = client.send(
      new TransactWriteItemsCommand({ TransactItems: [increment('day-a'), put('first-only')] }),
    );
    await afterMs(30);
    const second = failureOf(
      client.send(new TransactWriteItemsCommand({ TransactItems: [put('second-only'), increment('day-a')] })),
    );
    // Assess
    await expect(first).resolves.toBeDefined();
    const refused = await second;
    expect(refused?.name).toBe('TransactionCanceledException');
    expect(refused?.CancellationReasons?.map((reason) => reason.Code)).toEqual(['None', 'TransactionConflict']);
    expect(await booked('day-a')).toBe(1);
    expect(await exists('first-only')).toBe(true);
    expect(await exists('second-only')).toBe(false);
  });

  it('refuses a plain write to an item of an ongoing transaction with TransactionConflictException, and lets writes to other items through', async () => {
    // Act
    const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [increment('day-b')] }));
    await afterMs(30);
    const sameItem = failureOf(client.send(new UpdateItemCommand(increment('day-b').Update)));
    const otherItem = client.send(new UpdateItemCommand(increment('day-c').Update));
    // Assess
    await transaction;
    expect((await sameItem)?.name).toBe('TransactionConflictException');
    await expect(otherItem).resolves.toBeDefined();
    expect(await booked('day-b')).toBe(1);
    expect(await booked('day-c')).toBe(1);
    expect(proxy.stats.writeConflicts).toBeGreaterThanOrEqual(1);
    const contended = Object.entries(proxy.stats.contendedItems).filter(([itemId]) => itemId.includes('day-b'));
    expect(contended.map(([, counts]) => counts.conflicts)).toEqual([1]);
    expect(Object.keys(proxy.stats.contendedItems).some((itemId) => itemId.includes('day-c'))).toBe(false);
  });

  it('cancels a transactional read of an item being written, while plain reads see the committed value', async () => {
    // Prepare
    await client.send(new UpdateItemCommand(increment('day-d').Update));
    // Act
    const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [increment('day-d')] }));
    await afterMs(30);
    const transactionalRead = failureOf(
      client.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: TABLE(), Key: key('day-d') } }] })),
    );
    const plainRead = booked('day-d');
    // Assess
    expect((await transactionalRead)?.CancellationReasons?.map((reason) => reason.Code)).toEqual([
      'TransactionConflict',
    ]);
    expect(await plainRead).toBe(1);
    await transaction;
    expect(await booked('day-d')).toBe(2);
  });

  it('hands back a batch write of an item of an ongoing transaction unprocessed, and writes the rest', async () => {
    // Act
    const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [put('batch-locked')] }));
    await afterMs(30);
    const batch = await client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE()]: [
            { PutRequest: { Item: { ...key('batch-locked'), note: { S: 'batch' } } } },
            { PutRequest: { Item: { ...key('batch-free'), note: { S: 'batch' } } } },
          ],
        },
      }),
    );
    await transaction;
    // Assess
    expect(batch.UnprocessedItems?.[TABLE()]?.map((request) => request.PutRequest?.Item?.pk?.S)).toEqual([
      'batch-locked',
    ]);
    expect(await exists('batch-free')).toBe(true);
    const locked = await client.send(
      new GetItemCommand({ TableName: TABLE(), Key: key('batch-locked'), ConsistentRead: true }),
    );
    expect(locked.Item?.note?.S).toBe('written');
  });

  it("limits a partition's writes to its units per second: a plain write is throttled, a transaction cancelled with ThrottlingError, other partitions untouched, and the units come back", async () => {
    // Prepare: 5 units a second; a plain write of a small item costs 1, a transactional one 2.
    for (let write = 0; write < 5; write += 1)
      await client.send(new UpdateItemCommand(increment('hot-partition').Update));
    // Act
    const plainWrite = await failureOf(client.send(new UpdateItemCommand(increment('hot-partition').Update)));
    const transaction = await failureOf(
      client.send(
        new TransactWriteItemsCommand({ TransactItems: [increment('cold-partition'), increment('hot-partition')] }),
      ),
    );
    const otherPartition = await failureOf(client.send(new UpdateItemCommand(increment('cold-partition').Update)));
    clock += 1_000;
    const aSecondLater = await failureOf(client.send(new UpdateItemCommand(increment('hot-partition').Update)));
    // Assess
    expect(plainWrite?.name).toBe('ProvisionedThroughputExceededException');
    expect(transaction?.CancellationReasons?.map((reason) => reason.Code)).toEqual(['None', 'ThrottlingError']);
    expect(otherPartition).toBeUndefined();
    expect(aSecondLater).toBeUndefined();
    expect(await booked('hot-partition')).toBe(6);
    expect(await booked('cold-partition')).toBe(1);
  });

  it("passes Local's own answers through: a failed condition stays ConditionalCheckFailedException", async () => {
    // Act
    const failed = await failureOf(
      client.send(
        new UpdateItemCommand({ ...increment('conditional').Update, ConditionExpression: 'attribute_exists(pk)' }),
      ),
    );
    // Assess
    expect(failed?.name).toBe('ConditionalCheckFailedException');
    expect(await exists('conditional')).toBe(false);
  });
});

describe('the latency it adds', () => {
  it('is log-normal with the median and 99th percentile it is given', () => {
    // Act
    const sample = logNormalSampler({ p50Ms: 4, p99Ms: 14 }, Math.random);
    const delays = Array.from({ length: 40_000 }, sample).sort((a, b) => a - b);
    // Assess (the sampling error of 40,000 draws is well under these bounds)
    expect(delays[20_000]).toBeGreaterThan(4 * 0.95);
    expect(delays[20_000]).toBeLessThan(4 * 1.05);
    expect(delays[39_600]).toBeGreaterThan(14 * 0.9);
    expect(delays[39_600]).toBeLessThan(14 * 1.1);
    expect(delays[0]).toBeGreaterThan(0);
  });
});
