import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, S3Event } from 'aws-lambda';
import { type RunningChangeStream, startChangeStream } from '../../../scripts/local/change-stream';
import { invokeAsynchronously } from '../../../scripts/local/local-async-invoke';
import { LocalFailureStore } from '../../../scripts/local/local-failure-store';
import { replayLocalFailures } from '../../../scripts/admin/failure-replay';
import { ASYNC_RETRY_ATTEMPTS } from '../../../infra/failure-queue';
import { admin } from '../../support/admin';
import { objectCreatedEvent } from '../../support/media';
import { useTestTable } from '../../support/test-table';

useTestTable({ stream: true });

const RETRIES = 3;
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));
const keyOf = (record: DynamoDBRecord) => record.dynamodb!.Keys!.pk!.S!;

let directory: string;
let store: LocalFailureStore;
let stream: RunningChangeStream | undefined;
/** The records the handler took, by partition key, in the order it took them. */
const taken: string[] = [];
/** How often the handler was given the poison record. */
let poisonAttempts = 0;

/** A stream consumer that always throws on a batch holding a record marked poison, and takes every other batch. */
async function consumer(event: DynamoDBStreamEvent) {
  if (event.Records.some((record) => record.dynamodb?.NewImage?.poison?.BOOL === true)) {
    if (event.Records.length === 1) poisonAttempts += 1;
    throw new Error('poison');
  }
  taken.push(...event.Records.map(keyOf));
  return { batchItemFailures: [] };
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'failures-'));
  store = new LocalFailureStore(directory);
});
afterAll(async () => {
  await stream?.stop();
  documents.destroy();
  rmSync(directory, { recursive: true, force: true });
  delete process.env.LOCAL_FAILURE_DIR;
});

describe('the local change stream: a record that always fails', () => {
  it('is set aside after its retries into the failure store, and the rest of the shard goes on', async () => {
    // Prepare
    stream = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      handler: consumer,
      pollMs: 20,
      retries: RETRIES,
      failures: store,
      handlerName: 'webhooks/dispatch-events',
    });
    // Act: six items in one shard, the third one poison.
    for (let index = 0; index < 6; index += 1) {
      await documents.send(
        new PutCommand({
          TableName: process.env.TABLE_NAME,
          Item: { pk: `poison-test#${index}`, sk: 'ITEM', poison: index === 2 },
        }),
      );
    }
    await stream.caughtUp();
    // Assess
    expect(stream.setAside().map(keyOf)).toEqual(['poison-test#2']);
    expect(taken).toEqual(['poison-test#0', 'poison-test#1', 'poison-test#3', 'poison-test#4', 'poison-test#5']);
    expect(poisonAttempts).toBe(RETRIES + 1);
    const kept = store.list();
    expect(kept.map(({ handler, source, attempts, reason }) => ({ handler, source, attempts, reason }))).toEqual([
      { handler: 'webhooks/dispatch-events', source: 'stream', attempts: RETRIES + 1, reason: 'Error' },
    ]);
    expect((kept[0]!.event as DynamoDBStreamEvent).Records.map(keyOf)).toEqual(['poison-test#2']);
  });

  it('is listed by `ops replay --dry-run` and kept when it fails again', async () => {
    // Prepare
    process.env.LOCAL_FAILURE_DIR = directory;
    // Act
    const listed = await admin('ops', 'replay', '--dry-run', '--json');
    const again = await replayLocalFailures(directory, {
      loadHandler: async () => consumer as (event: unknown) => Promise<unknown>,
    });
    // Assess
    expect(listed.code).toBe(0);
    expect(listed.json().failures).toEqual([
      expect.objectContaining({ handler: 'webhooks/dispatch-events', source: 'stream', outcome: 'listed' }),
    ]);
    expect(again.map((outcome) => outcome.outcome)).toEqual(['failed']);
    expect(store.list()).toHaveLength(1);
  });

  it('is run through its handler again by `ops replay` once the handler takes it, and then forgotten', async () => {
    // Prepare
    const given: DynamoDBStreamEvent[] = [];
    const fixed = async (event: unknown) => {
      given.push(event as DynamoDBStreamEvent);
      return { batchItemFailures: [] };
    };
    // Act
    const outcomes = await replayLocalFailures(directory, { loadHandler: async () => fixed });
    // Assess
    expect(outcomes.map(({ handler, outcome }) => ({ handler, outcome }))).toEqual([
      { handler: 'webhooks/dispatch-events', outcome: 'replayed' },
    ]);
    expect(given.flatMap((event) => event.Records.map(keyOf))).toEqual(['poison-test#2']);
    expect(store.list()).toEqual([]);
  });
});

describe('the local photo ingest: an event whose ingest always fails', () => {
  it("is kept after Lambda's retries, and `ops replay` gives the same event to the ingest again", async () => {
    // Prepare
    const event = objectCreatedEvent('photos/T1/G1/camera-1/IMG_0001.JPG');
    let calls = 0;
    const failingIngest = async () => {
      calls += 1;
      throw new TypeError('ingest failed');
    };
    const replayedWith: S3Event[] = [];
    // Act
    const took = await invokeAsynchronously(failingIngest, event, {
      handlerName: 'photos/sorting/ingest-photo',
      store,
    });
    const kept = store.list();
    const outcomes = await replayLocalFailures(directory, {
      only: 'photos/sorting/ingest-photo',
      loadHandler: async (name) => {
        expect(name).toBe('photos/sorting/ingest-photo');
        return async (replayed) => void replayedWith.push(replayed as S3Event);
      },
    });
    // Assess
    expect(took).toBe(false);
    expect(calls).toBe(ASYNC_RETRY_ATTEMPTS + 1);
    expect(kept.map(({ handler, source, attempts, reason }) => ({ handler, source, attempts, reason }))).toEqual([
      {
        handler: 'photos/sorting/ingest-photo',
        source: 'async',
        attempts: ASYNC_RETRY_ATTEMPTS + 1,
        reason: 'TypeError',
      },
    ]);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['replayed']);
    expect(replayedWith).toEqual([event]);
    expect(store.list()).toEqual([]);
  });

  it('is not kept when a retry succeeds', async () => {
    // Prepare
    let calls = 0;
    const flakyIngest = async () => {
      calls += 1;
      if (calls === 1) throw new Error('once');
    };
    // Act
    const took = await invokeAsynchronously(flakyIngest, objectCreatedEvent('photos/T1/G1/camera-1/IMG_0002.JPG'), {
      handlerName: 'photos/sorting/ingest-photo',
      store,
    });
    // Assess
    expect([took, calls]).toEqual([true, 2]);
    expect(store.list()).toEqual([]);
  });
});
