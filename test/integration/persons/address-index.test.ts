import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getPerson, listPersonsWithEmail } from '#lib/persons/store/persons';
import { importedCompletionItems } from '#lib/persons/store/imported-completion';
import { transact } from '#lib/platform/table/conditional-writes';
import { findTenantById } from '#lib/tenants/store/tenant-directory';
import { GSI2 } from '#lib/platform/table/table-definition';
import { emailKey } from '#lib/platform/email-address';
import { useLocalApi } from '../../support/local-api';
import { admin } from '../../support/admin';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { observingCommands } from '../../support/sent-commands';
import { useSesEmulator } from '../../support/ses';
import { keys } from '../../support/table-keys';

/**
 * Issue 42: what a request looks up by a value has a key or an index of its own. sendPhotoLink
 * finds the persons with an address on GSI2, and the photo-ready email its tenant by the tenant's
 * ID pointer: each reads the same few items whatever the size of the gallery or the directory.
 */
process.env.PHOTO_LINK_ANSWER_MS = '50';
const api = useLocalApi();
const ses = useSesEmulator();

/** The DynamoDB calls `act` sends, with the partition or index each reads. */
async function readsDuring(act: () => Promise<unknown>) {
  const sent: { command: string; index?: string; partition?: unknown }[] = [];
  await observingCommands(act, (command, input) => {
    const request = input as {
      IndexName?: string;
      Key?: { pk?: unknown };
      ExpressionAttributeValues?: Record<string, unknown>;
    };
    sent.push({
      command,
      ...(request.IndexName ? { index: request.IndexName } : {}),
      partition: request.Key?.pk ?? request.ExpressionAttributeValues?.[':pk'],
    });
  });
  return sent;
}

const personsPartition = (studio: TestTenant) => keys.personsOfGallery(studio.tenant.tenantId, studio.token);

