import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { GSI2 } from '#lib/platform/table/table-definition';
import { PERSON_ITEM_PREFIX, personKeys } from '#lib/persons/store/keys';
import { addressIndexKeys, indexEntryUpdate } from '#lib/persons/store/persons';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import * as v from 'valibot';
import { parseItem } from '#lib/platform/table/item-schema';

/** Persons read at a time: only their ID, address and index key. */
const PAGE = 200;

/** What the backfill reads of a person's item. */
const addressedPersonSchema = v.object({
  personId: v.string(),
  email: v.nullish(v.string()),
  [GSI2.partitionKey]: v.nullish(v.string()),
});

/**
 * Lists every person of the gallery with an address under it on GSI2 (docs/data-model.md#the-address-index):
 * persons stored before the index existed lack its keys. Pages through the persons (memory stays
 * flat), writes only those whose keys are missing or stale, each on condition that its address
 * is still the one read. Safe to run again; answers how many it listed and how many it read.
 */
export async function indexPersonAddresses(scope: GalleryScope): Promise<{ read: number; listed: number }> {
  let read = 0;
  let listed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :person)',
        ExpressionAttributeValues: {
          ':pk': personKeys.personsOfGallery(scope.tenantId, scope.token),
          ':person': PERSON_ITEM_PREFIX,
        },
        ProjectionExpression: 'personId, email, #gsiPk',
        ExpressionAttributeNames: { '#gsiPk': GSI2.partitionKey },
        ExclusiveStartKey: startKey,
        Limit: PAGE,
      }),
    );
    const persons = (page.Items ?? []).map((item) => parseItem('person', addressedPersonSchema, item));
    read += persons.length;
    const unlisted = persons.flatMap((person) => {
      if (!person.email) return [];
      const keys = addressIndexKeys(scope, person.personId, person.email);
      return person[GSI2.partitionKey] === keys[GSI2.partitionKey] ? [] : [{ person, keys }];
    });
    const written = await mapWithConcurrency(unlisted, 8, ({ person, keys }) =>
      conditionalWrite(
        () =>
          db.send(
            new UpdateCommand(
              // A person erased or given another address meanwhile is left as it is now.
              indexEntryUpdate(personKeys.person(scope.tenantId, scope.token, person.personId), GSI2, keys, {
                expression: 'email = :email',
                values: { ':email': person.email },
              }),
            ),
          ),
        () => false,
      ),
    );
    listed += written.filter(Boolean).length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { read, listed };
}
