import { queryGsi1 } from '#lib/platform/table/queries';
import { keys } from '#lib/platform/table/keys';
import { emailKey } from '#lib/platform/email-address';
import { getPerson } from '#lib/persons/store/persons';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * The guest list of an `importedOnly` gallery: the persons the HR import created, found the two
 * ways a check-in names one. Each person is read again from its item, strongly consistent (the
 * index lags behind a check-in that completed it a moment ago).
 */

/** The gallery's imported persons holding this email address (case and surrounding space ignored). */
export async function importedPersonsWithEmail(scope: GalleryScope, email: string): Promise<Person[]> {
  const entries = await queryGsi1(keys.importedPersonsByEmail(scope.tenantId, scope.token, emailKey(email)));
  return currentPersons(scope, entries.map((entry) => entry.personId as string));
}

/** The gallery's imported persons with exactly this employee ID. */
export async function importedPersonsWithEmployeeId(scope: GalleryScope, employeeId: string): Promise<Person[]> {
  const entries = await queryGsi1(keys.personsByEmployeeId(scope.tenantId, scope.token, employeeId));
  return currentPersons(scope, entries.filter((entry) => entry.source === 'import').map((entry) => entry.personId as string));
}

async function currentPersons(scope: GalleryScope, personIds: readonly string[]): Promise<Person[]> {
  const persons = await Promise.all(personIds.map((personId) => getPerson(scope, personId, { consistent: true })));
  return persons.filter((person): person is Person => person !== undefined).sort((a, b) => a.personId.localeCompare(b.personId));
}
