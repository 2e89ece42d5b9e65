import { GSI1 } from '#lib/platform/table/table-definition';
import { queryAll } from '#lib/platform/table/queries';
import { type PageVisitor, forEachPartitionPage } from '#lib/platform/table/query-pages';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { PERSON_ITEM_PREFIX, personKeys } from '#lib/persons/store/keys';
import { fromPersonItem, getPerson, listPersonsWithEmail } from '#lib/persons/store/persons';

/** The look-ups of persons that erasure names its subject by, and the paged read of a whole gallery's persons. */

/**
 * The persons of the gallery with this email address (case and surrounding space ignored), whole
 * and strongly consistent. The one place erasure finds persons by address: one Query of the
 * address index (listPersonsWithEmail, GSI2), then each person by key.
 */
export async function personsWithAddress(scope: GalleryScope, email: string): Promise<Person[]> {
  const found = await listPersonsWithEmail(scope, email);
  const persons = await Promise.all(found.map((person) => getPerson(scope, person.personId, { consistent: true })));
  return persons.filter((person): person is Person => person !== undefined);
}

/** The persons of the gallery with this exact employee ID: one Query of GSI1 (personKeys.personsByEmployeeId). */
export async function personsWithEmployeeId(scope: GalleryScope, employeeId: string): Promise<Person[]> {
  const items = await queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
    ExpressionAttributeValues: { ':pk': personKeys.personsByEmployeeId(scope.tenantId, scope.token, employeeId) },
  });
  return items.map(fromPersonItem);
}

/**
 * Every person of the gallery in creation order, `pageSize` at a time: each page is handed to
 * `visit` before the next is read (it may delete the persons it was given), so that a whole
 * gallery's persons never sit in memory together.
 */
export function forEachPersonPage(scope: GalleryScope, pageSize: number, visit: PageVisitor<Person>): Promise<void> {
  return forEachPartitionPage(
    personKeys.personsOfGallery(scope.tenantId, scope.token),
    pageSize,
    (items) => visit(items.map(fromPersonItem)),
    { skPrefix: PERSON_ITEM_PREFIX },
  );
}
