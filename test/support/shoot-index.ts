import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { keys } from './table-keys';

/**
 * The persons' shoot index and the photo pointers of a gallery, as stored and as a full read of
 * the shoot says they must be, for tests that hold the index to the shoot. Built here from the
 * shoot items' attributes, not with the store's own functions, so that a wrong rule fails.
 */

const prefixesOf = (scope: GalleryScope) => ({
  index: keys.shootIndexOfPerson(scope.tenantId, scope.token, ''),
  pointers: keys.shootPhotoPointer(scope.tenantId, scope.token, '').pk,
});

/** The gallery's index entries and pointers as stored (a Scan, every page: tests only). */
async function scanShootIndex(scope: GalleryScope): Promise<Record<string, unknown>[]> {
  const { index, pointers } = prefixesOf(scope);
  const found: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :index) OR begins_with(pk, :pointers)',
        ExpressionAttributeValues: { ':index': index, ':pointers': pointers },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/** Every index entry (`<pk> <sk>`) and pointer (`<pk> -> <shoot sk>`) of the gallery as stored. */
export async function storedShootIndex(scope: GalleryScope): Promise<string[]> {
  const { pointers } = prefixesOf(scope);
  return (await scanShootIndex(scope))
    .map((item) =>
      String(item.pk).startsWith(pointers)
        ? `${String(item.pk)} -> ${String(item.shootSk)}`
        : `${String(item.pk)} ${String(item.sk)}`,
    )
    .sort();
}

/** What the index and pointers must hold for the shoot as it is (a full read). */
export async function expectedShootIndex(scope: GalleryScope): Promise<string[]> {
  const expected = new Set<string>();
  const entry = (personId: string, role: string, sk: string) =>
    expected.add(`${keys.shootIndexOfPerson(scope.tenantId, scope.token, personId)} ${role}#${sk}`);
  for (const item of await listShootItems(scope)) {
    if (item.kind === 'erased_card') continue;
    expected.add(`${keys.shootPhotoPointer(scope.tenantId, scope.token, item.photoId).pk} -> ${item.sk}`);
    if (item.kind === 'card') {
      if (item.cardPersonId) entry(item.cardPersonId, 'CARD', item.sk);
      continue;
    }
    if (item.personId) entry(item.personId, 'HAS', item.sk);
    if (item.heldFor) entry(item.heldFor, 'HELD', item.sk);
    for (const candidate of item.candidates ?? []) entry(candidate.personId, 'CAND', item.sk);
  }
  return [...expected].sort();
}

/** Deletes the gallery's index entries and pointers: a shoot as sorted before they existed. */
export async function dropShootIndex(scope: GalleryScope): Promise<number> {
  const items = await scanShootIndex(scope);
  for (let start = 0; start < items.length; start += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName]: items.slice(start, start + 25).map((item) => ({
            DeleteRequest: { Key: { pk: item.pk, sk: item.sk } },
          })),
        },
      }),
    );
  }
  return items.length;
}

/** Whether a command sent to DynamoDB reads a whole shoot partition (`pk = …#SHOOT`, no sort-key condition). */
export function readsWholeShoot(commandName: string, input: unknown): boolean {
  if (commandName !== 'QueryCommand') return false;
  const query = input as { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> };
  const partition = query.ExpressionAttributeValues?.[':pk'];
  return (
    query.KeyConditionExpression?.trim() === 'pk = :pk' && typeof partition === 'string' && partition.endsWith('#SHOOT')
  );
}