describe('persons by address (GSI2)', () => {
  let studio: TestTenant;
  const scope = () => ({ tenantId: studio.tenant.tenantId, token: studio.token });

  beforeAll(async () => {
    studio = await createTestTenant({ plan: 'pro' });
    // A gallery of 1,000 persons, two of them sharing a parent's address.
    for (let batch = 0; batch < 2; batch += 1) {
      const rows = Array.from({ length: 500 }, (_, index) => ({
        name: `Person ${batch}-${index}`,
        email: batch === 0 && index < 2 ? 'Parent@Example.com' : `person-${batch}-${index}@example.com`,
      }));
      const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
        method: 'POST',
        headers: studio.serverHeaders,
        body: { persons: rows },
      });
      expect(answer.body.imported).toBe(500);
    }
  }, 120_000);

  it('finds the persons with an address with one Query of its GSI2 partition, case and space ignored', async () => {
    // Act
    let found: Awaited<ReturnType<typeof listPersonsWithEmail>> = [];
    const sent = await readsDuring(async () => {
      found = await listPersonsWithEmail(scope(), '  parent@EXAMPLE.com ');
    });

    // Assess
    expect(found.map((person) => person.name).sort()).toEqual(['Person 0-0', 'Person 0-1']);
    expect(found[0]).toEqual({ personId: expect.any(String), name: expect.any(String), email: 'Parent@Example.com' });
    expect(sent).toEqual([
      {
        command: 'QueryCommand',
        index: GSI2.indexName,
        partition: keys.personsByEmail(studio.tenant.tenantId, studio.token, emailKey('parent@example.com')),
      },
    ]);
  });

  it("answers sendPhotoLink without reading the gallery's persons, and emails each person with the address", async () => {
    // Act
    const sent = await readsDuring(() =>
      api.call('/group-shoot', {
        method: 'POST',
        headers: studio.publicHeaders,
        body: { action: 'sendPhotoLink', token: studio.token, email: 'parent@example.com' },
      }),
    );

    // Assess
    await ses.waitForEmailsTo('Parent@Example.com', 2);
    expect(sent.filter((call) => call.index === GSI2.indexName)).toHaveLength(1);
    expect(
      sent.filter((call) => call.command === 'QueryCommand' && call.partition === personsPartition(studio)),
    ).toEqual([]);
  });

  it('lists a person who checks in under their address, and one whose address a check-in completed', async () => {
    // Act
    const answer = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: {
        action: 'submitCheckin',
        token: studio.token,
        name: 'Walk In',
        email: 'walk.in@example.com',
        consentGiven: true,
      },
    });

    // Assess
    expect(answer.status).toBe(200);
    expect((await listPersonsWithEmail(scope(), 'WALK.IN@example.com')).map((person) => person.personId)).toEqual([
      answer.body.personId,
    ]);
  });

  it('moves an imported person to the address their check-in completed them with', async () => {
    // Prepare
    const [imported] = await listPersonsWithEmail(scope(), 'person-0-9@example.com');
    const person = (await getPerson(scope(), imported!.personId))!;
    const completed = { ...person, email: 'New.Address@example.com', checkedInAt: new Date().toISOString() };

    // Act
    await transact(importedCompletionItems(scope(), completed, { expression: 'attribute_exists(pk)', values: {} }));

    // Assess
    expect(await listPersonsWithEmail(scope(), 'person-0-9@example.com')).toEqual([]);
    expect((await listPersonsWithEmail(scope(), 'new.address@example.com')).map((found) => found.personId)).toEqual([
      person.personId,
    ]);
  });

  it('backfill indexes lists the persons stored before the index, and only those, and is safe to run again', async () => {
    // Prepare: one person as stored before GSI2 (no keys of it).
    const [unlisted] = await listPersonsWithEmail(scope(), 'person-1-7@example.com');
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.person(studio.tenant.tenantId, studio.token, unlisted!.personId),
        UpdateExpression: 'REMOVE #pk, #sk',
        ExpressionAttributeNames: { '#pk': GSI2.partitionKey, '#sk': GSI2.sortKey },
      }),
    );
    expect(await listPersonsWithEmail(scope(), 'person-1-7@example.com')).toEqual([]);

    // Act
    const first = await admin('backfill', 'indexes', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    const again = await admin('backfill', 'indexes', '--tenant', studio.slug, '--gallery', studio.token, '--json');

    // Assess
    expect(first.code).toBe(0);
    expect(first.json().galleries).toEqual([
      { tenant: studio.slug, gallery: studio.token, personsRead: 1001, personsListed: 1 },
    ]);
    expect(again.json().galleries[0].personsListed).toBe(0);
    expect((await listPersonsWithEmail(scope(), 'person-1-7@example.com')).map((person) => person.personId)).toEqual([
      unlisted!.personId,
    ]);
  });
});

describe("the tenant of a photo-ready email, by the tenant's ID pointer", () => {
  it('finds a tenant with two GetItems (pointer, profile), however many tenants the directory holds', async () => {
    // Prepare
    const studio = await createTestTenant();

    // Act
    let found: Awaited<ReturnType<typeof findTenantById>>;
    const sent = await readsDuring(async () => {
      found = await findTenantById(studio.tenant.tenantId);
    });

    // Assess
    expect(found!).toEqual({ slug: studio.slug, name: studio.tenant.name });
    expect(sent).toEqual([
      { command: 'GetItemCommand', partition: keys.tenantIdPointer(studio.tenant.tenantId).pk },
      { command: 'GetItemCommand', partition: keys.tenant(studio.slug).pk },
    ]);
  });

  it('finds a tenant created before the pointers once in the directory, writing its pointer; backfill indexes writes the missing ones', async () => {
    // Prepare: two tenants as created before the pointers existed.
    const [older, oldest] = [await createTestTenant(), await createTestTenant()];
    for (const tenant of [older, oldest])
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.tenantIdPointer(tenant.tenant.tenantId) }));

    // Act
    const found = await findTenantById(older.tenant.tenantId);
    const backfill = await admin('backfill', 'indexes', '--json');
    const sent = await readsDuring(() => findTenantById(`${oldest.tenant.tenantId}`));

    // Assess
    expect(found).toEqual({ slug: older.slug, name: older.tenant.name });
    expect(backfill.code).toBe(0);
    expect(backfill.json().tenantIdPointersWritten).toBe(1);
    expect(sent.map((call) => call.command)).toEqual(['GetItemCommand', 'GetItemCommand']);
  });
});
