import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteIdempotencyRecord,
  listIdempotencyRecordsOfGallery,
} from '#lib/idempotency/store/idempotency-records';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import {
  type IdempotencyScope,
  deriveIdempotencyKeyMaterial,
  sealAnswer,
} from '#lib/idempotency/rules/idempotency-sealing';
import type { ApiAnswer } from '../../support/local-api';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { useStripeEmulator } from '../../support/stripe';

const api = useLocalApi();
const stripe = useStripeEmulator(api);

type Item = Record<string, any>;

const checkin = (studio: CheckinStudio, key: string, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: { ...studio.publicHeaders, 'Idempotency-Key': key }, body });

const importPersons = (studio: TestTenant, key: string, persons: unknown[]) =>
  api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: { ...studio.serverHeaders, 'Idempotency-Key': key },
    body: { persons },
  });

const publicScope = (studio: TestTenant): IdempotencyScope => ({
  tenantId: studio.tenant.tenantId,
  caller: 'public',
  routeId: 'submitCheckin',
});
const serverScope = (studio: TestTenant): IdempotencyScope => ({
  tenantId: studio.tenant.tenantId,
  caller: studio.key.keyId,
  routeId: 'importPersons',
});

/** The record of a key as DynamoDB Local holds it, every attribute. */
async function storedRecord(scope: IdempotencyScope, key: string): Promise<{ scopeHash: string; item: Item }> {
  const { scopeHash } = await deriveIdempotencyKeyMaterial(scope, key);
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.idempotencyKey(scopeHash), ConsistentRead: true }),
  );
  if (!Item) throw new Error('no idempotency record');
  return { scopeHash, item: Item };
}

/** Every attribute name and value as text: binary values as bytes read as Latin-1 and UTF-8, and as base64 and hex. */
function textsOf(item: Item): string[] {
  const texts = (value: unknown): string[] => {
    if (value instanceof Uint8Array) {
      const bytes = Buffer.from(value);
      return [bytes.toString('latin1'), bytes.toString('utf8'), bytes.toString('base64'), bytes.toString('hex')];
    }
    if (value instanceof Set) return [...value].flatMap(texts);
    return [JSON.stringify(value)];
  };
  return Object.entries(item).flatMap(([name, value]) => [name, ...texts(value)]);
}

function expectNoneInClear(item: Item, secrets: readonly string[]) {
  const found = secrets.filter((secret) => textsOf(item).some((text) => text.includes(secret)));
  expect(found).toEqual([]);
}

function expectReplayOf(replay: ApiAnswer, first: ApiAnswer) {
  expect(replay.status).toBe(first.status);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual({ ...first.body, requestId: replay.headers.get('x-request-id') });
}

describe('Idempotency-Key records hold no token, code, name or email in clear', () => {
  it('POST /group-shoot submitCheckin, free: neither code, name nor email, and the replay is exactly the first answer', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const key = randomUUID();
    const body = studio.validBody({ selectedPackageId: studio.freePackage.id });
    // Act
    const first = await checkin(studio, key, body);
    const { scopeHash, item } = await storedRecord(publicScope(studio), key);
    const replay = await checkin(studio, key, body);
    // Assess
    expect(first.status).toBe(200);
    expectNoneInClear(item, [first.body.code, 'Ada Lovelace', 'ada@example.com']);
    expectReplayOf(replay, first);
    expect(item).toMatchObject({
      [GSI1.partitionKey]: keys.idempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token),
      // Naming one person alone, it is listed under that person: erasing them reads it by prefix.
      [GSI1.sortKey]: `${keys.recordsOfPerson(first.body.personId)}${scopeHash}`,
      personIds: new Set([first.body.personId]),
    });
    expect(item.orderIds).toBeUndefined();
  });

  it('POST /group-shoot submitCheckin, paid: neither status token, retry token, name nor email', async () => {
    const studio = await createPayingStudio();
    const key = randomUUID();
    const body = studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true });

    const first = await checkin(studio, key, body);
    const { item } = await storedRecord(publicScope(studio), key);
    const replay = await checkin(studio, key, body);

    expect(first.status).toBe(200);
    expect(first.body.statusToken).toMatch(/^gst_/);
    expectNoneInClear(item, [first.body.statusToken, first.body.retryToken, 'Ada Lovelace', 'ada@example.com']);
    expectReplayOf(replay, first);
    expect(item).toMatchObject({
      [GSI1.partitionKey]: keys.idempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token),
      orderIds: new Set([first.body.orderId]),
    });
    expect(item.personIds).toBeUndefined();
  });

  it('POST /group-shoot checkinStatus once paid: neither code nor name, listed under the gallery of its status token', async () => {
    // Prepare: a paid check-in, paid.
    const studio = await createPayingStudio();
    const reserved = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true }),
    });
    await stripe.emulator.pay(reserved.body.checkoutUrl.split('/').pop());
    const key = randomUUID();
    // Act
    const status = await checkin(studio, key, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    const { item } = await storedRecord(publicScope(studio), key);
    // Assess
    expect(status.body).toMatchObject({ ok: true, status: 'paid', code: expect.any(String) });
    expectNoneInClear(item, [status.body.code, 'Ada Lovelace', reserved.body.statusToken]);
    expect(item).toMatchObject({
      [GSI1.partitionKey]: keys.idempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token),
      personIds: new Set([status.body.personId]),
      orderIds: new Set([reserved.body.orderId]),
    });
    expect(await listIdempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token)).toContainEqual(
      expect.objectContaining({ personIds: [status.body.personId], orderIds: [reserved.body.orderId] }),
    );
  });

  it('POST persons: neither codes, names nor emails, every person ID listed', async () => {
    const studio = await createTestTenant();
    const key = randomUUID();
    const persons = [
      { name: 'Grace Hopper', email: 'grace@example.com', employeeId: 'E-1001' },
      { name: 'Alan Turing', email: 'alan@example.com' },
    ];

    const first = await importPersons(studio, key, persons);
    const { item } = await storedRecord(serverScope(studio), key);
    const replay = await importPersons(studio, key, persons);

    expect(first.status).toBe(200);
    const codes = first.body.persons.map((person: Item) => person.code);
    expectNoneInClear(item, [
      ...codes,
      'Grace Hopper',
      'grace@example.com',
      'E-1001',
      'Alan Turing',
      'alan@example.com',
    ]);
    expectReplayOf(replay, first);
    expect(item.personIds).toEqual(new Set(first.body.persons.map((person: Item) => person.personId)));
  });

  it('gives an answer that names no gallery no index attributes', async () => {
    const studio = await createCheckinStudio();
    const key = randomUUID();

    const refused = await checkin(studio, key, { action: 'checkinStatus', statusToken: 'gst_unknown' });
    const { item } = await storedRecord(publicScope(studio), key);

    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(item.state).toBe('completed');
    expect(
      Object.keys(item).filter((name) => [GSI1.partitionKey, GSI1.sortKey, 'personIds', 'orderIds'].includes(name)),
    ).toEqual([]);
  });
});

describe('an Idempotency-Key record altered in the table', () => {
  it.each([
    [
      'a byte flipped',
      (sealed: Buffer) => Buffer.concat([sealed.subarray(0, 30), Buffer.of(sealed[30]! ^ 0xff), sealed.subarray(31)]),
    ],
    ['cut short', (sealed: Buffer) => sealed.subarray(0, 20)],
    [
      'sealed under another key',
      () => sealAnswer(Buffer.alloc(32, 7), { statusCode: 200, members: { imported: 0 } }, 'elsewhere'),
    ],
  ])(
    'with its answer %s: the repeat runs anew (no 500), once, and later repeats replay the new answer',
    async (_case, alter) => {
      // Prepare
      const studio = await createTestTenant();
      const key = randomUUID();
      const persons = [{ name: 'Grace Hopper' }];
      await importPersons(studio, key, persons);
      const { item } = await storedRecord(serverScope(studio), key);
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.idempotencyKey((await deriveIdempotencyKeyMaterial(serverScope(studio), key)).scopeHash),
          UpdateExpression: 'SET sealedAnswer = :altered',
          ExpressionAttributeValues: { ':altered': alter(Buffer.from(item.sealedAnswer)) },
        }),
      );
      // Act
      const rerun = await importPersons(studio, key, persons);
      const later = await importPersons(studio, key, persons);
      // Assess
      expect(rerun.status).toBe(200);
      expect(rerun.headers.get('idempotent-replayed')).toBeNull();
      expectReplayOf(later, rerun);
      expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(2);
    },
  );
});

describe('listIdempotencyRecordsOfGallery and deleteIdempotencyRecord', () => {
  it("list a gallery's records with the persons their answers carry, and no other gallery's", async () => {
    // Prepare
    const studio = await createTestTenant();
    const other = await createTestTenant();
    const firstImport = await importPersons(studio, randomUUID(), [{ name: 'A' }, { name: 'B' }]);
    const secondImport = await importPersons(studio, randomUUID(), [{ name: 'C' }]);
    await importPersons(other, randomUUID(), [{ name: 'D' }]);
    // Act
    const records = await listIdempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token);
    // Assess
    const personIdsOf = (answer: ApiAnswer) => answer.body.persons.map((person: Item) => person.personId).sort();
    expect(records.map((record) => ({ ...record, personIds: [...record.personIds].sort() }))).toEqual(
      expect.arrayContaining([
        { scopeHash: expect.stringMatching(/^[0-9a-f]{64}$/), personIds: personIdsOf(firstImport), orderIds: [] },
        { scopeHash: expect.stringMatching(/^[0-9a-f]{64}$/), personIds: personIdsOf(secondImport), orderIds: [] },
      ]),
    );
    expect(records).toHaveLength(2);
  });

  it('list every page of a gallery whose records fill more than one page of a Query', async () => {
    // Prepare: five records of 300 KB under one gallery, 1.5 MB, while a Query page ends at 1 MB.
    const scope = { tenantId: 'ten_pages', token: 'pagesgallery2345' };
    const written: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const scopeHash = randomUUID().replace(/-/g, '').padEnd(64, '0');
      await claimIdempotencyKey(scopeHash, 'request', Date.now());
      await completeIdempotencyKey(scopeHash, {
        sealedAnswer: Buffer.alloc(300_000, index),
        gallery: scope,
        personIds: [`per_${index}`],
        orderIds: [],
      });
      written.push(scopeHash);
    }
    const firstPage = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.idempotencyRecordsOfGallery(scope.tenantId, scope.token) },
      }),
    );
    // Act
    const records = await listIdempotencyRecordsOfGallery(scope.tenantId, scope.token);
    // Assess
    expect(firstPage.LastEvaluatedKey).toBeDefined();
    expect(records.map((record) => record.scopeHash).sort()).toEqual(written.sort());
    expect(records.map((record) => record.personIds).sort()).toEqual([
      ['per_0'],
      ['per_1'],
      ['per_2'],
      ['per_3'],
      ['per_4'],
    ]);
  }, 30_000);

  it('delete a record: it is no longer listed, and a repeat of its key runs anew', async () => {
    const studio = await createTestTenant();
    const key = randomUUID();
    await importPersons(studio, key, [{ name: 'A' }]);
    const [record] = await listIdempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token);

    await deleteIdempotencyRecord(record!.scopeHash);

    expect(await listIdempotencyRecordsOfGallery(studio.tenant.tenantId, studio.token)).toEqual([]);
    const repeat = await importPersons(studio, key, [{ name: 'A' }]);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBeNull();
  });
});
